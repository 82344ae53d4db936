// Store: jobs, and the claims that let one scheduler start each.
#include "Store.h"

#include "Names.h"
#include "StoreRows.h"

namespace TrainDesk {

using namespace StoreRows;

Result<Job> Store::createJob(const Job &job)
{
    if (auto valid = validateName(QStringLiteral("job"), job.name); !valid)
        return valid.failure();
    if (this->job(job.experimentId, job.name))
        return fail(QStringLiteral("job '%1' already exists in this experiment").arg(job.name));
    QSqlQuery q(m_db);
    q.prepare(QStringLiteral("INSERT INTO jobs(experiment_id, cluster_id, name, spec, state, priority, created, uuid) "
                             "VALUES(?, ?, ?, ?, ?, ?, ?, ?)"));
    q.addBindValue(job.experimentId);
    q.addBindValue(job.clusterId);
    q.addBindValue(job.name);
    q.addBindValue(job.spec);
    q.addBindValue(toString(job.state));
    q.addBindValue(job.priority);
    q.addBindValue(timeText(job.created.isValid() ? job.created : QDateTime::currentDateTimeUtc()));
    q.addBindValue(text(job.uuid));
    if (!q.exec())
        return fail(uniqueViolation(q) ? QStringLiteral("job '%1' already exists in this experiment").arg(job.name)
                                       : QStringLiteral("cannot create job '%1': %2").arg(job.name, q.lastError().text()));
    return jobById(q.lastInsertId().toLongLong());
}

Result<Job> Store::job(qint64 experimentId, const QString &name) const
{
    return selectOne<Job>(m_db, QStringLiteral("SELECT * FROM jobs WHERE experiment_id = ? AND name = ?"),
                          {experimentId, name}, jobFrom, QStringLiteral("job '%1' not found").arg(name));
}

Result<Job> Store::jobById(qint64 id) const
{
    return selectOne<Job>(m_db, QStringLiteral("SELECT * FROM jobs WHERE id = ?"), {id}, jobFrom,
                          QStringLiteral("job #%1 not found").arg(id));
}

Result<Job> Store::jobByUuid(const QString &uuid) const
{
    return selectOne<Job>(m_db, QStringLiteral("SELECT * FROM jobs WHERE uuid = ?"), {uuid}, jobFrom,
                          QStringLiteral("no job has attempt %1").arg(uuid));
}

QList<Job> Store::jobs(qint64 experimentId) const
{
    return selectAll<Job>(m_db, QStringLiteral("SELECT * FROM jobs WHERE experiment_id = ? ORDER BY created, id"),
                          {experimentId}, jobFrom);
}

QList<Job> Store::jobsOnCluster(qint64 clusterId) const
{
    return selectAll<Job>(m_db, QStringLiteral("SELECT * FROM jobs WHERE cluster_id = ? ORDER BY created, id"),
                          {clusterId}, jobFrom);
}

QList<Job> Store::jobsInStates(const QList<JobState> &states) const
{
    QStringList names;
    for (JobState s : states)
        names << QLatin1Char('\'') + toString(s) + QLatin1Char('\'');
    return selectAll<Job>(m_db, QStringLiteral("SELECT * FROM jobs WHERE state IN (%1) ORDER BY created, id")
                                    .arg(names.join(QLatin1Char(','))),
                          {}, jobFrom);
}

VoidResult Store::updateJob(const Job &job)
{
    QSqlQuery q(m_db);
    q.prepare(QStringLiteral("UPDATE jobs SET spec = ?, state = ?, priority = ?, started = ?, ended = ?, "
                             "exit_code = ?, errors = ?, nodes = ?, rank_nodes = ?, job_dir = ?, pid = ?, "
                             "scheduler_id = ?, scheduler_state = ?, placement = ? WHERE id = ?"));
    q.addBindValue(job.spec);
    q.addBindValue(toString(job.state));
    q.addBindValue(job.priority);
    q.addBindValue(timeValue(job.started));
    q.addBindValue(timeValue(job.ended));
    q.addBindValue(job.exitCode ? QVariant(*job.exitCode) : QVariant());
    q.addBindValue(errorsToJson(job.errors));
    q.addBindValue(stringsToJson(job.nodes));
    q.addBindValue(stringsToJson(job.rankNodes));
    q.addBindValue(text(job.jobDir));
    q.addBindValue(job.pid);
    q.addBindValue(text(job.schedulerId));
    q.addBindValue(text(job.schedulerState));
    q.addBindValue(placementToJson(job.placement));
    q.addBindValue(job.id);
    if (!q.exec())
        return fail(QStringLiteral("cannot update job '%1': %2").arg(job.name, q.lastError().text()));
    return {};
}

VoidResult Store::setJobWaitReason(qint64 jobId, const QString &reason)
{
    QSqlQuery q(m_db);
    q.prepare(QStringLiteral("UPDATE jobs SET scheduler_state = ? WHERE id = ? AND state = ? AND scheduler_id = ''"));
    q.addBindValue(reason);
    q.addBindValue(jobId);
    q.addBindValue(toString(JobState::Queued));
    if (!q.exec())
        return fail(QStringLiteral("cannot store why job #%1 waits: %2").arg(jobId).arg(q.lastError().text()));
    return {};
}

Result<bool> Store::claimSchedulerSubmit(qint64 jobId, const QString &claim)
{
    // One conditional update: of several processes refreshing at once, one gets the job.
    QSqlQuery q(m_db);
    q.prepare(QStringLiteral("UPDATE jobs SET scheduler_id = ? WHERE id = ? AND scheduler_id = '' AND state = ?"));
    q.addBindValue(claim);
    q.addBindValue(jobId);
    q.addBindValue(toString(JobState::Queued));
    if (!q.exec())
        return fail(QStringLiteral("cannot claim job #%1: %2").arg(jobId).arg(q.lastError().text()));
    return q.numRowsAffected() == 1;
}

Result<bool> Store::claimQueuedJob(qint64 jobId)
{
    QSqlQuery q(m_db);
    q.prepare(QStringLiteral("UPDATE jobs SET state = ?, pid = 0 WHERE id = ? AND state = ?"));
    q.addBindValue(toString(JobState::Running));
    q.addBindValue(jobId);
    q.addBindValue(toString(JobState::Queued));
    if (!q.exec())
        return fail(QStringLiteral("cannot claim job #%1: %2").arg(jobId).arg(q.lastError().text()));
    return q.numRowsAffected() == 1;
}

VoidResult Store::deleteJob(qint64 jobId)
{
    QSqlQuery q(m_db);
    q.prepare(QStringLiteral("DELETE FROM jobs WHERE id = ?"));
    q.addBindValue(jobId);
    if (!q.exec())
        return fail(QStringLiteral("cannot delete job #%1: %2").arg(jobId).arg(q.lastError().text()));
    return {};
}

} // namespace TrainDesk
