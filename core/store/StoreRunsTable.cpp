// Store: what the resource tree and the runs table read of every job at once (one query each,
// not one per job: a snapshot of 10,000 jobs asked 20,000 queries, their summaries 40,000).
#include "Store.h"

#include "StoreRows.h"


namespace TrainDesk {

using namespace StoreRows;

QHash<qint64, QList<JobAttempt>> Store::allJobAttempts() const
{
    QHash<qint64, QList<JobAttempt>> byJob;
    for (const JobAttempt &a : selectAll<JobAttempt>(m_db, QLatin1String(jobAttemptColumns) + QStringLiteral(" ORDER BY job_id, attempt"),
                                                     {}, jobAttemptFrom))
        byJob[a.jobId].append(a);
    return byJob;
}

namespace {

// Every (job id, text) row of `sql`, whose two columns are those; none when it fails.
QHash<qint64, QByteArray> textByJob(const QSqlDatabase &db, const QString &sql)
{
    QHash<qint64, QByteArray> byJob;
    QSqlQuery q(db);
    q.setForwardOnly(true);
    if (q.exec(sql)) {
        while (q.next())
            byJob.insert(q.value(0).toLongLong(), q.value(1).toString().toUtf8());
    }
    return byJob;
}

} // namespace

QHash<qint64, QByteArray> Store::allJobSilences() const
{
    return textByJob(m_db, QStringLiteral("SELECT job_id, silent FROM job_silence"));
}

QHash<qint64, std::pair<qint64, QByteArray>> Store::runSummaries(bool withSummary) const
{
    QHash<qint64, std::pair<qint64, QByteArray>> byJob;
    QSqlQuery q(m_db);
    q.setForwardOnly(true);
    if (q.exec(withSummary ? QStringLiteral("SELECT job_id, last_id, summary FROM run_summaries")
                           : QStringLiteral("SELECT job_id, last_id FROM run_summaries"))) {
        while (q.next())
            byJob.insert(q.value(0).toLongLong(),
                         {q.value(1).toLongLong(), withSummary ? q.value(2).toString().toUtf8() : QByteArray()});
    }
    return byJob;
}

QHash<qint64, QByteArray> Store::importedRunSummaries() const
{
    return textByJob(m_db, QStringLiteral("SELECT job_id, summary FROM imported_runs"));
}

QSet<qint64> Store::jobsWithMetricsAfter(const QHash<qint64, qint64> &lastIds) const
{
    QSet<qint64> found;
    if (lastIds.isEmpty())
        return found;
    // The pairs go in as one JSON object {"job id": last id}; SQLite walks it (json_each) and
    // looks each job up in job_metrics_by_job.
    QByteArray pairs = "{";
    for (auto it = lastIds.cbegin(); it != lastIds.cend(); ++it) {
        if (pairs.size() > 1)
            pairs += ',';
        pairs += '"' + QByteArray::number(it.key()) + "\":" + QByteArray::number(it.value());
    }
    pairs += '}';
    QSqlQuery q(m_db);
    q.setForwardOnly(true);
    q.prepare(QStringLiteral("SELECT CAST(p.key AS INTEGER) FROM json_each(?) AS p WHERE EXISTS "
                             "(SELECT 1 FROM job_metrics m WHERE m.job_id = CAST(p.key AS INTEGER) AND m.id > p.value)"));
    q.addBindValue(QString::fromLatin1(pairs));
    if (q.exec()) {
        while (q.next())
            found.insert(q.value(0).toLongLong());
    } else {
        // Not knowing which: every one is read (as before, a query each).
        for (auto it = lastIds.cbegin(); it != lastIds.cend(); ++it)
            found.insert(it.key());
    }
    return found;
}

} // namespace TrainDesk
