#include "SshTransport.h"

#include "SftpClient.h"
#include "SshConnection.h"
#include "SshConnectionPool.h"

namespace TrainDesk {

SshTransport::SshTransport(const SshParameters &parameters) : m_params(parameters) {}

QString SshTransport::nodeName() const { return m_params.nodeName.isEmpty() ? m_params.host : m_params.nodeName; }

template<typename Operation>
auto SshTransport::withConnection(Operation operation, bool retryOnBrokenConnection)
{
    using ResultType = decltype(operation(std::declval<SshConnection &>()));
    for (int attempt = 0;; ++attempt) {
        auto lease = SshConnectionPool::instance().acquire(m_params);
        if (!lease)
            return ResultType(lease.failure());
        SshConnection &connection = **lease;
        ResultType result = operation(connection);
        if (!result.ok())
            connection.noteSftpFailure();  // dropped (and tried again below) unless the server answered
        if (result.ok() || attempt > 0 || !retryOnBrokenConnection || connection.isHealthy())
            return result;
        connection.markBroken();  // dropped when the lease ends; the next attempt reconnects
    }
}

VoidResult SshTransport::connect()
{
    return withConnection([](SshConnection &) { return VoidResult(); }, false);
}

Result<int> SshTransport::exec(const QString &shellCommand, const ExecHandlers &handlers, const CancelFlag *cancel,
                               int timeoutMs)
{
    for (int attempt = 0;; ++attempt) {
        auto lease = SshConnectionPool::instance().acquire(m_params);
        if (!lease)
            return lease.failure();
        bool started = false;
        auto result = (*lease)->exec(shellCommand, handlers, cancel, timeoutMs, &started);
        // A command that never reached the node may be sent again on a fresh connection.
        if (result.ok() || started || attempt > 0 || (*lease)->isHealthy())
            return result;
        (*lease)->markBroken();
    }
}

Result<ExecResult> SshTransport::exec(const QString &shellCommand, int timeoutMs)
{
    ExecResult collected;
    ExecHandlers handlers;
    handlers.onStdOut = [&](const QByteArray &data) { collected.stdOut += data; };
    handlers.onStdErr = [&](const QByteArray &data) { collected.stdErr += data; };
    const auto status = exec(shellCommand, handlers, nullptr, timeoutMs);
    if (!status)
        return status.failure();
    collected.exitCode = *status;
    return collected;
}

Result<QByteArray> SshTransport::readAt(const QString &path, qint64 offset, qint64 maxBytes)
{
    return withConnection([&](SshConnection &c) { return SftpClient(c).readAt(path, offset, maxBytes); }, true);
}

Result<RemoteFileInfo> SshTransport::stat(const QString &path)
{
    return withConnection([&](SshConnection &c) { return SftpClient(c).stat(path); }, true);
}

Result<QList<RemoteFileInfo>> SshTransport::list(const QString &directory)
{
    return withConnection([&](SshConnection &c) { return SftpClient(c).list(directory); }, true);
}

VoidResult SshTransport::makeDirectories(const QString &path)
{
    return withConnection([&](SshConnection &c) { return SftpClient(c).makeDirectories(path); }, true);
}

VoidResult SshTransport::writeFile(const QString &path, const QByteArray &data, QFileDevice::Permissions permissions)
{
    return withConnection([&](SshConnection &c) { return SftpClient(c).writeFile(path, data, permissions); }, true);
}

VoidResult SshTransport::remove(const QString &path, bool recursive)
{
    return withConnection([&](SshConnection &c) { return SftpClient(c).remove(path, recursive); }, true);
}

VoidResult SshTransport::rename(const QString &from, const QString &to)
{
    return withConnection([&](SshConnection &c) { return SftpClient(c).rename(from, to); }, true);
}

VoidResult SshTransport::upload(const QString &localPath, const QString &remotePath, const TransferOptions &options)
{
    // A retry resumes after what the broken attempt wrote.
    return withConnection([&](SshConnection &c) { return SftpClient(c).upload(localPath, remotePath, options); },
                          options.resume);
}

VoidResult SshTransport::download(const QString &remotePath, const QString &localPath, const TransferOptions &options)
{
    return withConnection([&](SshConnection &c) { return SftpClient(c).download(remotePath, localPath, options); },
                          options.resume);
}

} // namespace TrainDesk
