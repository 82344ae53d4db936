#pragma once

#include "SshParameters.h"
#include "TransferOptions.h"
#include "common/Result.h"

#include <QByteArray>
#include <QElapsedTimer>

#include <functional>

struct ssh_session_struct;
struct sftp_session_struct;

struct ssh_channel_struct;

namespace TrainDesk {

// Splits a remote command's stdout: the process group id line its wrapper prints first
// is kept (pgid(): 0 not seen yet, -1 none in the first 64 KiB), the rest goes on.
class GroupMarkerReader
{
public:
    explicit GroupMarkerReader(std::function<void(const QByteArray &)> onStdOut);
    void feed(const char *data, int size);
    // The end of output: what was held while looking for the marker goes on.
    void finish();
    qint64 pgid() const { return m_pgid; }

private:
    std::function<void(const QByteArray &)> m_onStdOut;
    qint64 m_pgid = 0;
    QByteArray m_head;  // output before the group id marker has been seen
};


// One logged-in SSH session to one node (libssh), with its SFTP channel opened on first
// use. Not thread-safe: SshConnectionPool hands a connection to one thread at a time.
class SshConnection
{
public:
    explicit SshConnection(const SshParameters &parameters);
    ~SshConnection();
    SshConnection(const SshConnection &) = delete;
    SshConnection &operator=(const SshConnection &) = delete;

    // Connects, checks the host key against TrainDesk's known_hosts and logs in.
    VoidResult connect();

    const SshParameters &parameters() const { return m_params; }
    QString describe() const { return m_params.describe(); }

    // Runs `command` with /bin/sh on the node, streaming its output. On cancel or timeout
    // the remote process group is ended (TERM, then KILL) and a failure is returned.
    // `started` tells whether the command reached the node (a failure before that may be
    // retried on a fresh connection).
    Result<int> exec(const QString &command, const ExecHandlers &handlers, const CancelFlag *cancel,
                     int timeoutMs, bool *started = nullptr);

    // The session's SFTP channel, opened on first use.
    Result<sftp_session_struct *> sftp();
    ssh_session_struct *session() const { return m_session; }

    // False once the connection is known to be dead (a read or write failed, the peer
    // closed it); the pool then drops it.
    bool isHealthy();
    void markBroken() { m_broken = true; }
    // Whether connect() saw the host's key changed (or revoked) from the one TrainDesk knows.
    bool sawHostKeyChange() const { return m_sawHostKeyChange; }
    // An SFTP operation failed: broken unless the server answered it with a status.
    void noteSftpFailure();
    // Sends an SSH ignore message so that idle NATs and firewalls keep the flow.
    void sendKeepalive();
    qint64 idleMs() const { return m_idle.elapsed(); }
    qint64 sinceKeepaliveMs() const { return qMin(m_idle.elapsed(), m_keepalive.elapsed()); }
    void touch() { m_idle.restart(); }

    // libssh's last error text, prefixed with the node.
    QString error(const QString &what) const;

private:
    VoidResult verifyHostKey();
    VoidResult authenticate();
    // One way of logging in: true when it did, false when refused (why added to `problems`),
    // a failure when the attempt must end (an error, or a named key others can read).
    Result<bool> tryKeyFile(const QString &keyFile, bool named, QStringList &problems);
    Result<bool> tryPassword(int methods, QStringList &problems);
    void killRemoteGroup(qint64 pgid, const char *signal);
    // After a cancel or timeout: waits a moment for the group id, ends the remote group
    // (TERM, then KILL after 3 s) and drops the connection when the channel stays open.
    void endStopped(ssh_channel_struct *channel, GroupMarkerReader &out, char *buffer, int size);

    SshParameters m_params;
    bool m_sawHostKeyChange = false;
    ssh_session_struct *m_session = nullptr;
    sftp_session_struct *m_sftp = nullptr;
    bool m_connected = false;
    bool m_broken = false;
    QElapsedTimer m_idle;       // since the last use
    QElapsedTimer m_keepalive;  // since the last keepalive
};

} // namespace TrainDesk
