#include "Store.h"

#include <sys/statvfs.h>

#include "DatabaseCheck.h"
#include "StoreRows.h"

#include <QDir>
#include <QFileInfo>

namespace TrainDesk {

using namespace StoreRows;

namespace {
constexpr qint64 logLimitBytes = 4 * 1024 * 1024;
}

Store::Store()
{
    static QAtomicInt counter;
    m_connectionName = QStringLiteral("traindesk-store-%1").arg(counter.fetchAndAddRelaxed(1));
}

Store::~Store()
{
    if (m_db.isValid()) {
        m_db.close();
        m_db = QSqlDatabase();
        QSqlDatabase::removeDatabase(m_connectionName);
    }
}

VoidResult Store::open(const QString &databasePath)
{
    m_path = databasePath;
    const QFileInfo info(databasePath);
    if (!QDir().mkpath(info.absolutePath()))
        return fail(QStringLiteral("cannot create the data directory %1").arg(info.absolutePath()));
    // The database holds every cluster's address, user and sealed secrets: the owner's only.
    // (SQLite makes its -wal and -shm files with the database's mode.)
    QFile::setPermissions(info.absolutePath(), QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
    if (!info.exists()) {
        QFile created(databasePath);
        if (!created.open(QIODevice::WriteOnly | QIODevice::NewOnly) && !info.exists())
            return fail(QStringLiteral("cannot create database %1: %2").arg(databasePath, created.errorString()));
    }
    QFile::setPermissions(databasePath, QFileDevice::ReadOwner | QFileDevice::WriteOwner);
    m_db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), m_connectionName);
    m_db.setDatabaseName(databasePath);
    // Another process may hold the write lock for a moment: wait instead of failing.
    m_db.setConnectOptions(QStringLiteral("QSQLITE_BUSY_TIMEOUT=10000"));
    if (!m_db.open())
        return fail(lastError(QStringLiteral("cannot open database %1").arg(databasePath)));
    // Damage first, before anything writes: a migration on a damaged file could make it worse.
    // Damage an earlier whole check found (the agent's, Store::backup) is named at once.
    if (const QString noted = DatabaseCheck::notedDamage(databasePath); !noted.isEmpty())
        return fail(DatabaseCheck::damagedMessage(databasePath, noted));
    // A small file whole, a large one without its time series (DatabaseCheck::problemsAtOpen);
    // once per process for a file unchanged since it was found whole (DatabaseCheck::foundWhole).
    const auto stamp = DatabaseCheck::stampOf(databasePath);
    if (!stamp || !DatabaseCheck::foundWhole(databasePath, *stamp)) {
        if (const QString damage = DatabaseCheck::problemsAtOpen(m_db, stamp ? stamp->size : 0); !damage.isEmpty())
            return fail(DatabaseCheck::damagedMessage(databasePath, damage));
        if (stamp)
            DatabaseCheck::rememberWhole(databasePath, *stamp);
    }
    QSqlQuery q(m_db);
    q.exec(QStringLiteral("PRAGMA journal_mode=WAL"));
    q.exec(QStringLiteral("PRAGMA foreign_keys=ON"));
    q.exec(QStringLiteral("PRAGMA synchronous=NORMAL"));
    // After each checkpoint the log shrinks back to this size, instead of keeping its largest.
    q.exec(QStringLiteral("PRAGMA journal_size_limit=%1").arg(logLimitBytes));
    auto migrated = migrate();
    // A table dropped behind TrainDesk's back would read as an empty list.
    if (migrated) {
        // (Its pages were just checked: the schema's tables only.)
        if (const QString damage = DatabaseCheck::missingTables(m_db, tableNames()); !damage.isEmpty())
            return fail(DatabaseCheck::damagedMessage(databasePath, damage));
    }
    // SQLite says "disk I/O error" when it cannot make the write-ahead log on a full disk:
    // say what the user can act on. The database itself is left as it was.
    if (!migrated) {
        struct statvfs fs {};
        if (::statvfs(QFile::encodeName(info.absolutePath()).constData(), &fs) == 0 && fs.f_bavail == 0)
            return fail(QStringLiteral("cannot open database %1: no space left on device (ENOSPC) in %2; the database "
                                       "is unchanged: free some space and run the command again")
                            .arg(databasePath, info.absolutePath()));
    }
    return migrated;
}

void Store::truncateLogOver(qint64 overBytes)
{
    if (QFileInfo(m_path + QStringLiteral("-wal")).size() <= overBytes)
        return;
    // A reader's snapshot can keep part of it: what could not be written goes at the next try.
    // Without waiting: TRUNCATE waits in the busy handler for every reader to reach the newest
    // snapshot, and holds off every writer meanwhile (the agent's tick, a CLI's submit) for up
    // to the busy timeout. With none it stops there and checkpoints what it can (PASSIVE).
    QSqlQuery q(m_db);
    const int busyMs = q.exec(QStringLiteral("PRAGMA busy_timeout")) && q.next() ? q.value(0).toInt() : 10000;
    q.exec(QStringLiteral("PRAGMA busy_timeout=0"));
    q.exec(QStringLiteral("PRAGMA wal_checkpoint(TRUNCATE)"));
    q.exec(QStringLiteral("PRAGMA busy_timeout=%1").arg(busyMs));
}

VoidResult Store::backup() const
{
    if (const QString damage = DatabaseCheck::problems(m_db, tableNames()); !damage.isEmpty()) {
        // Not used for writes any more: this connection refuses them, and every later open
        // names the damage (a large file is not read whole at open).
        QSqlQuery(m_db).exec(QStringLiteral("PRAGMA query_only=ON"));
        DatabaseCheck::noteDamage(m_path, damage);
        return fail(DatabaseCheck::damagedMessage(m_path, damage));
    }
    const QString target = DatabaseCheck::backupPath(m_path);
    const QString part = target + QStringLiteral(".part");
    QFile::remove(part);  // VACUUM INTO writes only a file that is not there
    QSqlQuery q(m_db);
    q.prepare(QStringLiteral("VACUUM INTO ?"));
    q.addBindValue(part);
    if (!q.exec()) {
        QFile::remove(part);
        return fail(QStringLiteral("cannot copy the database %1 to %2: %3").arg(m_path, part, q.lastError().text()));
    }
    QFile::setPermissions(part, QFileDevice::ReadOwner | QFileDevice::WriteOwner);
    if (std::rename(QFile::encodeName(part).constData(), QFile::encodeName(target).constData()) != 0) {
        QFile::remove(part);
        return fail(QStringLiteral("cannot rename %1 to %2").arg(part, target));
    }
    return {};
}

QString Store::lastError(const QString &context) const
{
    return QStringLiteral("%1: %2").arg(context, m_db.lastError().text());
}

// --- workspaces and experiments ---

} // namespace TrainDesk
