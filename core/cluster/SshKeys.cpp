#include "SshKeys.h"

#include "common/DataPaths.h"
#include "common/ShellQuote.h"
#include "transport/Transport.h"

#include <libssh/libssh.h>

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSysInfo>

#include <mutex>

#include <fcntl.h>
#include <unistd.h>

namespace TrainDesk::SshKeys {

namespace {
std::mutex keyMutex;
}

QString defaultKeyPath() { return DataPaths::dataDirectory() + QStringLiteral("/ssh/id_ed25519"); }

Result<KeyPair> generateKeyPair(const QString &privateKeyPath, const QString &comment)
{
    const QString dir = QFileInfo(privateKeyPath).absolutePath();
    if (!QDir().mkpath(dir))
        return fail(QStringLiteral("cannot create %1 for the SSH key").arg(dir));
    QFile::setPermissions(dir, QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
    ssh_key key = nullptr;
    if (ssh_pki_generate(SSH_KEYTYPE_ED25519, 0, &key) != SSH_OK)
        return fail(QStringLiteral("cannot generate an ed25519 key"));
    QFile::remove(privateKeyPath);
    const QByteArray path = QFile::encodeName(privateKeyPath);
    // Made owner-only before a byte is written: libssh writes into it with fopen, which keeps
    // the mode, so the key is never readable by others, not even for a moment.
    if (const int fd = ::open(path.constData(), O_WRONLY | O_CREAT | O_EXCL, 0600); fd >= 0)
        ::close(fd);
    const int exported = ssh_pki_export_privkey_file(key, nullptr, nullptr, nullptr, path.constData());
    char *base64 = nullptr;
    const int publicExported = ssh_pki_export_pubkey_base64(key, &base64);
    const QString type = QString::fromLatin1(ssh_key_type_to_char(ssh_key_type(key)));
    ssh_key_free(key);
    if (exported != SSH_OK || publicExported != SSH_OK)
        return fail(QStringLiteral("cannot write the SSH key %1").arg(privateKeyPath));
    KeyPair pair{privateKeyPath, QStringLiteral("%1 %2 %3").arg(type, QString::fromLatin1(base64), comment)};
    ssh_string_free_char(base64);
    // libssh writes with the process umask: the private key must be the owner's alone.
    if (!QFile::setPermissions(privateKeyPath, QFileDevice::ReadOwner | QFileDevice::WriteOwner))
        return fail(QStringLiteral("cannot restrict the permissions of %1").arg(privateKeyPath));
    QFile pub(privateKeyPath + QStringLiteral(".pub"));
    if (!pub.open(QIODevice::WriteOnly | QIODevice::Truncate) || pub.write(pair.publicKeyLine.toUtf8() + '\n') < 0)
        return fail(QStringLiteral("cannot write %1").arg(pub.fileName()));
    return pair;
}

Result<KeyPair> ensureKeyPair(const QString &privateKeyPath, const QString &comment)
{
    std::lock_guard guard(keyMutex);
    QFile pub(privateKeyPath + QStringLiteral(".pub"));
    if (QFile::exists(privateKeyPath) && pub.open(QIODevice::ReadOnly)) {
        const QString line = QString::fromUtf8(pub.readAll()).trimmed();
        if (!line.isEmpty())
            return KeyPair{privateKeyPath, line};
    }
    const QString full = comment == QLatin1String("traindesk")
        ? QStringLiteral("traindesk@%1").arg(QSysInfo::machineHostName())
        : comment;
    return generateKeyPair(privateKeyPath, full);
}

QString deployCommand(const QString &publicKeyLine)
{
    const QString key = shellQuote(publicKeyLine.trimmed());
    return QStringLiteral(
               "umask 077 && mkdir -p \"$HOME/.ssh\" && f=\"$HOME/.ssh/authorized_keys\" && touch \"$f\" && "
               // Nodes that share a home (NFS, or two addresses of one machine) deploy at
               // the same time: hold a lock so the check and the append happen as one.
               "exec 9>>\"$f\" && { command -v flock >/dev/null 2>&1 && flock 9 || true; } && "
               "if ! grep -qxF -- %1 \"$f\"; then "
               "if [ -s \"$f\" ] && [ -n \"$(tail -c 1 \"$f\")\" ]; then echo >> \"$f\"; fi; "
               "printf '%s\\n' %1 >> \"$f\"; fi && "
               "chmod 700 \"$HOME/.ssh\" && chmod 600 \"$f\" && "
               "{ command -v restorecon >/dev/null 2>&1 && restorecon -F \"$HOME/.ssh\" \"$f\" || true; }")
        .arg(key);
}

VoidResult deployPublicKey(Transport &transport, const QString &publicKeyLine)
{
    const auto result = transport.exec(deployCommand(publicKeyLine), 30000);
    if (!result)
        return result.failure();
    if (result->exitCode != 0) {
        return fail(QStringLiteral("node %1: cannot add the key to ~/.ssh/authorized_keys (exit code %2): %3")
                        .arg(transport.nodeName()).arg(result->exitCode)
                        .arg(QString::fromLocal8Bit(result->stdErr).trimmed()));
    }
    return {};
}

QString removeCommand(const QString &publicKeyLine)
{
    const QString key = shellQuote(publicKeyLine.trimmed());
    return QStringLiteral(
               "f=\"$HOME/.ssh/authorized_keys\"; [ -f \"$f\" ] || { echo 0; exit 0; }; "
               "exec 9>>\"$f\" && { command -v flock >/dev/null 2>&1 && flock 9 || true; } && "
               "n=$(grep -cxF -- %1 \"$f\" || true) && "
               "if [ \"$n\" -gt 0 ]; then "
               // Rewritten in place (not renamed), so the lock others wait on stays this file's.
               "t=\"$f.traindesk-$$\" && umask 077 && "
               "{ grep -vxF -- %1 \"$f\" > \"$t\"; [ $? -le 1 ]; } && cat \"$t\" > \"$f\" && rm -f \"$t\" "
               "|| { rm -f \"$t\"; exit 1; }; fi && echo \"$n\"")
        .arg(key);
}

Result<int> removePublicKey(Transport &transport, const QString &publicKeyLine)
{
    const auto result = transport.exec(removeCommand(publicKeyLine), 30000);
    if (!result)
        return result.failure();
    bool ok = false;
    const int removed = QString::fromUtf8(result->stdOut).trimmed().toInt(&ok);
    if (result->exitCode != 0 || !ok) {
        return fail(QStringLiteral("node %1: cannot remove the key from ~/.ssh/authorized_keys (exit code %2): %3")
                        .arg(transport.nodeName()).arg(result->exitCode)
                        .arg(QString::fromLocal8Bit(result->stdErr).trimmed()));
    }
    return removed;
}

} // namespace TrainDesk::SshKeys
