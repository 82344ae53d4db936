// Store: shares (the records; the files stay where they are).
#include "Store.h"

#include "Names.h"
#include "StoreRows.h"

namespace TrainDesk {

using namespace StoreRows;

Result<Share> Store::createShare(const Share &share)
{
    if (auto valid = validateName(QStringLiteral("share"), share.name); !valid)
        return valid.failure();
    if (this->share(share.workspaceId, share.name))
        return fail(QStringLiteral("share '%1' already exists").arg(share.name));
    QSqlQuery q(m_db);
    q.prepare(QStringLiteral("INSERT INTO shares(workspace_id, name, kind, path, cluster_id, created) VALUES(?, ?, ?, ?, ?, ?)"));
    q.addBindValue(share.workspaceId);
    q.addBindValue(share.name);
    q.addBindValue(toString(share.kind));
    q.addBindValue(text(share.path));
    q.addBindValue(share.clusterId);
    q.addBindValue(timeText(QDateTime::currentDateTimeUtc()));
    if (!q.exec())
        return fail(uniqueViolation(q) ? QStringLiteral("share '%1' already exists").arg(share.name)
                                       : QStringLiteral("cannot create share '%1': %2").arg(share.name, q.lastError().text()));
    return this->share(share.workspaceId, share.name);
}

Result<Share> Store::share(qint64 workspaceId, const QString &name) const
{
    return selectOne<Share>(m_db, QStringLiteral("SELECT * FROM shares WHERE workspace_id = ? AND name = ?"),
                            {workspaceId, name}, shareFrom, QStringLiteral("share '%1' not found").arg(name));
}

QList<Share> Store::shares(qint64 workspaceId) const
{
    return selectAll<Share>(m_db, QStringLiteral("SELECT * FROM shares WHERE workspace_id = ? ORDER BY name"),
                            {workspaceId}, shareFrom);
}

VoidResult Store::deleteShare(qint64 shareId)
{
    QSqlQuery q(m_db);
    q.prepare(QStringLiteral("DELETE FROM shares WHERE id = ?"));
    q.addBindValue(shareId);
    if (!q.exec())
        return fail(QStringLiteral("cannot delete share #%1: %2").arg(shareId).arg(q.lastError().text()));
    if (q.numRowsAffected() == 0)
        return fail(QStringLiteral("share #%1 not found").arg(shareId));
    return {};
}

// --- jobs ---

} // namespace TrainDesk
