#include "Secrets.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRandomGenerator>

#include <openssl/evp.h>

#include <memory>

namespace TrainDesk {

namespace {

const QString sealedPrefix = QStringLiteral("traindesk-sealed:v1:");
constexpr int keySize = 32;
constexpr int nonceSize = 12;
constexpr int tagSize = 16;

using CipherContext = std::unique_ptr<EVP_CIPHER_CTX, decltype(&EVP_CIPHER_CTX_free)>;

QByteArray randomBytes(int count)
{
    QByteArray bytes(count, Qt::Uninitialized);
    QRandomGenerator::system()->fillRange(reinterpret_cast<quint32 *>(bytes.data()), count / 4);
    return bytes;
}

} // namespace

QString SecretKey::pathFor(const QString &databasePath)
{
    return QFileInfo(databasePath).absoluteDir().filePath(QStringLiteral("secrets.key"));
}

Result<SecretKey> SecretKey::loadOrCreate(const QString &path)
{
    SecretKey key;
    QFile file(path);
    if (!file.exists()) {
        QDir().mkpath(QFileInfo(path).absolutePath());
        QFile created(path);
        // NewOnly: of two processes creating the key at once, one writes and both read it.
        if (created.open(QIODevice::WriteOnly | QIODevice::NewOnly, QFileDevice::ReadOwner | QFileDevice::WriteOwner)) {
            const QByteArray bytes = randomBytes(keySize);
            if (created.write(bytes) != keySize || !created.flush())
                return fail(QStringLiteral("cannot write the secret key %1: %2").arg(path, created.errorString()));
            created.close();
        }
    }
    if (!file.open(QIODevice::ReadOnly))
        return fail(QStringLiteral("cannot read the secret key %1: %2").arg(path, file.errorString()));
    key.m_key = file.read(keySize + 1);
    if (key.m_key.size() != keySize)
        return fail(QStringLiteral("the secret key %1 is damaged: expected %2 bytes, found %3")
                        .arg(path).arg(keySize).arg(key.m_key.size()));
    return key;
}

Result<QString> SecretKey::seal(const QString &plain) const
{
    const QByteArray nonce = randomBytes(nonceSize);
    const QByteArray input = plain.toUtf8();
    QByteArray output(input.size(), Qt::Uninitialized);
    QByteArray tag(tagSize, Qt::Uninitialized);
    CipherContext ctx(EVP_CIPHER_CTX_new(), EVP_CIPHER_CTX_free);
    int length = 0;
    int finalLength = 0;
    const auto *k = reinterpret_cast<const unsigned char *>(m_key.constData());
    const auto *n = reinterpret_cast<const unsigned char *>(nonce.constData());
    if (!ctx || EVP_EncryptInit_ex(ctx.get(), EVP_aes_256_gcm(), nullptr, k, n) != 1
        || EVP_EncryptUpdate(ctx.get(), reinterpret_cast<unsigned char *>(output.data()), &length,
                             reinterpret_cast<const unsigned char *>(input.constData()), int(input.size())) != 1
        || EVP_EncryptFinal_ex(ctx.get(), reinterpret_cast<unsigned char *>(output.data()) + length, &finalLength) != 1
        || EVP_CIPHER_CTX_ctrl(ctx.get(), EVP_CTRL_GCM_GET_TAG, tagSize, tag.data()) != 1) {
        return fail(QStringLiteral("cannot seal a secret: the cipher failed"));
    }
    return sealedPrefix + QString::fromLatin1((nonce + output + tag).toBase64());
}

Result<QString> SecretKey::unseal(const QString &sealed) const
{
    if (!Secrets::isSealed(sealed))
        return sealed;
    const QByteArray data = QByteArray::fromBase64(sealed.mid(sealedPrefix.size()).toLatin1());
    if (data.size() < nonceSize + tagSize)
        return fail(QStringLiteral("the sealed value is damaged"));
    const QByteArray nonce = data.left(nonceSize);
    const QByteArray input = data.mid(nonceSize, data.size() - nonceSize - tagSize);
    QByteArray tag = data.right(tagSize);
    QByteArray output(input.size(), Qt::Uninitialized);
    CipherContext ctx(EVP_CIPHER_CTX_new(), EVP_CIPHER_CTX_free);
    int length = 0;
    int finalLength = 0;
    const auto *k = reinterpret_cast<const unsigned char *>(m_key.constData());
    const auto *n = reinterpret_cast<const unsigned char *>(nonce.constData());
    if (!ctx || EVP_DecryptInit_ex(ctx.get(), EVP_aes_256_gcm(), nullptr, k, n) != 1
        || EVP_DecryptUpdate(ctx.get(), reinterpret_cast<unsigned char *>(output.data()), &length,
                             reinterpret_cast<const unsigned char *>(input.constData()), int(input.size())) != 1
        || EVP_CIPHER_CTX_ctrl(ctx.get(), EVP_CTRL_GCM_SET_TAG, tagSize, tag.data()) != 1
        || EVP_DecryptFinal_ex(ctx.get(), reinterpret_cast<unsigned char *>(output.data()) + length, &finalLength) != 1) {
        return fail(QStringLiteral("the sealed value does not open with this key (sealed elsewhere, or damaged)"));
    }
    return QString::fromUtf8(output.left(length + finalLength));
}

namespace Secrets {

bool isSealed(const QString &value) { return value.startsWith(sealedPrefix); }

void forEach(JobSpec &spec, const std::function<void(const QString &, QString &)> &visit)
{
    if (spec.secrets) {
        for (qsizetype i = 0; i < spec.secrets->size(); ++i) {
            auto &value = (*spec.secrets)[i].value;
            if (value)
                visit(QStringLiteral("properties.secrets[%1].value").arg(i), *value);
        }
    }
    if (spec.mountVolumes) {
        auto credentials = [&](auto &list, const QString &kind) {
            if (!list)
                return;
            for (qsizetype i = 0; i < list->size(); ++i) {
                auto &c = (*list)[i].credentials;
                if (c && c->accountKey)
                    visit(QStringLiteral("properties.mountVolumes.%1[%2].credentials.accountKey").arg(kind).arg(i),
                          *c->accountKey);
            }
        };
        credentials(spec.mountVolumes->azureFileShares, QStringLiteral("azureFileShares"));
        credentials(spec.mountVolumes->azureBlobFileSystems, QStringLiteral("azureBlobFileSystems"));
    }
    if (spec.containerSettings && spec.containerSettings->imageSourceRegistry.credentials
        && spec.containerSettings->imageSourceRegistry.credentials->password) {
        visit(QStringLiteral("properties.containerSettings.imageSourceRegistry.credentials.password"),
              *spec.containerSettings->imageSourceRegistry.credentials->password);
    }
}

QStringList values(const JobSpec &spec)
{
    QStringList list;
    JobSpec copy = spec;
    forEach(copy, [&](const QString &, QString &value) { list << value; });
    return list;
}

Result<JobSpec> seal(const JobSpec &spec, const SecretKey &key)
{
    JobSpec sealed = spec;
    QString failure;
    forEach(sealed, [&](const QString &path, QString &value) {
        if (!failure.isEmpty() || isSealed(value))
            return;
        const auto s = key.seal(value);
        if (!s)
            failure = QStringLiteral("%1: %2").arg(path, s.error());
        else
            value = *s;
    });
    if (!failure.isEmpty())
        return fail(failure);
    return sealed;
}

Result<JobSpec> unseal(const JobSpec &spec, const SecretKey &key)
{
    JobSpec open = spec;
    QString failure;
    forEach(open, [&](const QString &path, QString &value) {
        if (!failure.isEmpty())
            return;
        const auto u = key.unseal(value);
        if (!u)
            failure = QStringLiteral("%1: %2").arg(path, u.error());
        else
            value = *u;
    });
    if (!failure.isEmpty())
        return fail(failure);
    return open;
}

JobSpec redacted(const JobSpec &spec)
{
    JobSpec copy = spec;
    forEach(copy, [](const QString &, QString &value) { value = QStringLiteral("<secret>"); });
    return copy;
}

Result<QByteArray> sealedText(const QByteArray &text, const JobSpec &spec, const SecretKey &key)
{
    bool clear = false;
    JobSpec copy = spec;
    forEach(copy, [&](const QString &, QString &value) { clear = clear || !isSealed(value); });
    if (!clear)
        return text;
    const auto sealed = seal(spec, key);
    if (!sealed)
        return sealed.failure();
    return writeJobSpec(*sealed);
}

Result<QByteArray> sealForStore(const QByteArray &text, const JobSpec &spec, const QString &databasePath)
{
    if (values(spec).isEmpty())
        return text;
    const auto key = SecretKey::loadOrCreate(SecretKey::pathFor(databasePath));
    if (!key)
        return key.failure();
    return sealedText(text, spec, *key);
}

Result<JobSpec> openFromStore(const JobSpec &spec, const QString &databasePath)
{
    bool sealed = false;
    for (const QString &v : values(spec))
        sealed = sealed || isSealed(v);
    if (!sealed)
        return spec;
    const auto key = SecretKey::loadOrCreate(SecretKey::pathFor(databasePath));
    if (!key)
        return key.failure();
    return unseal(spec, *key);
}

} // namespace Secrets
} // namespace TrainDesk
