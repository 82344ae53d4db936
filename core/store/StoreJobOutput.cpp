// Store: what was read of each job's output: file offsets, metric records, system samples.
#include "Store.h"

#include "Names.h"
#include "StoreRows.h"

namespace TrainDesk {

using namespace StoreRows;

qint64 Store::jobFileOffset(qint64 jobId, const QString &file) const
{
    QSqlQuery q(m_db);
    q.prepare(QStringLiteral("SELECT offset FROM job_file_offsets WHERE job_id = ? AND file = ?"));
    q.addBindValue(jobId);
    q.addBindValue(file);
    if (q.exec() && q.next())
        return q.value(0).toLongLong();
    return 0;
}

QByteArray Store::jobFileReaderState(qint64 jobId, const QString &file) const
{
    QSqlQuery q(m_db);
    q.prepare(QStringLiteral("SELECT reader_state FROM job_file_offsets WHERE job_id = ? AND file = ?"));
    q.addBindValue(jobId);
    q.addBindValue(file);
    if (q.exec() && q.next())
        return q.value(0).toString().toUtf8();
    return {};
}

Result<bool> Store::appendJobOutput(qint64 jobId, const QString &file, qint64 fromOffset, qint64 toOffset,
                                    const QList<QByteArray> &records, const QByteArray &readerState)
{
    Transaction tx(m_db);
    if (!tx.active())
        return fail(QStringLiteral("cannot store output of job #%1: %2").arg(jobId).arg(tx.error()));
    if (jobFileOffset(jobId, file) != fromOffset)
        return false;
    // One statement for all the records (prepared once: SQLite's parser was most of the cost
    // of a large chunk).
    QSqlQuery insert(m_db);
    insert.prepare(QStringLiteral("INSERT INTO job_metrics(job_id, record) VALUES(?, ?)"));
    for (const QByteArray &record : records) {
        insert.bindValue(0, jobId);
        insert.bindValue(1, QString::fromUtf8(record));
        if (!insert.exec())
            return fail(QStringLiteral("cannot store output of job #%1: %2").arg(jobId).arg(insert.lastError().text()));
    }
    QSqlQuery q(m_db);
    q.prepare(QStringLiteral("INSERT INTO job_file_offsets(job_id, file, offset, reader_state) VALUES(?, ?, ?, ?) "
                             "ON CONFLICT(job_id, file) DO UPDATE SET offset = excluded.offset, "
                             "reader_state = excluded.reader_state"));
    q.addBindValue(jobId);
    q.addBindValue(file);
    q.addBindValue(toOffset);
    q.addBindValue(text(QString::fromUtf8(readerState)));
    if (!q.exec())
        return fail(QStringLiteral("cannot store output offset of job #%1: %2").arg(jobId).arg(q.lastError().text()));
    if (!tx.commit())
        return fail(QStringLiteral("cannot store output of job #%1: %2").arg(jobId).arg(tx.error()));
    return true;
}

QByteArray Store::lastJobMetric(qint64 jobId) const
{
    QSqlQuery q(m_db);
    q.prepare(QStringLiteral("SELECT record FROM job_metrics WHERE job_id = ? ORDER BY id DESC LIMIT 1"));
    q.addBindValue(jobId);
    if (q.exec() && q.next())
        return q.value(0).toString().toUtf8();
    return {};
}

qint64 Store::lastMetricId(qint64 jobId) const
{
    QSqlQuery q(m_db);
    q.prepare(QStringLiteral("SELECT COALESCE(MAX(id), 0) FROM job_metrics WHERE job_id = ?"));
    q.addBindValue(jobId);
    if (q.exec() && q.next())
        return q.value(0).toLongLong();
    return 0;
}

QList<QPair<qint64, QByteArray>> Store::jobMetrics(qint64 jobId, qint64 afterId) const
{
    return selectAll<QPair<qint64, QByteArray>>(
        m_db, QStringLiteral("SELECT id, record FROM job_metrics WHERE job_id = ? AND id > ? ORDER BY id"),
        {jobId, afterId}, [](const QSqlQuery &q) {
            return qMakePair(q.value(0).toLongLong(), q.value(1).toString().toUtf8());
        });
}

VoidResult Store::forEachJobMetric(qint64 jobId, const std::function<bool(qint64, const QByteArray &)> &each) const
{
    QSqlQuery q(m_db);
    q.setForwardOnly(true);  // rows are not kept once read
    q.prepare(QStringLiteral("SELECT id, record FROM job_metrics WHERE job_id = ? ORDER BY id"));
    q.addBindValue(jobId);
    if (!q.exec())
        return fail(QStringLiteral("cannot read the metrics of job #%1: %2").arg(jobId).arg(q.lastError().text()));
    while (q.next()) {
        if (!each(q.value(0).toLongLong(), q.value(1).toString().toUtf8()))
            break;
    }
    return {};
}

VoidResult Store::addSystemSample(qint64 jobId, const QByteArray &sample)
{
    QSqlQuery q(m_db);
    q.prepare(QStringLiteral("INSERT INTO job_system_samples (job_id, sample) VALUES (?, ?)"));
    q.addBindValue(jobId);
    q.addBindValue(QString::fromUtf8(sample));
    if (!q.exec())
        return fail(QStringLiteral("cannot store a system sample of job #%1: %2").arg(jobId).arg(q.lastError().text()));
    return {};
}

QList<QPair<qint64, QByteArray>> Store::systemSamples(qint64 jobId, qint64 afterId) const
{
    return selectAll<QPair<qint64, QByteArray>>(
        m_db, QStringLiteral("SELECT id, sample FROM job_system_samples WHERE job_id = ? AND id > ? ORDER BY id"),
        {jobId, afterId}, [](const QSqlQuery &q) {
            return qMakePair(q.value(0).toLongLong(), q.value(1).toString().toUtf8());
        });
}

qint64 Store::lastSystemSampleId(qint64 jobId) const
{
    QSqlQuery q(m_db);
    q.prepare(QStringLiteral("SELECT COALESCE(MAX(id), 0) FROM job_system_samples WHERE job_id = ?"));
    q.addBindValue(jobId);
    if (q.exec() && q.next())
        return q.value(0).toLongLong();
    return 0;
}

} // namespace TrainDesk
