#pragma once
// The runs view's tags, notes and colours (store/RunNotes), read and written on a thread of
// their own, one request at a time in the order asked: an edit is never overtaken by a read
// that started after it. Answers come back as futures the view continues on its own thread.
#include "common/Result.h"
#include "store/RunNote.h"

#include <QFuture>
#include <QHash>
#include <QList>
#include <QObject>
#include <QString>

class QThreadPool;

namespace TrainDesk {

class RunNotesAccess : public QObject
{
    Q_OBJECT

public:
    explicit RunNotesAccess(const QString &databasePath, QObject *parent = nullptr);

    QFuture<QHash<qint64, RunNote>> read(const QList<qint64> &jobIds);
    // The colours chosen for any run, by job id.
    QFuture<QHash<qint64, QString>> readColors();
    // An empty note removes the run's row.
    QFuture<VoidResult> write(qint64 jobId, const RunNote &note);

private:
    QString m_databasePath;
    QThreadPool *m_pool;
};

} // namespace TrainDesk
