// Store: workspaces and their experiments.
#include "Store.h"

#include "Names.h"
#include "StoreRows.h"

namespace TrainDesk {

using namespace StoreRows;

Result<Workspace> Store::createWorkspace(const QString &name)
{
    if (auto valid = validateName(QStringLiteral("workspace"), name); !valid)
        return valid.failure();
    if (workspace(name))
        return fail(QStringLiteral("workspace '%1' already exists").arg(name));
    QSqlQuery q(m_db);
    q.prepare(QStringLiteral("INSERT INTO workspaces(name, created) VALUES(?, ?)"));
    q.addBindValue(name);
    q.addBindValue(timeText(QDateTime::currentDateTimeUtc()));
    if (!q.exec())
        return fail(uniqueViolation(q) ? QStringLiteral("workspace '%1' already exists").arg(name)
                                       : QStringLiteral("cannot create workspace '%1': %2").arg(name, q.lastError().text()));
    return workspace(name);
}

Result<Workspace> Store::workspace(const QString &name) const
{
    return selectOne<Workspace>(m_db, QStringLiteral("SELECT * FROM workspaces WHERE name = ?"), {name},
                                workspaceFrom, QStringLiteral("workspace '%1' not found").arg(name));
}

Result<Workspace> Store::workspaceById(qint64 id) const
{
    return selectOne<Workspace>(m_db, QStringLiteral("SELECT * FROM workspaces WHERE id = ?"), {id},
                                workspaceFrom, QStringLiteral("workspace #%1 not found").arg(id));
}

QList<Workspace> Store::workspaces() const
{
    return selectAll<Workspace>(m_db, QStringLiteral("SELECT * FROM workspaces ORDER BY name"), {}, workspaceFrom);
}

VoidResult Store::deleteWorkspace(const QString &name)
{
    const auto ws = workspace(name);
    if (!ws)
        return ws.failure();
    QSqlQuery q(m_db);
    q.prepare(QStringLiteral("SELECT COUNT(*) FROM jobs j JOIN experiments e ON j.experiment_id = e.id "
                             "WHERE e.workspace_id = ? AND j.state IN ('queued','running','terminating')"));
    q.addBindValue(ws->id);
    if (q.exec() && q.next() && q.value(0).toInt() > 0)
        return fail(QStringLiteral("workspace '%1' has active jobs; terminate them first").arg(name));
    q.prepare(QStringLiteral("DELETE FROM workspaces WHERE id = ?"));
    q.addBindValue(ws->id);
    if (!q.exec())
        return fail(QStringLiteral("cannot delete workspace '%1': %2").arg(name, q.lastError().text()));
    return {};
}

Result<Experiment> Store::createExperiment(qint64 workspaceId, const QString &name)
{
    if (auto valid = validateName(QStringLiteral("experiment"), name); !valid)
        return valid.failure();
    if (experiment(workspaceId, name))
        return fail(QStringLiteral("experiment '%1' already exists").arg(name));
    QSqlQuery q(m_db);
    q.prepare(QStringLiteral("INSERT INTO experiments(workspace_id, name, created) VALUES(?, ?, ?)"));
    q.addBindValue(workspaceId);
    q.addBindValue(name);
    q.addBindValue(timeText(QDateTime::currentDateTimeUtc()));
    if (!q.exec())
        return fail(uniqueViolation(q) ? QStringLiteral("experiment '%1' already exists").arg(name)
                                       : QStringLiteral("cannot create experiment '%1': %2").arg(name, q.lastError().text()));
    return experiment(workspaceId, name);
}

Result<Experiment> Store::experiment(qint64 workspaceId, const QString &name) const
{
    return selectOne<Experiment>(m_db, QStringLiteral("SELECT * FROM experiments WHERE workspace_id = ? AND name = ?"),
                                 {workspaceId, name}, experimentFrom,
                                 QStringLiteral("experiment '%1' not found").arg(name));
}

Result<Experiment> Store::experimentById(qint64 id) const
{
    return selectOne<Experiment>(m_db, QStringLiteral("SELECT * FROM experiments WHERE id = ?"), {id},
                                 experimentFrom, QStringLiteral("experiment #%1 not found").arg(id));
}

QList<Experiment> Store::experiments(qint64 workspaceId) const
{
    return selectAll<Experiment>(m_db, QStringLiteral("SELECT * FROM experiments WHERE workspace_id = ? ORDER BY name"),
                                 {workspaceId}, experimentFrom);
}

// --- clusters ---

} // namespace TrainDesk
