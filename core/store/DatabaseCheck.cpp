#include "DatabaseCheck.h"

#include <QAtomicInt>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QMutex>
#include <QSet>
#include <QSqlError>
#include <QSqlQuery>

#include <sys/stat.h>

namespace TrainDesk::DatabaseCheck {

namespace {

// quick_check lists up to this many problems; the first few say enough.
constexpr int maxProblems = 5;

// Whether a failed statement says the file is damaged (SQLITE_CORRUPT, SQLITE_NOTADB), not
// that it could not be read now (a full disk, a lock, no permission: said elsewhere).
bool isDamage(const QSqlError &error)
{
    const QString code = error.nativeErrorCode();
    const QString text = error.text();
    return code == QLatin1String("11") || code == QLatin1String("26") || text.contains(QLatin1String("malformed"))
        || text.contains(QLatin1String("not a database"));
}

// A quick_check's answer: every line but "ok", up to maxProblems in all.
void addProblemLines(QSqlQuery &q, QStringList &found)
{
    while (q.next() && found.size() < maxProblems) {
        const QString line = q.value(0).toString();
        if (line != QLatin1String("ok"))
            found << line;
    }
}

} // namespace

QString problems(const QSqlDatabase &db, const QStringList &expectedTables)
{
    QSqlQuery q(db);
    if (!q.exec(QStringLiteral("PRAGMA quick_check(%1)").arg(maxProblems)))
        return isDamage(q.lastError()) ? q.lastError().databaseText() : QString();
    QStringList found;
    addProblemLines(q, found);
    if (!found.isEmpty())
        return found.join(QLatin1Char('\n'));
    return missingTables(db, expectedTables);
}

QString problemsOfTables(const QSqlDatabase &db, const QStringList &tables, const QStringList &expectedTables)
{
    QStringList found;
    for (const QString &table : tables) {
        QSqlQuery q(db);
        // quick_check(TABLE): that table's pages and its indexes only (SQLite >= 3.33).
        if (!q.exec(QStringLiteral("PRAGMA quick_check(\"%1\")").arg(table))) {
            if (isDamage(q.lastError()))
                found << q.lastError().databaseText();
            continue;
        }
        addProblemLines(q, found);
    }
    if (!found.isEmpty())
        return found.join(QLatin1Char('\n'));
    return missingTables(db, expectedTables);
}

const QStringList &bulkTables()
{
    static const QStringList tables{QStringLiteral("job_metrics"), QStringLiteral("job_system_samples")};
    return tables;
}

namespace {
QAtomicInteger<qint64> wholeCheckLimit = 32 * 1024 * 1024;
}

qint64 wholeCheckAtOpenBytes()
{
    return wholeCheckLimit.loadRelaxed();
}

void setWholeCheckAtOpenBytes(qint64 bytes)
{
    wholeCheckLimit.storeRelaxed(bytes);
}

QString problemsAtOpen(const QSqlDatabase &db, qint64 size)
{
    if (size <= wholeCheckAtOpenBytes())
        return problems(db, {});
    // Every table the file has but the bulk ones (a store of an older schema has fewer; the
    // schema's own tables are checked after the migration, Store::open).
    QSqlQuery q(db);
    if (!q.exec(QStringLiteral("SELECT name FROM sqlite_master WHERE type = 'table'")))
        return isDamage(q.lastError()) ? q.lastError().databaseText() : QString();
    QStringList tables;
    while (q.next()) {
        if (const QString name = q.value(0).toString(); !bulkTables().contains(name))
            tables << name;
    }
    return problemsOfTables(db, tables, {});
}

QString damageNotePath(const QString &databasePath)
{
    return databasePath + QStringLiteral(".damage");
}

void noteDamage(const QString &databasePath, const QString &problems)
{
    const auto stamp = stampOf(databasePath);
    QFile note(damageNotePath(databasePath));
    if (!stamp || !note.open(QIODevice::WriteOnly | QIODevice::Truncate))
        return;
    // The first line names the file it is about (device and inode); the rest, the damage.
    note.write(QByteArray::number(stamp->device) + ' ' + QByteArray::number(stamp->inode) + '\n' + problems.toUtf8());
}

QString notedDamage(const QString &databasePath)
{
    QFile note(damageNotePath(databasePath));
    const auto stamp = stampOf(databasePath);
    if (!stamp || !note.open(QIODevice::ReadOnly))
        return {};
    const QByteArray first = note.readLine().trimmed();
    if (first != QByteArray::number(stamp->device) + ' ' + QByteArray::number(stamp->inode))
        return {};  // about another file that was at this path
    const QString problems = QString::fromUtf8(note.readAll()).trimmed();
    return problems.isEmpty() ? QStringLiteral("damage noted by an earlier check") : problems;
}

QString missingTables(const QSqlDatabase &db, const QStringList &expectedTables)
{
    QSqlQuery q(db);
    QSet<QString> tables;
    if (!q.exec(QStringLiteral("SELECT name FROM sqlite_master WHERE type = 'table'")))
        return isDamage(q.lastError()) ? q.lastError().databaseText() : QString();
    while (q.next())
        tables.insert(q.value(0).toString());
    QStringList missing;
    for (const QString &t : expectedTables) {
        if (!tables.contains(t))
            missing << t;
    }
    if (!missing.isEmpty())
        return QStringLiteral("table%1 %2 missing").arg(missing.size() == 1 ? QString() : QStringLiteral("s"),
                                                         missing.join(QStringLiteral(", ")));
    return {};
}

std::optional<FileStamp> stampOf(const QString &path)
{
    struct stat st {};
    if (::stat(QFile::encodeName(path).constData(), &st) != 0)
        return std::nullopt;
    return FileStamp{quint64(st.st_dev), quint64(st.st_ino), qint64(st.st_size),
                     qint64(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec};
}

namespace {
QMutex wholeMutex;
QHash<QString, FileStamp> &wholeFiles()
{
    static QHash<QString, FileStamp> files;
    return files;
}
} // namespace

bool foundWhole(const QString &path, const FileStamp &stamp)
{
    const QMutexLocker lock(&wholeMutex);
    const auto it = wholeFiles().constFind(path);
    return it != wholeFiles().constEnd() && *it == stamp;
}

void rememberWhole(const QString &path, const FileStamp &stamp)
{
    const QMutexLocker lock(&wholeMutex);
    wholeFiles().insert(path, stamp);
}

QString problemsOfFile(const QString &path, const QStringList &expectedTables)
{
    if (!QFileInfo(path).isFile())
        return QStringLiteral("no such file");
    static QAtomicInt counter;
    const QString name = QStringLiteral("traindesk-check-%1").arg(counter.fetchAndAddRelaxed(1));
    QString result;
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), name);
        db.setDatabaseName(path);
        db.setConnectOptions(QStringLiteral("QSQLITE_OPEN_READONLY;QSQLITE_BUSY_TIMEOUT=10000"));
        result = db.open() ? problems(db, expectedTables) : db.lastError().text();
        db.close();
    }
    QSqlDatabase::removeDatabase(name);
    return result;
}

QString backupPath(const QString &databasePath)
{
    return databasePath + QStringLiteral(".last-good");
}

QDateTime backupTime(const QString &databasePath)
{
    const QFileInfo backup(backupPath(databasePath));
    return backup.isFile() ? backup.lastModified() : QDateTime();
}

Result<QString> restoreBackup(const QString &databasePath, const QStringList &expectedTables)
{
    const QString backup = backupPath(databasePath);
    if (!QFileInfo(backup).isFile())
        return fail(QStringLiteral("there is no last good copy of %1 (%2)").arg(databasePath, backup));
    if (const QString damage = problemsOfFile(backup, expectedTables); !damage.isEmpty())
        return fail(QStringLiteral("the last good copy %1 is damaged too (%2): not restored")
                        .arg(backup, damage.section(QLatin1Char('\n'), 0, 0)));
    const QString part = databasePath + QStringLiteral(".restore-part");
    QFile::remove(part);
    if (!QFile::copy(backup, part))
        return fail(QStringLiteral("cannot copy %1 to %2").arg(backup, part));
    QFile::setPermissions(part, QFileDevice::ReadOwner | QFileDevice::WriteOwner);
    const QString kept = databasePath + QStringLiteral(".damaged-")
        + QDateTime::currentDateTime().toString(QStringLiteral("yyyyMMdd-HHmmss"));
    for (const QString &suffix : {QString(), QStringLiteral("-wal"), QStringLiteral("-shm"), QStringLiteral(".damage")}) {
        if (QFileInfo::exists(databasePath + suffix) && !QFile::rename(databasePath + suffix, kept + suffix)) {
            QFile::remove(part);
            return fail(QStringLiteral("cannot move %1 aside to %2").arg(databasePath + suffix, kept + suffix));
        }
    }
    if (!QFile::rename(part, databasePath))
        return fail(QStringLiteral("cannot rename %1 to %2 (the damaged file is at %3)").arg(part, databasePath, kept));
    return kept;
}

QString damagedMessage(const QString &databasePath, const QString &problems)
{
    QString first = problems.section(QLatin1Char('\n'), 0, 0);
    if (problems.contains(QLatin1Char('\n')))
        first += QStringLiteral(", ...");
    QString text = QStringLiteral("the database %1 is damaged (%2); nothing was changed. ").arg(databasePath, first);
    const QDateTime backup = backupTime(databasePath);
    if (backup.isValid()) {
        text += QStringLiteral("The agent kept a last good copy (%1, from %2): 'traindesk doctor --restore' puts it back "
                               "and keeps the damaged file beside it; 'traindesk doctor' checks both")
                    .arg(backupPath(databasePath), backup.toString(Qt::ISODate));
    } else {
        text += QStringLiteral("There is no last good copy (%1; the agent makes one while it runs): move the damaged file "
                               "aside to start afresh; 'traindesk doctor' checks it")
                    .arg(backupPath(databasePath));
    }
    return text;
}

} // namespace TrainDesk::DatabaseCheck
