#include "KnownHosts.h"

#include <optional>

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLockFile>
#include <QMessageAuthenticationCode>
#include <QRegularExpression>
#include <QStringList>

#include <mutex>

namespace TrainDesk {

namespace {

std::mutex fileMutex;  // QLockFile guards against other processes, this against our threads

// OpenSSH's hashed host field: |1|base64(salt)|base64(HMAC-SHA1(salt, host)).
bool matchesHashed(const QString &field, const QString &pattern)
{
    const QStringList parts = field.split(QLatin1Char('|'));
    if (parts.size() != 4 || parts.at(1) != QLatin1String("1"))
        return false;
    const QByteArray salt = QByteArray::fromBase64(parts.at(2).toLatin1());
    const QByteArray expected = QByteArray::fromBase64(parts.at(3).toLatin1());
    return QMessageAuthenticationCode::hash(pattern.toUtf8(), salt, QCryptographicHash::Sha1) == expected;
}

bool hostFieldMatches(const QString &field, const QString &pattern)
{
    if (field.startsWith(QLatin1Char('|')))
        return matchesHashed(field, pattern);
    for (const QString &name : field.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        if (name.compare(pattern, Qt::CaseInsensitive) == 0)
            return true;
        // OpenSSH's wildcards, as marker lines use them ("@revoked * ssh-rsa ...").
        if (name.contains(QLatin1Char('*')) || name.contains(QLatin1Char('?'))) {
            const QRegularExpression glob(QRegularExpression::wildcardToRegularExpression(name, QRegularExpression::UnanchoredWildcardConversion),
                                          QRegularExpression::CaseInsensitiveOption);
            if (QRegularExpression(QRegularExpression::anchoredPattern(glob.pattern()), QRegularExpression::CaseInsensitiveOption)
                    .match(pattern)
                    .hasMatch())
                return true;
        }
    }
    return false;
}

// A marker line: "@revoked <hosts> <type> <key>" or "@cert-authority <hosts> <type> <key>".
struct MarkerLine
{
    QString marker;
    QStringList fields;  // hosts, type, key
};

std::optional<MarkerLine> markerLine(const QString &line)
{
    if (!line.startsWith(QLatin1Char('@')))
        return std::nullopt;
    const QStringList parts = line.split(QRegularExpression(QStringLiteral("\\s+")));
    if (parts.size() < 4)
        return std::nullopt;
    return MarkerLine{parts.at(0), parts.mid(1)};
}

} // namespace

QString HostKey::fingerprint() const
{
    const QByteArray digest = QCryptographicHash::hash(blob, QCryptographicHash::Sha256);
    return QStringLiteral("SHA256:") + QString::fromLatin1(digest.toBase64(QByteArray::OmitTrailingEquals));
}

KnownHosts::KnownHosts(const QString &path) : m_path(path) {}

QString KnownHosts::hostPattern(const QString &host, int port)
{
    return port == 22 ? host : QStringLiteral("[%1]:%2").arg(host).arg(port);
}

KnownHosts::Verdict KnownHosts::check(const QString &host, int port, const HostKey &key) const
{
    std::lock_guard guard(fileMutex);
    QFile file(m_path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    const QString pattern = hostPattern(host, port);
    Verdict verdict;
    bool known = false;
    while (!file.atEnd()) {
        const QString line = QString::fromUtf8(file.readLine()).trimmed();
        if (const auto marker = markerLine(line)) {
            if (!hostFieldMatches(marker->fields.at(0), pattern))
                continue;
            // A revoked key is refused wherever else it is trusted, as OpenSSH does.
            if (marker->marker == QLatin1String("@revoked") && marker->fields.at(1) == key.type
                && QByteArray::fromBase64(marker->fields.at(2).toLatin1()) == key.blob)
                return {Match::Revoked, key.type, key.fingerprint(), {}};
            // TrainDesk checks host keys, not certificates: the line is noted and skipped.
            if (marker->marker == QLatin1String("@cert-authority"))
                verdict.note = QStringLiteral("a @cert-authority line for %1 was skipped: TrainDesk trusts host keys "
                                              "one by one, not certificates").arg(pattern);
            continue;
        }
        if (line.isEmpty() || line.startsWith(QLatin1Char('#')))
            continue;
        const QStringList fields = line.split(QRegularExpression(QStringLiteral("\\s+")));
        if (fields.size() < 3 || !hostFieldMatches(fields.at(0), pattern))
            continue;
        const QByteArray blob = QByteArray::fromBase64(fields.at(2).toLatin1());
        if (fields.at(1) == key.type && blob == key.blob) {
            known = true;  // unless a @revoked line further on says otherwise
            continue;
        }
        // Another key for this host: the same type means the key changed; another type
        // means the server no longer offers the key we know. Both are refused.
        if (verdict.match != Match::Changed || fields.at(1) == key.type) {
            verdict.match = Match::Changed;
            verdict.storedType = fields.at(1);
            verdict.storedFingerprint = HostKey{fields.at(1), blob}.fingerprint();
        }
    }
    if (known)
        return {Match::Known, {}, {}, verdict.note};
    return verdict;
}

QList<HostKey> KnownHosts::keys(const QString &host, int port) const
{
    std::lock_guard guard(fileMutex);
    QList<HostKey> found;
    QFile file(m_path);
    if (!file.open(QIODevice::ReadOnly))
        return found;
    const QString pattern = hostPattern(host, port);
    while (!file.atEnd()) {
        const QString line = QString::fromUtf8(file.readLine()).trimmed();
        if (line.isEmpty() || line.startsWith(QLatin1Char('#')) || line.startsWith(QLatin1Char('@')))
            continue;
        const QStringList fields = line.split(QRegularExpression(QStringLiteral("\\s+")));
        if (fields.size() >= 3 && hostFieldMatches(fields.at(0), pattern))
            found.append({fields.at(1), QByteArray::fromBase64(fields.at(2).toLatin1())});
    }
    return found;
}

VoidResult KnownHosts::add(const QString &host, int port, const HostKey &key)
{
    std::lock_guard guard(fileMutex);
    const QFileInfo info(m_path);
    if (!QDir().mkpath(info.absolutePath()))
        return fail(QStringLiteral("cannot create %1 for the known hosts file").arg(info.absolutePath()));
    QLockFile lock(m_path + QStringLiteral(".lock"));
    if (!lock.tryLock(10000))
        return fail(QStringLiteral("cannot lock %1 (another TrainDesk holds it)").arg(m_path));
    QFile file(m_path);
    const bool existed = file.exists();
    if (!file.open(QIODevice::Append))
        return fail(QStringLiteral("cannot write %1: %2").arg(m_path, file.errorString()));
    if (!existed)
        file.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner);
    const QByteArray line = hostPattern(host, port).toUtf8() + ' ' + key.type.toLatin1() + ' ' + key.blob.toBase64() + '\n';
    if (file.write(line) != line.size() || !file.flush())
        return fail(QStringLiteral("cannot write %1: %2").arg(m_path, file.errorString()));
    return {};
}

} // namespace TrainDesk
