#pragma once

#include "ExecResult.h"
#include "RemoteFileInfo.h"
#include "TransferOptions.h"
#include "common/Result.h"

#include <QByteArray>
#include <QDateTime>
#include <QFileDevice>
#include <QList>
#include <QString>

namespace TrainDesk {

// Runs commands and moves files on one node. LocalTransport is this machine (the
// embedded `local` cluster); SshTransport reaches other nodes. Calls block: run them
// off the GUI thread. Every failure message names the node and the command or path.
class Transport
{
public:
    virtual ~Transport() = default;

    virtual QString nodeName() const = 0;

    // Logs in where the node needs it: the cheapest reachability check. This machine
    // needs nothing.
    virtual VoidResult connect() { return {}; }

    // Runs `shellCommand` with /bin/sh -c on the node. A command that runs but exits
    // non-zero is a successful call with that exit code; a failure means it could not run
    // or timed out (and was killed).
    virtual Result<ExecResult> exec(const QString &shellCommand, int timeoutMs = 60000) = 0;
    // The same, with the output streamed to `handlers` as it arrives (setup tasks, node
    // commands typed by the user). Cancel or the timeout (0: none) end the command's whole
    // process group. Returns the exit status.
    virtual Result<int> exec(const QString &shellCommand, const ExecHandlers &handlers,
                             const CancelFlag *cancel = nullptr, int timeoutMs = 0) = 0;

    // Starts `shellCommand` in a new session (setsid), detached from this connection,
    // with its output discarded; returns its pid, which is also its process group id.
    // The same for every transport: it is built on exec().
    Result<qint64> startDetached(const QString &shellCommand);

    // Up to `maxBytes` from `offset`; empty when the file ends there. A missing file fails.
    virtual Result<QByteArray> readAt(const QString &path, qint64 offset, qint64 maxBytes) = 0;
    virtual Result<RemoteFileInfo> stat(const QString &path) = 0;
    virtual Result<QList<RemoteFileInfo>> list(const QString &directory) = 0;
    virtual VoidResult makeDirectories(const QString &path) = 0;
    // Writes the whole file atomically: a temporary name, then a rename.
    virtual VoidResult writeFile(const QString &path, const QByteArray &data,
                                 QFileDevice::Permissions permissions = QFileDevice::ReadOwner
                                     | QFileDevice::WriteOwner | QFileDevice::ReadGroup
                                     | QFileDevice::ReadOther) = 0;
    virtual VoidResult remove(const QString &path, bool recursive = false) = 0;
    virtual VoidResult rename(const QString &from, const QString &to) = 0;

    // Whole files between this machine and the node, with progress and cancel; the target
    // appears only when complete (a temporary name, then a rename) and keeps the source's
    // permissions. SSH also resumes an interrupted copy.
    virtual VoidResult upload(const QString &localPath, const QString &remotePath,
                              const TransferOptions &options = {}) = 0;
    virtual VoidResult download(const QString &remotePath, const QString &localPath,
                                const TransferOptions &options = {}) = 0;
};

} // namespace TrainDesk
