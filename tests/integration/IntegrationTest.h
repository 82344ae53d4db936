#pragma once

#include "SshServer.h"

#include "jobs/JobRunner.h"
#include "store/Store.h"
#include "transport/SshConnectionPool.h"
#include "transport/SshParameters.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QThread>
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

    // An authorized_keys file of the test's own that lets keyPath in (for
    // SshServer::Options::authorizedKeysFile); empty when it cannot be written.
    QString authorizedKeysFor(const QString &keyPath) const
    {
        QFile keys(filePath(QStringLiteral("authorized_keys")));
        if (!keys.open(QIODevice::WriteOnly) || keys.write(publicKeyOf(keyPath)) <= 0)
            return {};
        return keys.fileName();
    }

private:
    QTemporaryDir m_dir;
};

// Parameters that log in to one of the test's servers as SshServer::loginUser() with a key.
inline TrainDesk::SshParameters loginParameters(const SshServer &server, const QString &keyFile,
                                               TrainDesk::HostKeyPolicy policy = TrainDesk::HostKeyPolicy::AcceptNew)
{
    TrainDesk::SshParameters p;
    p.nodeName = QStringLiteral("node-%1").arg(server.port());
    p.host = server.address();
    p.port = server.port();
    p.user = SshServer::loginUser();
    p.credentials.keyFile = keyFile;
    p.credentials.useAgent = false;
    p.hostKeyPolicy = policy;
    p.connectTimeoutMs = 5000;
    return p;
}

// Skips a case that needs root, saying why (as an ordinary user the rest of the suite runs).
#define REQUIRE_ROOT(why)                                                                                            \
    do {                                                                                                             \
        if (!SshServer::isRoot())                                                                                    \
            QSKIP("needs root: " why);                                                                               \
    } while (false)

// What a program run to its end printed, and how it ended (-1: it timed out and was killed).
struct ProgramRun
{
    int exitCode = -1;
    QString out;
    QString err;

    QString describe() const { return QStringLiteral("exit %1\n%2\n%3").arg(exitCode).arg(out, err); }
};

inline ProgramRun runProgram(const QString &program, const QStringList &arguments, const QProcessEnvironment &env,
                             int timeoutMs = 120000)
{
    QProcess p;
    p.setProcessEnvironment(env);
    p.start(program, arguments);
    if (!p.waitForFinished(timeoutMs)) {
        p.kill();
        p.waitForFinished();
        return {-1, QStringLiteral("<timed out>"), QString()};
    }
    return {p.exitCode(), QString::fromUtf8(p.readAllStandardOutput()), QString::fromUtf8(p.readAllStandardError())};
}

// Schedules and refreshes (as the agent does) until the job has ended or `timeoutMs` passed.
inline TrainDesk::Job waitForJobEnd(TrainDesk::Store &store, qint64 jobId, int timeoutMs = 90000)
{
    TrainDesk::JobRunner runner(store);
    QElapsedTimer timer;
    timer.start();
    while (timer.elapsed() < timeoutMs) {
        runner.refreshAll();
        const auto job = store.jobById(jobId);
        if (job && TrainDesk::isFinished(job->state))
            return *job;
        QThread::msleep(300);
    }
    return *store.jobById(jobId);
}
