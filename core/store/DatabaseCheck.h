#pragma once

#include "common/Result.h"

#include <QDateTime>
#include <QSqlDatabase>
#include <QString>
#include <QStringList>

#include <optional>

namespace TrainDesk::DatabaseCheck {

// Is the database whole? SQLite's PRAGMA quick_check (pages, records, indexes) and the
// tables the schema has: a damaged file or a dropped table is found when the database is
// opened, and named with its path and the way back, never left to surface as a SQL message
// ("Parameter count mismatch") or as an empty list.

// The problems of an open connection, one per line; empty when there are none, and when
// the file cannot be read now (a full disk, a lock: not damage, and said by what fails next).
// `expectedTables`: tables a database of this schema has (Store::tableNames()).
QString problems(const QSqlDatabase &db, const QStringList &expectedTables);
// Only the tables part of problems() (the schema, not every page): "table jobs missing".
QString missingTables(const QSqlDatabase &db, const QStringList &expectedTables);
// Whether this process found the file at `path` whole (problems() empty) and it is the same
// file, unchanged since (device, inode, size, modification time to the nanosecond): quick_check
// reads every page (12 s for a 3.4 GB store of 10,000 runs on a busy machine) and the GUI
// opens a Store per worker. remember() notes a stamp taken before a check that passed.
struct FileStamp
{
    quint64 device = 0, inode = 0;
    qint64 size = -1, modifiedNs = 0;
    bool operator==(const FileStamp &) const = default;
};
std::optional<FileStamp> stampOf(const QString &path);
bool foundWhole(const QString &path, const FileStamp &stamp);
void rememberWhole(const QString &path, const FileStamp &stamp);
// The same for the file at `path`, on a read-only connection of its own.
QString problemsOfFile(const QString &path, const QStringList &expectedTables);

// Where the agent keeps the last copy of the database that passed the check.
QString backupPath(const QString &databasePath);
// When that copy was made (invalid when there is none).
QDateTime backupTime(const QString &databasePath);

// Puts the last good copy in place of the database at `databasePath`: the copy is checked
// first, the damaged file (and its -wal and -shm) kept beside it as
// "<database>.damaged-<time>" (returned), the copy placed under a temporary name and renamed.
// The caller makes sure nothing has the database open (the agent stopped).
Result<QString> restoreBackup(const QString &databasePath, const QStringList &expectedTables);

// "the database <path> is damaged (<problems>): ..." with what to run to get it back.
QString damagedMessage(const QString &databasePath, const QString &problems);

} // namespace TrainDesk::DatabaseCheck
