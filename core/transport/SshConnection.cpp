#include "SshConnection.h"

#include <QFileInfo>

#include "KnownHosts.h"
#include "common/ShellQuote.h"

#include <libssh/callbacks.h>
#include <libssh/libssh.h>
#include <libssh/sftp.h>

#include <QElapsedTimer>

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>

#include <cerrno>
#include <cstring>
#include <memory>

namespace TrainDesk {

namespace {

// Prefixed to the command's output so that cancel knows which process group to end.
const QByteArray pgidMarker("\x1eTDPGID ");

struct KeyDeleter
{
    void operator()(ssh_key key) const { ssh_key_free(key); }
};
using KeyPtr = std::unique_ptr<ssh_key_struct, KeyDeleter>;

struct ChannelDeleter
{
    void operator()(ssh_channel channel) const
    {
        if (ssh_channel_is_open(channel))
            ssh_channel_close(channel);
        ssh_channel_free(channel);
    }
};
using ChannelPtr = std::unique_ptr<ssh_channel_struct, ChannelDeleter>;

int signalNumber(const char *name)
{
    static const std::pair<const char *, int> table[] = {
        {"HUP", 1}, {"INT", 2}, {"QUIT", 3}, {"ILL", 4}, {"ABRT", 6}, {"BUS", 7}, {"FPE", 8}, {"KILL", 9},
        {"USR1", 10}, {"SEGV", 11}, {"USR2", 12}, {"PIPE", 13}, {"ALRM", 14}, {"TERM", 15}};
    for (const auto &[n, number] : table) {
        if (name && std::strcmp(name, n) == 0)
            return number;
    }
    return 127;
}

struct ExitSignal
{
    int number = 0;
};

void onExitSignal(ssh_session, ssh_channel, const char *signal, int, const char *, const char *, void *userdata)
{
    static_cast<ExitSignal *>(userdata)->number = signalNumber(signal);
}

// What the remote login shell runs: the group's id first (sshd makes each session's
// process a session and group leader), then the command under /bin/sh whatever the
// user's login shell is.
QByteArray wrapCommand(const QString &command)
{
    const QString script = QStringLiteral("printf '\\036TDPGID %s\\n' \"$$\"; exec /bin/sh -c -- %1").arg(shellQuote(command));
    return QStringLiteral("exec /bin/sh -c -- %1").arg(shellQuote(script)).toUtf8();
}

} // namespace

// The command's stdout with the process group id line (pgidMarker, printed first by
// wrapCommand's shell) taken out and kept: what a cancel or timeout signals.
GroupMarkerReader::GroupMarkerReader(std::function<void(const QByteArray &)> onStdOut) : m_onStdOut(std::move(onStdOut)) {}

void GroupMarkerReader::feed(const char *data, int size)
{
    if (m_pgid > 0) {
        if (m_onStdOut)
            m_onStdOut(QByteArray(data, size));
        return;
    }
    m_head.append(data, size);
    const qsizetype at = m_head.indexOf(pgidMarker);
    const qsizetype end = at < 0 ? -1 : m_head.indexOf('\n', at);
    if (end < 0) {
        if (m_head.size() < 65536)
            return;
        m_pgid = -1;  // no marker: give up looking and pass everything on
    } else {
        m_pgid = m_head.mid(at + pgidMarker.size(), end - at - pgidMarker.size()).toLongLong();
        m_head.remove(at, end - at + 1);
    }
    if (!m_head.isEmpty() && m_onStdOut)
        m_onStdOut(m_head);
    m_head.clear();
}

void GroupMarkerReader::finish()
{
    if (m_pgid == 0 && !m_head.isEmpty() && m_onStdOut)
        m_onStdOut(m_head);
    m_head.clear();
}


SshConnection::SshConnection(const SshParameters &parameters) : m_params(parameters)
{
    m_idle.start();
    m_keepalive.start();
}

SshConnection::~SshConnection()
{
    if (m_sftp)
        sftp_free(m_sftp);
    if (m_session) {
        if (m_connected && !m_broken)
            ssh_disconnect(m_session);
        ssh_free(m_session);
    }
}

QString SshConnection::error(const QString &what) const
{
    const QString detail = m_session ? QString::fromUtf8(ssh_get_error(m_session)) : QString();
    return detail.isEmpty() ? QStringLiteral("%1: %2").arg(describe(), what)
                            : QStringLiteral("%1: %2: %3").arg(describe(), what, detail);
}

VoidResult SshConnection::connect()
{
    m_session = ssh_new();
    if (!m_session)
        return fail(QStringLiteral("%1: cannot create an SSH session (out of memory?)").arg(describe()));
    const QByteArray host = m_params.host.toUtf8();
    const QByteArray user = m_params.user.toUtf8();
    const QByteArray knownHosts = m_params.effectiveKnownHostsPath().toUtf8();
    const unsigned int port = unsigned(m_params.port);
    const long seconds = qMax(1, m_params.connectTimeoutMs / 1000);
    const long micros = long(m_params.connectTimeoutMs % 1000) * 1000;
    const int off = 0, on = 1, quiet = SSH_LOG_NOLOG;
    ssh_options_set(m_session, SSH_OPTIONS_LOG_VERBOSITY, &quiet);  // nothing (no secret) is logged
    ssh_options_set(m_session, SSH_OPTIONS_HOST, host.constData());
    ssh_options_set(m_session, SSH_OPTIONS_PORT, &port);
    ssh_options_set(m_session, SSH_OPTIONS_USER, user.constData());
    ssh_options_set(m_session, SSH_OPTIONS_TIMEOUT, &seconds);
    ssh_options_set(m_session, SSH_OPTIONS_TIMEOUT_USEC, &micros);
    // Small request-response exchanges (SFTP, channel setup) stall on Nagle otherwise.
    ssh_options_set(m_session, SSH_OPTIONS_NODELAY, &on);
    // The node's address is explicit; ~/.ssh/config must not redirect it.
    ssh_options_set(m_session, SSH_OPTIONS_PROCESS_CONFIG, &off);
    // libssh reads these only to prefer the host key types already known for the host;
    // the decision itself is verifyHostKey's.
    ssh_options_set(m_session, SSH_OPTIONS_KNOWNHOSTS, knownHosts.constData());
    ssh_options_set(m_session, SSH_OPTIONS_GLOBAL_KNOWNHOSTS, knownHosts.constData());
    // AES-GCM first: with AES instructions it is the fastest cipher for bulk transfers.
    const char *ciphers = "aes128-gcm@openssh.com,aes256-gcm@openssh.com,chacha20-poly1305@openssh.com,"
                          "aes128-ctr,aes256-ctr";
    ssh_options_set(m_session, SSH_OPTIONS_CIPHERS_C_S, ciphers);
    ssh_options_set(m_session, SSH_OPTIONS_CIPHERS_S_C, ciphers);

    QElapsedTimer timer;
    timer.start();
    if (ssh_connect(m_session) != SSH_OK) {
        const QString detail = QString::fromUtf8(ssh_get_error(m_session));
        QString hint = QStringLiteral("check that the host is up, that sshd listens on port %1 and that no firewall "
                                      "blocks it").arg(m_params.port);
        if (detail.contains(QLatin1String("refused"), Qt::CaseInsensitive))
            hint = QStringLiteral("nothing listens on port %1 there: check the port and that sshd runs").arg(m_params.port);
        else if (detail.contains(QLatin1String("timeout"), Qt::CaseInsensitive)
                 || detail.contains(QLatin1String("timed out"), Qt::CaseInsensitive))
            hint = QStringLiteral("no SSH answer within %1 s: check the address, the port and the network")
                       .arg(m_params.connectTimeoutMs / 1000.0);
        return fail(QStringLiteral("%1: cannot connect: %2 (%3)").arg(describe(), detail, hint));
    }
    m_connected = true;
    if (auto verified = verifyHostKey(); !verified)
        return verified;
    if (auto authenticated = authenticate(); !authenticated)
        return authenticated;
    // TCP keepalive finds a dead peer on an idle pooled connection.
    const int fd = ssh_get_fd(m_session);
    if (fd >= 0) {
        const int idle = qMax(10, m_params.keepaliveIntervalMs / 1000), interval = 10, count = 3;
        setsockopt(fd, SOL_SOCKET, SO_KEEPALIVE, &on, sizeof on);
        setsockopt(fd, IPPROTO_TCP, TCP_KEEPIDLE, &idle, sizeof idle);
        setsockopt(fd, IPPROTO_TCP, TCP_KEEPINTVL, &interval, sizeof interval);
        setsockopt(fd, IPPROTO_TCP, TCP_KEEPCNT, &count, sizeof count);
        // A request that the node does not acknowledge (a cut link) ends the connection
        // after this long instead of blocking its caller (an SFTP read waits for ever) until
        // the link returns: the call fails, the pool makes a new connection.
        const unsigned int unacknowledgedMs = unsigned(qMax(10000, 2 * m_params.connectTimeoutMs));
        setsockopt(fd, IPPROTO_TCP, TCP_USER_TIMEOUT, &unacknowledgedMs, sizeof unacknowledgedMs);
    }
    m_idle.restart();
    return {};
}

VoidResult SshConnection::verifyHostKey()
{
    ssh_key rawKey = nullptr;
    if (ssh_get_server_publickey(m_session, &rawKey) != SSH_OK)
        return fail(error(QStringLiteral("the server sent no host key")));
    const KeyPtr key(rawKey);
    char *base64 = nullptr;
    if (ssh_pki_export_pubkey_base64(key.get(), &base64) != SSH_OK)
        return fail(error(QStringLiteral("cannot read the host key")));
    HostKey hostKey{QString::fromLatin1(ssh_key_type_to_char(ssh_key_type(key.get()))), QByteArray::fromBase64(base64)};
    ssh_string_free_char(base64);

    KnownHosts knownHosts(m_params.effectiveKnownHostsPath());
    const KnownHosts::Verdict verdict = knownHosts.check(m_params.host, m_params.port, hostKey);
    const QString where = KnownHosts::hostPattern(m_params.host, m_params.port);
    switch (verdict.match) {
    case KnownHosts::Match::Known:
        return {};
    case KnownHosts::Match::Changed:
        m_sawHostKeyChange = true;
        return fail(QStringLiteral("%1: the host key of %2 has CHANGED: TrainDesk knows %3 %4 but the server now shows "
                                   "%5 %6. Someone may be intercepting the connection; if the host was reinstalled, "
                                   "remove its line from %7 and connect again")
                        .arg(describe(), where, verdict.storedType, verdict.storedFingerprint, hostKey.type,
                             hostKey.fingerprint(), knownHosts.path()));
    case KnownHosts::Match::Revoked:
        m_sawHostKeyChange = true;
        return fail(QStringLiteral("%1: the host key of %2 (%3 %4) is marked @revoked in %5: refused")
                        .arg(describe(), where, hostKey.type, hostKey.fingerprint(), knownHosts.path()));
    case KnownHosts::Match::Unknown:
        if (!verdict.note.isEmpty())
            qInfo("%s", qPrintable(QStringLiteral("%1: %2").arg(describe(), verdict.note)));
        break;
    }
    const HostKeyQuestion question{m_params.nodeName, m_params.host, m_params.port, hostKey.type, hostKey.fingerprint()};
    bool accept = m_params.hostKeyPolicy == HostKeyPolicy::AcceptNew;
    if (m_params.hostKeyPolicy == HostKeyPolicy::Ask && m_params.confirmHostKey)
        accept = m_params.confirmHostKey(question);
    if (!accept) {
        return fail(QStringLiteral("%1: the host key of %2 is not known yet (%3 %4); if that is the node's key, accept "
                                   "it (--accept-new-host-keys, or confirm it in the cluster wizard)")
                        .arg(describe(), where, hostKey.type, hostKey.fingerprint()));
    }
    if (auto added = knownHosts.add(m_params.host, m_params.port, hostKey); !added)
        return added;
    if (m_params.hostKeyAccepted)
        m_params.hostKeyAccepted(question);
    return {};
}

Result<bool> SshConnection::tryKeyFile(const QString &keyFile, bool named, QStringList &problems)
{
    // As OpenSSH does: a private key others can read is refused, not used.
    const QFileDevice::Permissions others = QFileDevice::ReadGroup | QFileDevice::WriteGroup | QFileDevice::ReadOther
        | QFileDevice::WriteOther;
    if (QFileInfo::exists(keyFile) && (QFileInfo(keyFile).permissions() & others)) {
        const QString problem = QStringLiteral("the private key %1 can be read by other users of this machine, so "
                                               "it is not used (as OpenSSH refuses it); fix it with: chmod 600 %2")
                                    .arg(keyFile, shellQuote(keyFile));
        if (named)
            return fail(problem);
        problems << problem;
        return false;
    }
    const SshCredentials &c = m_params.credentials;
    ssh_key rawKey = nullptr;
    const QByteArray path = keyFile.toUtf8();
    const QByteArray passphrase = c.keyPassphrase.toUtf8();
    if (ssh_pki_import_privkey_file(path.constData(), c.keyPassphrase.isEmpty() ? nullptr : passphrase.constData(),
                                    nullptr, nullptr, &rawKey) != SSH_OK) {
        problems << (named ? QStringLiteral("cannot read the key %1 (missing, not a private key, or a wrong passphrase)")
                           : QStringLiteral("cannot read the key %1 (it needs a passphrase?)")).arg(keyFile);
        return false;
    }
    const KeyPtr key(rawKey);
    const int rc = ssh_userauth_publickey(m_session, nullptr, key.get());
    if (rc == SSH_AUTH_SUCCESS)
        return true;
    if (rc == SSH_AUTH_ERROR)
        return fail(error(QStringLiteral("authentication failed")));
    problems << QStringLiteral("the key %1 was refused").arg(keyFile);
    return false;
}

Result<bool> SshConnection::tryPassword(int methods, QStringList &problems)
{
    const QByteArray password = m_params.credentials.password.toUtf8();
    if (methods & SSH_AUTH_METHOD_PASSWORD) {
        const int rc = ssh_userauth_password(m_session, nullptr, password.constData());
        if (rc == SSH_AUTH_SUCCESS)
            return true;
        if (rc == SSH_AUTH_ERROR)
            return fail(error(QStringLiteral("authentication failed")));
        problems << QStringLiteral("the password was refused");
    } else if (methods & SSH_AUTH_METHOD_INTERACTIVE) {
        // PAM setups ask for the password through keyboard-interactive.
        int rc = ssh_userauth_kbdint(m_session, nullptr, nullptr);
        while (rc == SSH_AUTH_INFO) {
            for (int i = 0; i < ssh_userauth_kbdint_getnprompts(m_session); ++i)
                ssh_userauth_kbdint_setanswer(m_session, unsigned(i), password.constData());
            rc = ssh_userauth_kbdint(m_session, nullptr, nullptr);
        }
        if (rc == SSH_AUTH_SUCCESS)
            return true;
        problems << QStringLiteral("the password was refused");
    } else {
        problems << QStringLiteral("the server does not accept passwords");
    }
    return false;
}

VoidResult SshConnection::authenticate()
{
    const SshCredentials &c = m_params.credentials;
    int rc = ssh_userauth_none(m_session, nullptr);
    if (rc == SSH_AUTH_SUCCESS)
        return {};
    if (rc == SSH_AUTH_ERROR)
        return fail(error(QStringLiteral("authentication failed")));
    const int methods = ssh_userauth_list(m_session, nullptr);
    QStringList problems;
    // Each way in turn: logged in (true), refused (false, the problem noted), or an error
    // that ends the attempt (the failure).
    const auto loggedIn = [](const Result<bool> &tried) { return !tried || *tried; };
    if (!c.keyFile.isEmpty()) {
        if (const auto tried = tryKeyFile(c.keyFile, true, problems); loggedIn(tried))
            return tried ? VoidResult() : VoidResult(tried.failure());
    }
    if (c.useAgent && !qEnvironmentVariableIsEmpty("SSH_AUTH_SOCK") && (methods & SSH_AUTH_METHOD_PUBLICKEY)) {
        rc = ssh_userauth_agent(m_session, nullptr);
        if (rc == SSH_AUTH_SUCCESS)
            return {};
        if (rc == SSH_AUTH_ERROR && !ssh_is_connected(m_session))
            return fail(error(QStringLiteral("authentication failed")));
        problems << QStringLiteral("no key of the ssh-agent was accepted");
    }
    // Then the user's own keys, as ssh would log in without -i.
    if (c.useDefaultIdentities && (methods & SSH_AUTH_METHOD_PUBLICKEY)) {
        for (const QString &identity : SshCredentials::defaultIdentities()) {
            if (identity == c.keyFile)
                continue;
            if (const auto tried = tryKeyFile(identity, false, problems); loggedIn(tried))
                return tried ? VoidResult() : VoidResult(tried.failure());
        }
    }
    if (!c.password.isEmpty()) {
        if (const auto tried = tryPassword(methods, problems); loggedIn(tried))
            return tried ? VoidResult() : VoidResult(tried.failure());
    }
    if (problems.isEmpty())
        problems << QStringLiteral("no credentials to try (give a key file, a password, start ssh-agent or make "
                                   "~/.ssh/id_ed25519)");
    // TrainDesk's own key is deployed by logging in another way first: a password or a key the node takes.
    return fail(QStringLiteral("%1: authentication failed: %2. Check the user name and the credentials; TrainDesk's "
                               "own key (--generate-ssh-keys) is deployed over a login that works (a password, a key "
                               "the node accepts, ssh-agent)")
                    .arg(describe(), problems.join(QStringLiteral("; "))));
}

bool SshConnection::isHealthy()
{
    if (!m_session || !m_connected || m_broken || !ssh_is_connected(m_session))
        return false;
    // An idle socket that reads as closed means the server went away (restart, reboot).
    const int fd = ssh_get_fd(m_session);
    if (fd < 0)
        return false;
    char byte;
    const ssize_t n = recv(fd, &byte, 1, MSG_PEEK | MSG_DONTWAIT);
    if (n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR))
        return false;
    return true;
}

void SshConnection::noteSftpFailure()
{
    // SftpClient clears errnum before each operation: a failure the server answered (no
    // such file, permission denied) leaves its status there; one it did not (a timeout, a
    // broken channel, a reply out of step) leaves none, and the SFTP channel is no longer
    // to be trusted.
    if (!m_sftp || m_sftp->errnum == SSH_FX_OK)
        m_broken = true;
}

void SshConnection::sendKeepalive()
{
    m_keepalive.restart();
    if (m_session && m_connected && !m_broken && ssh_send_ignore(m_session, "keepalive") != SSH_OK)
        m_broken = true;
}

Result<sftp_session_struct *> SshConnection::sftp()
{
    if (m_sftp)
        return m_sftp;
    sftp_session sftp = sftp_new(m_session);
    if (!sftp) {
        m_broken = true;  // as in exec(): a channel that did not open leaves the connection out of step
        return fail(error(QStringLiteral("cannot open an SFTP channel")));
    }
    if (sftp_init(sftp) != SSH_OK) {
        const int code = sftp_get_error(sftp);
        sftp_free(sftp);
        if (code == SSH_FX_OK)
            m_broken = true;  // no answer at all, rather than a server without SFTP
        return fail(QStringLiteral("%1: the SFTP subsystem does not start (error %2): check the Subsystem sftp line "
                                   "of the node's sshd_config")
                        .arg(describe()).arg(code));
    }
    m_sftp = sftp;
    return m_sftp;
}

void SshConnection::killRemoteGroup(qint64 pgid, const char *signal)
{
    const ChannelPtr channel(ssh_channel_new(m_session));
    if (!channel || ssh_channel_open_session(channel.get()) != SSH_OK) {
        m_broken = true;  // see exec(): a channel that did not open may open later, unseen
        return;
    }
    // dash takes "kill -SIG -PGID", not "kill -SIG -- -PGID".
    const QByteArray command = QStringLiteral("kill -%1 -%2 2>/dev/null || kill -%1 %2 2>/dev/null; true")
                                   .arg(QLatin1String(signal)).arg(pgid).toUtf8();
    if (ssh_channel_request_exec(channel.get(), command.constData()) != SSH_OK)
        return;
    char buffer[256];
    QElapsedTimer timer;
    timer.start();
    while (!ssh_channel_is_eof(channel.get()) && timer.elapsed() < 5000) {
        if (ssh_channel_read_timeout(channel.get(), buffer, sizeof buffer, 0, 100) == SSH_ERROR)
            break;
    }
}

void SshConnection::endStopped(ssh_channel channel, GroupMarkerReader &out, char *buffer, int size)
{
    // Stopped before the group id arrived: it comes first, so it is at most a moment away.
    QElapsedTimer marker;
    marker.start();
    while (out.pgid() == 0 && !ssh_channel_is_eof(channel) && marker.elapsed() < 3000) {
        const int n = ssh_channel_read_timeout(channel, buffer, uint32_t(size), 0, 100);
        if (n == SSH_ERROR)
            break;
        if (n > 0)
            out.feed(buffer, n);
    }
    if (out.pgid() > 0) {
        killRemoteGroup(out.pgid(), "TERM");
        QElapsedTimer grace;
        grace.start();
        while (!ssh_channel_is_eof(channel) && grace.elapsed() < 3000) {
            if (ssh_channel_read_timeout(channel, buffer, uint32_t(size), 0, 100) == SSH_ERROR)
                break;
        }
        if (!ssh_channel_is_eof(channel))
            killRemoteGroup(out.pgid(), "KILL");
    }
    // A command that did not end (no answer: a cut link) leaves a channel the server
    // may close only much later: the connection goes with it rather than pile them up.
    if (!ssh_channel_is_eof(channel))
        m_broken = true;
}

Result<int> SshConnection::exec(const QString &command, const ExecHandlers &handlers, const CancelFlag *cancel,
                                 int timeoutMs, bool *started)
{
    if (started)
        *started = false;
    m_idle.restart();
    const ChannelPtr channel(ssh_channel_new(m_session));
    if (!channel || ssh_channel_open_session(channel.get()) != SSH_OK) {
        // Refused (the server's sessions are used up) or unanswered (a cut link: the server
        // may open it later, and nothing here would ever close it): either way this
        // connection is out of step with the server, so it is dropped and the pool makes
        // a new one. Kept, it would refuse every later command ("no more sessions").
        m_broken = true;
        return fail(error(QStringLiteral("cannot open a channel to run '%1'").arg(command.left(200))));
    }
    ExitSignal exitSignal;
    ssh_channel_callbacks_struct callbacks{};
    callbacks.userdata = &exitSignal;
    callbacks.channel_exit_signal_function = onExitSignal;
    ssh_callbacks_init(&callbacks);
    ssh_set_channel_callbacks(channel.get(), &callbacks);
    struct CallbackGuard
    {
        ssh_channel channel;
        ssh_channel_callbacks callbacks;
        ~CallbackGuard() { ssh_remove_channel_callbacks(channel, callbacks); }
    } callbackGuard{channel.get(), &callbacks};

    if (ssh_channel_request_exec(channel.get(), wrapCommand(command).constData()) != SSH_OK) {
        m_broken = true;  // the channel's state on the server is unknown
        return fail(error(QStringLiteral("cannot run '%1'").arg(command.left(200))));
    }
    if (started)
        *started = true;

    GroupMarkerReader out(handlers.onStdOut);
    char buffer[65536];
    auto drainStdErr = [&]() -> bool {
        for (;;) {
            const int n = ssh_channel_read_nonblocking(channel.get(), buffer, sizeof buffer, 1);
            if (n == SSH_ERROR)
                return false;
            if (n <= 0)
                return true;
            if (handlers.onStdErr)
                handlers.onStdErr(QByteArray(buffer, n));
        }
    };

    QElapsedTimer timer;
    timer.start();
    QString stopReason;
    for (;;) {
        if (cancel && cancel->isCancelled()) {
            stopReason = QStringLiteral("cancelled");
            break;
        }
        if (timeoutMs > 0 && timer.elapsed() > timeoutMs) {
            stopReason = QStringLiteral("timed out after %1 s").arg(timeoutMs / 1000.0);
            break;
        }
        const int n = ssh_channel_read_timeout(channel.get(), buffer, sizeof buffer, 0, 100);
        if (n == SSH_ERROR) {
            m_broken = true;
            return fail(error(QStringLiteral("the connection broke while running '%1'").arg(command.left(200))));
        }
        if (n > 0)
            out.feed(buffer, n);
        if (!drainStdErr()) {
            m_broken = true;
            return fail(error(QStringLiteral("the connection broke while running '%1'").arg(command.left(200))));
        }
        if (n == 0 && ssh_channel_is_eof(channel.get()) && ssh_channel_poll(channel.get(), 0) <= 0
            && ssh_channel_poll(channel.get(), 1) <= 0)
            break;
    }
    if (!stopReason.isEmpty()) {
        endStopped(channel.get(), out, buffer, sizeof buffer);
        return fail(QStringLiteral("%1: '%2' %3; its processes were ended").arg(describe(), command.left(200), stopReason));
    }
    out.finish();
    ssh_channel_send_eof(channel.get());
    int status = ssh_channel_get_exit_status(channel.get());
    if (status < 0)
        status = exitSignal.number > 0 ? 128 + exitSignal.number : 255;
    m_idle.restart();
    return status;
}

} // namespace TrainDesk
