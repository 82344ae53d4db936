#pragma once

#include "common/Result.h"
#include "store/Entities.h"

#include <QStringList>

#include <atomic>
#include <functional>

namespace TrainDesk {

// Copies files of this machine into a folder of a local share (ShareService's local kind).
// Blocks: run it off the GUI thread. Each file goes to a temporary file of its own first
// (common/AtomicReplace) and replaces the target in one rename when complete, so a cancelled,
// failed or concurrent copy never leaves a half or mixed file under the real name.
namespace ShareUpload {

// Bytes copied so far over all files, their total, and the file being copied.
using Progress = std::function<void(qint64 done, qint64 total, const QString &file)>;

// The absolute folder `directory` names in `share` ("" is the share itself), on this
// machine or on the nodes by the share's kind; refuses absolute paths and ".." that would
// leave the share. The one place these rules live.
Result<QString> folderPath(const Share &share, const QString &directory);

// `absolute` (a path folderPath made) relative to the share's folder ("" for the folder).
QString relativePath(const Share &share, const QString &absolute);

// Checks the files to upload (local regular files, no two with one name, which would land
// on one another) and returns their total size.
Result<qint64> checkSources(const QStringList &files);

struct Outcome
{
    int copied = 0;  // files copied; those copied before a cancel or a failure stay
    QString error;   // empty: all of them
};

// Copies `files` (local paths of regular files) into `directory` of `share`.
Outcome copy(const Share &share, const QString &directory, const QStringList &files,
             const std::atomic_bool &cancel, const Progress &progress);

// The top-level folders of a local share, by name (empty for other kinds).
QStringList folders(const Share &share);

} // namespace ShareUpload
} // namespace TrainDesk
