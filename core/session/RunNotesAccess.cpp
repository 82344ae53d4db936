#include "RunNotesAccess.h"

#include "store/RunNotes.h"

#include <QThreadPool>
#include <QtConcurrent/QtConcurrentRun>

namespace TrainDesk {

RunNotesAccess::RunNotesAccess(const QString &databasePath, QObject *parent)
    : QObject(parent), m_databasePath(databasePath), m_pool(new QThreadPool(this))
{
    m_pool->setMaxThreadCount(1);  // in the order asked
}

QFuture<QHash<qint64, RunNote>> RunNotesAccess::read(const QList<qint64> &jobIds)
{
    return QtConcurrent::run(m_pool, [path = m_databasePath, jobIds] { return RunNotes::read(path, jobIds); });
}

QFuture<QHash<qint64, QString>> RunNotesAccess::readColors()
{
    return QtConcurrent::run(m_pool, [path = m_databasePath] { return RunNotes::readColors(path); });
}

QFuture<VoidResult> RunNotesAccess::write(qint64 jobId, const RunNote &note)
{
    return QtConcurrent::run(m_pool, [path = m_databasePath, jobId, note] { return RunNotes::write(path, jobId, note); });
}

} // namespace TrainDesk
