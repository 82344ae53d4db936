// Store: runs imported from TensorBoard folders (store/ImportedRuns.h).
#include "Store.h"

#include "StoreRows.h"

namespace TrainDesk {

using namespace StoreRows;

namespace {

ImportedRun importedRunFrom(const QSqlQuery &q)
{
    ImportedRun r;
    r.jobId = q.value("job_id").toLongLong();
    r.name = q.value("run").toString();
    r.root = q.value("root").toByteArray();
    r.folder = q.value("folder").toByteArray();
    r.summary = q.value("summary").toString().toUtf8();
    return r;
}

} // namespace

Result<Job> Store::createImportedRun(const Job &job, const ImportedRun &run)
{
    Transaction tx(m_db);
    if (!tx.active())
        return fail(QStringLiteral("cannot store run '%1': %2").arg(run.name, tx.error()));
    // A run is named by its path under the folder (TensorBoard's name), which Batch AI's
    // name rule would refuse ("lr_0.1/seed1"); it is still unique in its experiment.
    if (this->job(job.experimentId, job.name))
        return fail(QStringLiteral("run '%1': a job of that name already exists in this experiment").arg(job.name));
    QSqlQuery q(m_db);
    q.prepare(QStringLiteral("INSERT INTO jobs(experiment_id, cluster_id, name, spec, state, priority, created, uuid, "
                             "job_dir, started, ended, nodes) VALUES(?, ?, ?, ?, ?, 0, ?, ?, ?, ?, ?, ?)"));
    q.addBindValue(job.experimentId);
    q.addBindValue(job.clusterId);
    q.addBindValue(job.name);
    q.addBindValue(job.spec);
    q.addBindValue(toString(job.state));
    q.addBindValue(timeText(job.created.isValid() ? job.created : QDateTime::currentDateTimeUtc()));
    q.addBindValue(text(job.uuid));
    q.addBindValue(text(job.jobDir));
    q.addBindValue(timeValue(job.started));
    q.addBindValue(timeValue(job.ended));
    // A run of a node's folder names that node: its files are read there (metrics/EventFiles).
    q.addBindValue(stringsToJson(job.nodes));
    if (!q.exec())
        return fail(uniqueViolation(q) ? QStringLiteral("run '%1': a job of that name already exists in this experiment").arg(job.name)
                                       : QStringLiteral("cannot store run '%1': %2").arg(job.name, q.lastError().text()));
    const qint64 id = q.lastInsertId().toLongLong();
    QSqlQuery r(m_db);
    r.prepare(QStringLiteral("INSERT INTO imported_runs(job_id, root, folder, run, summary) VALUES(?, ?, ?, ?, ?)"));
    r.addBindValue(id);
    r.addBindValue(run.root);
    r.addBindValue(run.folder);
    r.addBindValue(run.name);
    r.addBindValue(QString::fromUtf8(run.summary.isEmpty() ? QByteArray("{}") : run.summary));
    if (!r.exec())
        return fail(QStringLiteral("cannot store run '%1': %2").arg(run.name, r.lastError().text()));
    if (!tx.commit())
        return fail(QStringLiteral("cannot store run '%1': %2").arg(run.name, tx.error()));
    return jobById(id);
}

std::optional<ImportedRun> Store::importedRun(qint64 jobId) const
{
    const auto runs = selectAll<ImportedRun>(m_db, QStringLiteral("SELECT * FROM imported_runs WHERE job_id = ?"), {jobId},
                                             importedRunFrom);
    if (runs.isEmpty())
        return std::nullopt;
    return runs.first();
}

QList<ImportedRun> Store::importedRuns(qint64 experimentId) const
{
    return selectAll<ImportedRun>(m_db,
                                  QStringLiteral("SELECT imported_runs.* FROM imported_runs JOIN jobs ON jobs.id = job_id "
                                                 "WHERE jobs.experiment_id = ? ORDER BY jobs.id"),
                                  {experimentId}, importedRunFrom);
}

QList<ImportedFile> Store::importedFiles(qint64 jobId) const
{
    return selectAll<ImportedFile>(m_db, QStringLiteral("SELECT * FROM imported_files WHERE job_id = ? ORDER BY name"),
                                   {jobId}, [](const QSqlQuery &q) {
        ImportedFile f;
        f.name = q.value("name").toByteArray();
        f.offset = q.value("offset").toLongLong();
        f.points = q.value("points").toLongLong();
        f.error = q.value("error").toString();
        return f;
    });
}

VoidResult Store::saveImportedReads(const QList<ImportedRead> &reads)
{
    if (reads.isEmpty())
        return {};
    Transaction tx(m_db);
    if (!tx.active())
        return fail(QStringLiteral("cannot store the runs' read offsets: %1").arg(tx.error()));
    QSqlQuery file(m_db);
    file.prepare(QStringLiteral("INSERT INTO imported_files(job_id, name, offset, points, error) VALUES(?, ?, ?, ?, ?) "
                                "ON CONFLICT(job_id, name) DO UPDATE SET offset = excluded.offset, "
                                "points = excluded.points, error = excluded.error"));
    QSqlQuery run(m_db);
    run.prepare(QStringLiteral("UPDATE imported_runs SET summary = ? WHERE job_id = ?"));
    QSqlQuery times(m_db);
    times.prepare(QStringLiteral("UPDATE jobs SET started = COALESCE(started, ?), ended = ? WHERE id = ?"));
    for (const ImportedRead &read : reads) {
        for (const ImportedFile &f : read.files) {
            file.addBindValue(read.jobId);
            file.addBindValue(f.name);
            file.addBindValue(f.offset);
            file.addBindValue(f.points);
            file.addBindValue(text(f.error));
            if (!file.exec())
                return fail(QStringLiteral("cannot store the read offsets of run #%1: %2").arg(read.jobId).arg(file.lastError().text()));
        }
        run.addBindValue(QString::fromUtf8(read.summary));
        run.addBindValue(read.jobId);
        if (!run.exec())
            return fail(QStringLiteral("cannot store the summary of run #%1: %2").arg(read.jobId).arg(run.lastError().text()));
        if (read.ended.isValid()) {
            times.addBindValue(timeValue(read.started));
            times.addBindValue(timeValue(read.ended));
            times.addBindValue(read.jobId);
            if (!times.exec())
                return fail(QStringLiteral("cannot store the times of run #%1: %2").arg(read.jobId).arg(times.lastError().text()));
        }
    }
    if (!tx.commit())
        return fail(QStringLiteral("cannot store the runs' read offsets: %1").arg(tx.error()));
    return {};
}

std::optional<std::pair<qint64, QByteArray>> Store::runSummary(qint64 jobId) const
{
    QSqlQuery q(m_db);
    q.prepare(QStringLiteral("SELECT last_id, summary FROM run_summaries WHERE job_id = ?"));
    q.addBindValue(jobId);
    if (!q.exec() || !q.next())
        return std::nullopt;
    return std::make_pair(q.value(0).toLongLong(), q.value(1).toString().toUtf8());
}

VoidResult Store::saveRunSummary(qint64 jobId, qint64 lastId, const QByteArray &summary)
{
    QSqlQuery q(m_db);
    // Only forward: of two readers, the one that counted more rows wins.
    q.prepare(QStringLiteral("INSERT INTO run_summaries(job_id, last_id, summary) SELECT ?, ?, ? "
                             "WHERE EXISTS(SELECT 1 FROM jobs WHERE id = ?) "
                             "ON CONFLICT(job_id) DO UPDATE SET last_id = excluded.last_id, summary = excluded.summary "
                             "WHERE excluded.last_id > run_summaries.last_id"));
    q.addBindValue(jobId);
    q.addBindValue(lastId);
    q.addBindValue(QString::fromUtf8(summary));
    q.addBindValue(jobId);
    if (!q.exec())
        return fail(QStringLiteral("cannot store the summary of job #%1: %2").arg(jobId).arg(q.lastError().text()));
    return {};
}

} // namespace TrainDesk
