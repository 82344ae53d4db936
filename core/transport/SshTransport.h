#pragma once

#include "SshParameters.h"
#include "Transport.h"

namespace TrainDesk {

class SshConnection;

// A node reached over SSH (libssh): commands on exec channels, files over SFTP, on
// connections shared through SshConnectionPool. Cheap to create; it connects on first
// use. Calls block: run them off the GUI thread (the pool refuses the GUI thread).
class SshTransport final : public Transport
{
public:
    explicit SshTransport(const SshParameters &parameters);

    QString nodeName() const override;
    const SshParameters &parameters() const { return m_params; }

    // Connects and logs in (or reuses a pooled connection): the cheapest reachability check.
    VoidResult connect() override;

    Result<ExecResult> exec(const QString &shellCommand, int timeoutMs = 60000) override;
    // Streams the output as it arrives; cancel or the timeout end the remote process
    // group. Returns the exit status.
    Result<int> exec(const QString &shellCommand, const ExecHandlers &handlers, const CancelFlag *cancel = nullptr,
                     int timeoutMs = 0) override;

    Result<QByteArray> readAt(const QString &path, qint64 offset, qint64 maxBytes) override;
    Result<RemoteFileInfo> stat(const QString &path) override;
    Result<QList<RemoteFileInfo>> list(const QString &directory) override;
    VoidResult makeDirectories(const QString &path) override;
    VoidResult writeFile(const QString &path, const QByteArray &data,
                         QFileDevice::Permissions permissions) override;
    VoidResult remove(const QString &path, bool recursive = false) override;
    VoidResult rename(const QString &from, const QString &to) override;

    // Streamed transfers with progress, cancel, resume, atomic replacement and the
    // source's permissions kept.
    VoidResult upload(const QString &localPath, const QString &remotePath, const TransferOptions &options = {}) override;
    VoidResult download(const QString &remotePath, const QString &localPath,
                        const TransferOptions &options = {}) override;

private:
    // Runs `operation` on a pooled connection; a file operation that failed because the
    // pooled connection had died is tried once more on a fresh one.
    template<typename Operation>
    auto withConnection(Operation operation, bool retryOnBrokenConnection);

    SshParameters m_params;
};

} // namespace TrainDesk
