#pragma once

#include "datasets/DataSetPresence.h"
#include "store/Entities.h"
#include "transport/TransferOptions.h"

#include <QHash>
#include <QObject>
#include <QThreadPool>

#include <memory>

namespace TrainDesk {

// The GUI's data set work, off its thread: what a share holds of each data set, and fetches
// into a share (core/datasets, the same code as `traindesk data fetch`: Qt Network with
// resume, checksums, the manifest). Each task runs in this object's pool with a Store
// connection of its own; results come back as signals in the thread this object lives in.
// The addresses and checksums are those of DataSetMirror::fromEnvironment, as in the CLI.
class DataSetWorker : public QObject
{
    Q_OBJECT

public:
    explicit DataSetWorker(const QString &databasePath, QObject *parent = nullptr);
    // Cancels what runs and waits for it: no signal comes after.
    ~DataSetWorker() override;

    // Every catalogue data set in the folder of its name in `share`: statesRead.
    int readStates(const Share &share);
    // Fetches data set `name` into the folder of its name in `share`; `from`: files the user
    // downloaded by hand. fetchProgress and fetchLog while it runs, then fetchFinished.
    int fetch(const Share &share, const QString &name, const QStringList &from = {});
    void cancel(int requestId);
    bool busy() const { return !m_cancels.isEmpty(); }

Q_SIGNALS:
    void statesRead(int requestId, const QList<TrainDesk::DataSetPresence> &states, const QString &error);
    void fetchProgress(int requestId, qint64 done, qint64 total, const QString &what);
    void fetchLog(int requestId, const QString &line);
    // `unreachable`: the publisher's address could not be downloaded from (offline, refused):
    // the user can place the files by hand. `changed`: something was placed.
    void fetchFinished(int requestId, const QString &error, bool unreachable, bool changed);

private:
    QString m_databasePath;
    int m_nextId = 1;
    QHash<int, std::shared_ptr<CancelFlag>> m_cancels;
    QThreadPool m_pool;
};

} // namespace TrainDesk
