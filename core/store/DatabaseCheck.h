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

// When: a file of up to wholeCheckAtOpenBytes() is checked whole when a Store opens it (once
// per process while unchanged, foundWhole below). A larger one (a store of 10,000 runs is
// 3.4 GB: 4 s of CPU and 12 s of reading on a busy machine, before the GUI showed anything)
// has at open its header and schema read and every table checked but the time series
// (bulkTables(): the metric records and system samples, most of its pages, written by the
// agent only); the agent checks the whole file when it starts and every 10 minutes (the last
// good copy, Store::backup), and damage it finds is noted beside the file (noteDamage): every
// later open names it, and the Store that found it writes no more.

// The problems of an open connection, one per line; empty when there are none, and when
// the file cannot be read now (a full disk, a lock: not damage, and said by what fails next).
// `expectedTables`: tables a database of this schema has (Store::tableNames()).
QString problems(const QSqlDatabase &db, const QStringList &expectedTables);
// The same, but only the pages of the given tables and their indexes, and the schema's tables.
QString problemsOfTables(const QSqlDatabase &db, const QStringList &tables, const QStringList &expectedTables);
// The tables of time series: most of a large store's pages, not read whole at open.
const QStringList &bulkTables();
// Files larger than this are checked at open without their bulkTables() (32 MiB: about 40 ms
// of reading). Settable for tests (a small file played as a large one).
qint64 wholeCheckAtOpenBytes();
void setWholeCheckAtOpenBytes(qint64 bytes);
// The check a Store runs when it opens the file at `path` of `size` bytes: problems() or, for
// a large file, problemsOfTables() of every table but the bulk ones.
QString problemsAtOpen(const QSqlDatabase &db, qint64 size);
// Damage a whole check found (Store::backup) kept beside the database, tied to that file (its
// inode): a later open names it instead of reading the large file whole again. A file put in
// its place (restored, or a fresh one) is not concerned. Empty: none noted.
void noteDamage(const QString &databasePath, const QString &problems);
QString notedDamage(const QString &databasePath);
QString damageNotePath(const QString &databasePath);

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
