#pragma once

#include "TransferOptions.h"
#include "common/Result.h"

#include <QByteArray>
#include <QString>

#include <functional>

struct sftp_session_struct;
struct sftp_file_struct;

namespace TrainDesk {

// SFTP requests that libssh 0.10 does not offer, written on the session's SFTP channel:
// pipelined writes (libssh's sftp_write waits for each reply, which halves throughput)
// and posix-rename@openssh.com (SFTP v3 rename refuses to replace a file). Only used
// while no libssh SFTP request is outstanding on the same session, so replies cannot be
// taken by the wrong reader.
namespace SftpWire {

// Fills `buffer` with up to `size` bytes for file offset `offset`; returns the count,
// or -1 on a read error.
using Source = std::function<qint64(qint64 offset, char *buffer, qint64 size)>;

struct WriteResult
{
    qint64 written = 0;  // bytes from `start` acknowledged without a gap
    QString error;       // empty when everything was written
    bool cancelled = false;
    bool broken = false;  // the channel is out of step: the connection must be dropped
};

// Writes [start, end) from `source` to the open `file`, keeping several requests in
// flight. Progress is reported as acknowledgements arrive.
WriteResult write(sftp_session_struct *sftp, sftp_file_struct *file, qint64 start, qint64 end, const Source &source,
                  const ProgressCallback &progress, const CancelFlag *cancel, int timeoutMs);

// posix-rename@openssh.com: atomically replaces `to`. Returns a failure naming the SFTP
// status; `unsupported` is set when the server lacks the extension.
VoidResult posixRename(sftp_session_struct *sftp, const QString &from, const QString &to, int timeoutMs,
                       bool *unsupported);

} // namespace SftpWire
} // namespace TrainDesk
