#pragma once

#include "Transport.h"
#include "TransferOptions.h"

struct sftp_session_struct;

class QFile;

namespace TrainDesk {

class SshConnection;

// File operations on one node over SFTP, on a connection the caller holds. Every
// failure names the node and the path.
class SftpClient
{
public:
    explicit SftpClient(SshConnection &connection);

    Result<RemoteFileInfo> stat(const QString &path);
    Result<QList<RemoteFileInfo>> list(const QString &directory);
    VoidResult makeDirectories(const QString &path);  // mkdir -p
    VoidResult remove(const QString &path, bool recursive);
    Result<QByteArray> readAt(const QString &path, qint64 offset, qint64 maxBytes);
    // Replaces `to` atomically when the server can (posix-rename), else with mv -f.
    VoidResult rename(const QString &from, const QString &to);
    VoidResult chmod(const QString &path, QFileDevice::Permissions permissions);

    // Whole-file writes go to a temporary name beside the target and are renamed over it,
    // so readers see the old file or the new one, never a part.
    VoidResult writeFile(const QString &path, const QByteArray &data, QFileDevice::Permissions permissions);
    // Streams a local file of any size; a partial copy left by an interrupted upload is
    // continued when options.resume is set and its tail still matches the source.
    VoidResult upload(const QString &localPath, const QString &remotePath, const TransferOptions &options);
    VoidResult download(const QString &remotePath, const QString &localPath, const TransferOptions &options);

    // Where an interrupted transfer of `path` leaves its partial copy.
    static QString remotePartPath(const QString &remotePath);
    static QString localPartPath(const QString &localPath);

private:
    Result<sftp_session_struct *> session();
    QString failure(const QString &what, const QString &path) const;
    VoidResult removeTree(const QString &path);
    // Where a download into `part` goes on: its size when its last 64 KiB are the remote
    // file's at the same offset, else 0 (a part of another file starts over).
    qint64 resumePoint(const QString &remotePath, QFile &part, qint64 total);

    SshConnection &m_connection;
    int m_timeoutMs;
};

// Qt's permission flags <-> POSIX mode bits.
unsigned int toPosixMode(QFileDevice::Permissions permissions);
QFileDevice::Permissions fromPosixMode(unsigned int mode);

} // namespace TrainDesk
