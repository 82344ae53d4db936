// Store: what keeps jobs going through failures: pending clean-ups, attempts, silences, burn-in.
#include "Store.h"

#include "Names.h"
#include "StoreRows.h"

namespace TrainDesk {

using namespace StoreRows;

VoidResult Store::addPendingCleanup(const PendingCleanup &cleanup)
{
    QSqlQuery q(m_db);
    q.prepare(QStringLiteral("INSERT OR IGNORE INTO pending_sweeps (cluster_id, node, job_uuid, since) VALUES (?, ?, ?, ?)"));
    q.addBindValue(cleanup.clusterId);
    q.addBindValue(text(cleanup.node));
    q.addBindValue(text(cleanup.jobUuid));
    q.addBindValue(timeText(QDateTime::currentDateTimeUtc()));
    if (!q.exec())
        return fail(lastError(QStringLiteral("cannot record the pending clean-up of node %1").arg(cleanup.node)));
    return {};
}

QList<PendingCleanup> Store::pendingCleanups() const
{
    return selectAll<PendingCleanup>(m_db, QStringLiteral("SELECT cluster_id, node, job_uuid FROM pending_sweeps ORDER BY since"), {},
                                     [](const QSqlQuery &q) {
                                         return PendingCleanup{q.value(0).toLongLong(), q.value(1).toString(), q.value(2).toString()};
                                     });
}

VoidResult Store::removePendingCleanup(const PendingCleanup &cleanup)
{
    QSqlQuery q(m_db);
    q.prepare(QStringLiteral("DELETE FROM pending_sweeps WHERE cluster_id = ? AND node = ? AND job_uuid = ?"));
    q.addBindValue(cleanup.clusterId);
    q.addBindValue(text(cleanup.node));
    q.addBindValue(text(cleanup.jobUuid));
    if (!q.exec())
        return fail(lastError(QStringLiteral("cannot remove the pending clean-up of node %1").arg(cleanup.node)));
    return {};
}

Result<bool> Store::requeueAttempt(const Job &job, const JobAttempt &ended, const QString &nextUuid)
{
    Transaction tx(m_db);
    if (!tx.active())
        return fail(QStringLiteral("cannot queue job '%1' again: %2").arg(job.name, tx.error()));
    QSqlQuery insert(m_db);
    insert.prepare(QStringLiteral("INSERT INTO job_attempts (job_id, attempt, uuid, job_dir, nodes, rank_nodes, started, ended, "
                                  "exit_code, errors, lost_nodes, last_metric_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"));
    for (const QVariant &v : QVariantList{job.id, ended.attempt, text(ended.uuid), text(ended.jobDir), stringsToJson(ended.nodes),
                                          stringsToJson(ended.rankNodes), timeValue(ended.started), timeValue(ended.ended),
                                          ended.exitCode ? QVariant(*ended.exitCode) : QVariant(), errorsToJson(ended.errors),
                                          stringsToJson(ended.lostNodes), lastMetricId(job.id)})
        insert.addBindValue(v);
    if (!insert.exec())
        return fail(QStringLiteral("cannot record attempt %1 of job '%2': %3").arg(ended.attempt).arg(job.name, insert.lastError().text()));
    // Only a running attempt: a terminate asked for meanwhile wins.
    QSqlQuery update(m_db);
    update.prepare(QStringLiteral("UPDATE jobs SET state = ?, uuid = ?, started = NULL, ended = NULL, exit_code = NULL, "
                                  "errors = '[]', nodes = '[]', rank_nodes = '[]', job_dir = '', pid = 0, scheduler_id = '', "
                                  "scheduler_state = '', placement = '[]' WHERE id = ? AND state = ? AND uuid = ?"));
    for (const QVariant &v : QVariantList{toString(JobState::Queued), nextUuid, job.id, toString(JobState::Running), job.uuid})
        update.addBindValue(v);
    if (!update.exec())
        return fail(QStringLiteral("cannot queue job '%1' again: %2").arg(job.name, update.lastError().text()));
    if (update.numRowsAffected() != 1)
        return false;
    for (const QString &table : {QStringLiteral("job_file_offsets"), QStringLiteral("job_silence")}) {
        QSqlQuery q(m_db);
        q.prepare(QStringLiteral("DELETE FROM %1 WHERE job_id = ?").arg(table));
        q.addBindValue(job.id);
        if (!q.exec())
            return fail(QStringLiteral("cannot queue job '%1' again: %2").arg(job.name, q.lastError().text()));
    }
    if (!tx.commit())
        return fail(QStringLiteral("cannot queue job '%1' again: %2").arg(job.name, tx.error()));
    return true;
}

JobAttempt StoreRows::jobAttemptFrom(const QSqlQuery &q)
{
    JobAttempt a;
    a.jobId = q.value(0).toLongLong();
    a.attempt = q.value(1).toInt();
    a.uuid = q.value(2).toString();
    a.jobDir = q.value(3).toString();
    a.nodes = stringsFromJson(q.value(4));
    a.rankNodes = stringsFromJson(q.value(5));
    a.started = timeFrom(q.value(6));
    a.ended = timeFrom(q.value(7));
    if (!q.value(8).isNull())
        a.exitCode = q.value(8).toInt();
    a.errors = errorsFromJson(q.value(9).toString());
    a.lostNodes = stringsFromJson(q.value(10));
    a.lastMetricId = q.value(11).toLongLong();
    return a;
}

QList<JobAttempt> Store::jobAttempts(qint64 jobId) const
{
    return selectAll<JobAttempt>(m_db, QLatin1String(jobAttemptColumns) + QStringLiteral(" WHERE job_id = ? ORDER BY attempt"),
                                 {jobId}, jobAttemptFrom);
}

Result<int> Store::removeRepeatedMetrics(qint64 jobId, const QString &replacedKindSql, const QString &resumedAtSql,
                                         QLatin1StringView epochSql)
{
    // The newest ended attempt, if its repeats are still to be removed.
    QSqlQuery pending(m_db);
    pending.prepare(QStringLiteral("SELECT attempt, last_metric_id FROM job_attempts WHERE job_id = ? AND repeats_removed = 0 "
                                   "AND attempt = (SELECT MAX(attempt) FROM job_attempts WHERE job_id = ?)"));
    pending.addBindValue(jobId);
    pending.addBindValue(jobId);
    if (!pending.exec() || !pending.next())
        return 0;
    const int attempt = pending.value(0).toInt();
    const qint64 boundary = pending.value(1).toLongLong();
    // Where the running attempt resumed: the epoch of its first row that marks it.
    QSqlQuery first(m_db);
    first.prepare(QStringLiteral("SELECT %1 FROM job_metrics WHERE job_id = ? AND id > ? AND %2 ORDER BY id LIMIT 1")
                      .arg(epochSql, resumedAtSql));
    first.addBindValue(jobId);
    first.addBindValue(boundary);
    if (!first.exec() || !first.next() || first.value(0).isNull())
        return 0;  // no epoch recorded yet
    const int fromEpoch = first.value(0).toInt();
    Transaction tx(m_db);
    if (!tx.active())
        return fail(QStringLiteral("cannot remove repeated metrics of job #%1: %2").arg(jobId).arg(tx.error()));
    QSqlQuery remove(m_db);
    remove.prepare(QStringLiteral("DELETE FROM job_metrics WHERE job_id = ? AND id <= ? AND %1 AND %2 >= ?")
                       .arg(replacedKindSql, epochSql));
    remove.addBindValue(jobId);
    remove.addBindValue(boundary);
    remove.addBindValue(fromEpoch);
    if (!remove.exec())
        return fail(QStringLiteral("cannot remove repeated metrics of job #%1: %2").arg(jobId).arg(remove.lastError().text()));
    const int removed = remove.numRowsAffected();
    // The runs table's kept summary counted those rows: it is built again from the rest.
    QSqlQuery forget(m_db);
    forget.prepare(QStringLiteral("DELETE FROM run_summaries WHERE job_id = ?"));
    forget.addBindValue(jobId);
    if (!forget.exec())
        return fail(QStringLiteral("cannot remove repeated metrics of job #%1: %2").arg(jobId).arg(forget.lastError().text()));
    QSqlQuery mark(m_db);
    mark.prepare(QStringLiteral("UPDATE job_attempts SET repeats_removed = 1 WHERE job_id = ? AND attempt = ?"));
    mark.addBindValue(jobId);
    mark.addBindValue(attempt);
    if (!mark.exec() || !tx.commit())
        return fail(QStringLiteral("cannot remove repeated metrics of job #%1: %2").arg(jobId).arg(mark.lastError().text()));
    return removed;
}

VoidResult Store::setJobSilence(qint64 jobId, const QByteArray &json)
{
    QSqlQuery q(m_db);
    if (json.isEmpty()) {
        q.prepare(QStringLiteral("DELETE FROM job_silence WHERE job_id = ?"));
        q.addBindValue(jobId);
    } else {
        q.prepare(QStringLiteral("INSERT INTO job_silence (job_id, silent) VALUES (?, ?) "
                                 "ON CONFLICT(job_id) DO UPDATE SET silent = excluded.silent"));
        q.addBindValue(jobId);
        q.addBindValue(QString::fromUtf8(json));
    }
    if (!q.exec())
        return fail(lastError(QStringLiteral("cannot store the silent ranks of job #%1").arg(jobId)));
    return {};
}

QByteArray Store::jobSilence(qint64 jobId) const
{
    QSqlQuery q(m_db);
    q.prepare(QStringLiteral("SELECT silent FROM job_silence WHERE job_id = ?"));
    q.addBindValue(jobId);
    if (q.exec() && q.next())
        return q.value(0).toString().toUtf8();
    return {};
}

BurnInSchedule Store::burnInSchedule(qint64 clusterId) const
{
    BurnInSchedule s;
    s.clusterId = clusterId;
    QSqlQuery q(m_db);
    q.prepare(QStringLiteral("SELECT before_each_job, every_hours, last_run FROM cluster_burn_in WHERE cluster_id = ?"));
    q.addBindValue(clusterId);
    if (q.exec() && q.next()) {
        s.beforeEachJob = q.value(0).toBool();
        s.everyHours = q.value(1).toInt();
        s.lastRun = timeFrom(q.value(2));
    }
    return s;
}

VoidResult Store::setBurnInSchedule(const BurnInSchedule &schedule)
{
    QSqlQuery q(m_db);
    q.prepare(QStringLiteral("INSERT INTO cluster_burn_in (cluster_id, before_each_job, every_hours, last_run) VALUES (?, ?, ?, ?) "
                             "ON CONFLICT(cluster_id) DO UPDATE SET before_each_job = excluded.before_each_job, "
                             "every_hours = excluded.every_hours, last_run = excluded.last_run"));
    q.addBindValue(schedule.clusterId);
    q.addBindValue(schedule.beforeEachJob ? 1 : 0);
    q.addBindValue(schedule.everyHours);
    q.addBindValue(timeValue(schedule.lastRun));
    if (!q.exec())
        return fail(lastError(QStringLiteral("cannot store the burn-in schedule of cluster #%1").arg(schedule.clusterId)));
    return {};
}

} // namespace TrainDesk
