#pragma once

#include "common/Result.h"

#include <QByteArray>
#include <QDateTime>
#include <QFileDevice>
#include <QList>
#include <QString>

namespace TrainDesk {

struct ExecResult
{
    int exitCode = -1;
    QByteArray stdOut;
    QByteArray stdErr;
};

struct RemoteFileInfo
{
    QString name;
    qint64 size = 0;
    QDateTime modified;
    bool isDirectory = false;
};

// Runs commands and moves files on one node. LocalTransport is this machine (the
// embedded `local` cluster); SshTransport reaches other nodes. Calls block: run them
// off the GUI thread. Every failure message names the node and the command or path.
class Transport
{
public:
    virtual ~Transport() = default;

    virtual QString nodeName() const = 0;

    // Runs `shellCommand` with /bin/sh -c on the node. A command that runs but exits
    // non-zero is a successful call with that exit code; a failure means it could not run
    // or timed out (and was killed).
    virtual Result<ExecResult> exec(const QString &shellCommand, int timeoutMs = 60000) = 0;

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
};

} // namespace TrainDesk
