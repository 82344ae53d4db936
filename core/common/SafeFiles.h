#pragma once

#include "Result.h"

#include <QByteArray>
#include <QDateTime>
#include <QString>

namespace TrainDesk::SafeFiles {

// Files on this machine written so that nothing is lost or mixed: each writer has its own
// temporary file beside the target (".NAME.<pid>-<random>.traindesk-part", which listings
// hide) and renames it into place with rename(2), which replaces the target in one step.
// Of several writers of one name, the last to finish wins whole.
QString uniquePartPath(const QString &target);
// The token that makes a part file this process's own: "<host>-<pid>".
QString processToken();
bool isPartFile(const QString &fileName);
// Whether the process a token names ("<host>-<pid>") is one of this machine that has ended.
bool processIsGone(const QString &token);
VoidResult replaceAtomically(const QString &part, const QString &target);
// Whether a part file was left by a writer that is gone: its token names a process of this
// machine that no longer runs, or nothing has written to it for `maxAgeSeconds`. Only part
// files with a writer's token are judged; a resumable download's part (no token) stays for
// the next fetch. Judged by name and time alone, so that it serves files on nodes too.
bool isStalePart(const QString &fileName, const QDateTime &modified, qint64 maxAgeSeconds = 24 * 3600);
// Removes the stale part files of `folder` (killed uploads and downloads).
void sweepStaleParts(const QString &folder, qint64 maxAgeSeconds = 24 * 3600);

// What errno says, in words a user can act on: "no space left on device (ENOSPC)".
QString errorText(int error);

// `path` (absolute, on this machine) with every symbolic link resolved, refused when it
// leaves `root`: "'<path>' is outside <what> <root>". Missing trailing parts are fine.
Result<QString> confined(const QString &root, const QString &path, const QString &what);
// The same check run on a node, as one shell command: prints the resolved path, exits 3
// when it leaves the root.
QString confinedCommand(const QString &root, const QString &path);

// Reads a whole file of at most `cap` bytes, refusing larger ones (and endless ones such as
// /dev/zero) with the cap in the message.
Result<QByteArray> readCapped(const QString &path, qint64 cap);

} // namespace TrainDesk::SafeFiles
