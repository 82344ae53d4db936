#include "SecretBox.h"

#include "common/DataPaths.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLockFile>
#include <QMessageAuthenticationCode>
#include <QRandomGenerator>

#include <mutex>

namespace TrainDesk::SecretBox {

namespace {

constexpr int nonceSize = 16;
constexpr int tagSize = 32;
std::mutex keyMutex;

QByteArray randomBytes(int size)
{
    QByteArray bytes(size, Qt::Uninitialized);
    QRandomGenerator::system()->generate(reinterpret_cast<quint32 *>(bytes.data()),
                                         reinterpret_cast<quint32 *>(bytes.data() + size));
    return bytes;
}

Result<QByteArray> masterKey()
{
    std::lock_guard guard(keyMutex);
    const QString path = keyPath();
    QDir().mkpath(QFileInfo(path).absolutePath());
    QLockFile lock(path + QStringLiteral(".lock"));
    lock.tryLock(10000);
    QFile file(path);
    if (file.exists()) {
        if (!file.open(QIODevice::ReadOnly))
            return fail(QStringLiteral("cannot read the secret key %1: %2").arg(path, file.errorString()));
        const QByteArray key = file.readAll();
        if (key.size() != 32)
            return fail(QStringLiteral("the secret key %1 is damaged (expected 32 bytes)").arg(path));
        return key;
    }
    const QByteArray key = randomBytes(32);
    if (!file.open(QIODevice::WriteOnly))
        return fail(QStringLiteral("cannot create the secret key %1: %2").arg(path, file.errorString()));
    file.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner);
    if (file.write(key) != key.size() || !file.flush())
        return fail(QStringLiteral("cannot write the secret key %1").arg(path));
    return key;
}

QByteArray derive(const QByteArray &key, const char *purpose)
{
    return QMessageAuthenticationCode::hash(QByteArray(purpose), key, QCryptographicHash::Sha256);
}

// SHA-256 in counter mode as a stream cipher: block i = SHA256(key | nonce | i).
QByteArray keystreamXor(const QByteArray &key, const QByteArray &nonce, const QByteArray &data)
{
    QByteArray out = data;
    for (qsizetype block = 0; block * 32 < out.size(); ++block) {
        QCryptographicHash hash(QCryptographicHash::Sha256);
        hash.addData(key);
        hash.addData(nonce);
        const quint64 counter = quint64(block);
        hash.addData(QByteArrayView(reinterpret_cast<const char *>(&counter), sizeof counter));
        const QByteArray pad = hash.result();
        for (qsizetype i = 0; i < 32 && block * 32 + i < out.size(); ++i)
            out[block * 32 + i] = char(out[block * 32 + i] ^ pad[i]);
    }
    return out;
}

} // namespace

QString keyPath() { return DataPaths::dataDirectory() + QStringLiteral("/secret.key"); }

Result<QString> seal(const QString &secret)
{
    if (secret.isEmpty())
        return QString();
    const auto key = masterKey();
    if (!key)
        return key.failure();
    const QByteArray nonce = randomBytes(nonceSize);
    const QByteArray cipher = keystreamXor(derive(*key, "encrypt"), nonce, secret.toUtf8());
    const QByteArray tag = QMessageAuthenticationCode::hash(nonce + cipher, derive(*key, "authenticate"),
                                                            QCryptographicHash::Sha256);
    return QStringLiteral("v1:") + QString::fromLatin1((nonce + cipher + tag).toBase64());
}

Result<QString> open(const QString &sealed)
{
    if (sealed.isEmpty())
        return QString();
    if (!sealed.startsWith(QLatin1String("v1:")))
        return fail(QStringLiteral("a stored secret has an unknown format"));
    const QByteArray raw = QByteArray::fromBase64(sealed.mid(3).toLatin1());
    if (raw.size() < nonceSize + tagSize)
        return fail(QStringLiteral("a stored secret is damaged"));
    const auto key = masterKey();
    if (!key)
        return key.failure();
    const QByteArray nonce = raw.left(nonceSize);
    const QByteArray cipher = raw.mid(nonceSize, raw.size() - nonceSize - tagSize);
    const QByteArray tag = raw.right(tagSize);
    const QByteArray expected = QMessageAuthenticationCode::hash(nonce + cipher, derive(*key, "authenticate"),
                                                                 QCryptographicHash::Sha256);
    if (tag != expected)
        return fail(QStringLiteral("a stored secret cannot be decrypted: %1 is not the key it was sealed with").arg(keyPath()));
    return QString::fromUtf8(keystreamXor(derive(*key, "encrypt"), nonce, cipher));
}

} // namespace TrainDesk::SecretBox
