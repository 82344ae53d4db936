#pragma once

#include <QDateTime>
#include <QString>

namespace TrainDesk::StaleParts {

// Whether a part file (common/AtomicReplace) was left by a writer that is gone: its token
// names a process of this machine that no longer runs, or nothing has written to it for
// `maxAgeSeconds`. Only part files with a writer's token are judged; a resumable download's
// part (no token) stays for the next fetch. Judged by name and time alone, so that it serves
// files on nodes too.
bool isStale(const QString &fileName, const QDateTime &modified, qint64 maxAgeSeconds = 24 * 3600);
// Removes the stale part files of `folder` (killed uploads and downloads).
void removeFrom(const QString &folder, qint64 maxAgeSeconds = 24 * 3600);

} // namespace TrainDesk::StaleParts
