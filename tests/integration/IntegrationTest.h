#pragma once

#include "SshServer.h"

#include "transport/SshConnectionPool.h"
#include "transport/SshParameters.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

// A data directory of the suite's own (TRAINDESK_HOME), readable by the throwaway test
// users, and a client key that root's test servers accept.
class IntegrationHome
{
public:
    IntegrationHome()
    {
        QStandardPaths::setTestModeEnabled(true);
        QFile::setPermissions(m_dir.path(), QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner
                                                | QFileDevice::ReadGroup | QFileDevice::ExeGroup
                                                | QFileDevice::ReadOther | QFileDevice::ExeOther);
        qputenv("TRAINDESK_HOME", (m_dir.path() + QStringLiteral("/data")).toUtf8());
        qunsetenv("SSH_AUTH_SOCK");  // no agent of the developer's: tests say what they use
    }
    QString path() const { return m_dir.path(); }
    QString filePath(const QString &name) const { return m_dir.filePath(name); }
    QString dataDir() const { return m_dir.path() + QStringLiteral("/data"); }
    QString knownHosts() const { return dataDir() + QStringLiteral("/known_hosts"); }

    // An ed25519 client key made by OpenSSH's ssh-keygen (optionally with a passphrase).
    QString makeClientKey(const QString &name, const QString &passphrase = {}) const
    {
        const QString path = filePath(name);
        QFile::remove(path);
        QFile::remove(path + QStringLiteral(".pub"));
        runTool(QStringLiteral("ssh-keygen"), {QStringLiteral("-q"), QStringLiteral("-t"), QStringLiteral("ed25519"),
                                               QStringLiteral("-N"), passphrase, QStringLiteral("-f"), path});
        return path;
    }
    static QByteArray publicKeyOf(const QString &keyPath)
    {
        QFile f(keyPath + QStringLiteral(".pub"));
        return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
    }

private:
    QTemporaryDir m_dir;
};

inline TrainDesk::SshParameters rootParameters(const SshServer &server, const QString &keyFile,
                                               TrainDesk::HostKeyPolicy policy = TrainDesk::HostKeyPolicy::AcceptNew)
{
    TrainDesk::SshParameters p;
    p.nodeName = QStringLiteral("node-%1").arg(server.port());
    p.host = server.address();
    p.port = server.port();
    p.user = QStringLiteral("root");
    p.credentials.keyFile = keyFile;
    p.credentials.useAgent = false;
    p.hostKeyPolicy = policy;
    p.connectTimeoutMs = 5000;
    return p;
}

#define REQUIRE_ROOT()                                                                                               \
    do {                                                                                                             \
        if (!SshServer::isRoot())                                                                                    \
            QSKIP("the integration tests start sshd and make users: run them as root (CI does)");                   \
    } while (false)
