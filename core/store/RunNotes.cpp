#include "RunNotes.h"

#include <QRegularExpression>
#include <QSet>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QThread>
#include <QUuid>

namespace TrainDesk::RunNotes {

namespace {

// A connection of this call's own (connections are per thread), closed when it ends.
class Connection
{
public:
    explicit Connection(const QString &path)
        : m_name(QStringLiteral("run-notes-") + QUuid::createUuid().toString(QUuid::WithoutBraces))
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), m_name);
        db.setDatabaseName(path);
        db.setConnectOptions(QStringLiteral("QSQLITE_BUSY_TIMEOUT=10000"));
        m_open = db.open();
        if (m_open)
            QSqlQuery(db).exec(QStringLiteral("PRAGMA foreign_keys=ON"));
    }
    ~Connection() { QSqlDatabase::removeDatabase(m_name); }
    bool isOpen() const { return m_open; }
    QSqlDatabase db() const { return QSqlDatabase::database(m_name, false); }

private:
    QString m_name;
    bool m_open = false;
};

} // namespace

QHash<qint64, RunNote> read(const QString &databasePath, const QList<qint64> &jobIds)
{
    QHash<qint64, RunNote> notes;
    const Connection connection(databasePath);
    if (!connection.isOpen() || jobIds.isEmpty())
        return notes;
    const QSet<qint64> wanted(jobIds.cbegin(), jobIds.cend());  // a list's contains() per row: 10,000 x 10,000
    {
        QSqlQuery q(connection.db());
        q.prepare(QStringLiteral("SELECT job_id, tags, note, color FROM run_notes"));
        if (!q.exec())
            return notes;
        while (q.next()) {
            const qint64 id = q.value(0).toLongLong();
            if (wanted.contains(id))
                notes.insert(id, {parseTags(q.value(1).toString()), q.value(2).toString(), q.value(3).toString()});
        }
    }
    return notes;
}

QHash<qint64, QString> readColors(const QString &databasePath)
{
    QHash<qint64, QString> colors;
    const Connection connection(databasePath);
    if (!connection.isOpen())
        return colors;
    QSqlQuery q(connection.db());
    if (!q.exec(QStringLiteral("SELECT job_id, color FROM run_notes WHERE color != ''")))
        return colors;
    while (q.next())
        colors.insert(q.value(0).toLongLong(), q.value(1).toString());
    return colors;
}

VoidResult write(const QString &databasePath, qint64 jobId, const RunNote &note)
{
    static const QRegularExpression rgb(QStringLiteral("^#[0-9a-fA-F]{6}$"));
    if (!note.color.isEmpty() && !rgb.match(note.color).hasMatch())
        return fail(QStringLiteral("the colour of job %1 is \"%2\", not #rrggbb").arg(jobId).arg(note.color));
    const Connection connection(databasePath);
    if (!connection.isOpen())
        return fail(QStringLiteral("cannot open database %1").arg(databasePath));
    QSqlQuery q(connection.db());
    if (note.isEmpty()) {
        q.prepare(QStringLiteral("DELETE FROM run_notes WHERE job_id = ?"));
        q.addBindValue(jobId);
    } else {
        q.prepare(QStringLiteral("INSERT INTO run_notes (job_id, tags, note, color) VALUES (?, ?, ?, ?) "
                                 "ON CONFLICT(job_id) DO UPDATE SET tags = excluded.tags, note = excluded.note, "
                                 "color = excluded.color"));
        q.addBindValue(jobId);
        // Qt binds a null QString (an empty list joined, too) as NULL: the columns are NOT NULL.
        const QString tags = note.tags.join(QStringLiteral(", "));
        q.addBindValue(tags.isNull() ? QStringLiteral("") : tags);
        q.addBindValue(note.note.isNull() ? QStringLiteral("") : note.note);
        q.addBindValue(note.color.isNull() ? QStringLiteral("") : note.color);
    }
    if (!q.exec())
        return fail(QStringLiteral("cannot save the note of job %1: %2").arg(jobId).arg(q.lastError().text()));
    return {};
}

} // namespace TrainDesk::RunNotes
