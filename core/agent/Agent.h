#pragma once

#include "common/Result.h"
#include "store/Entities.h"

#include <QDateTime>
#include <QElapsedTimer>
#include <QHash>
#include <QJsonObject>
#include <QLocalServer>
#include <QObject>
#include <QSet>
#include <QTimer>

#include <memory>

class QLocalSocket;
class QLockFile;

namespace TrainDesk {

class JobOutput;
class JobRunner;
class NodeSampling;
class SpaceReserve;
class Store;
class SweepScheduler;

struct AgentOptions
{
    QString dataDirectory;
    bool service = false;       // run until stopped (the systemd unit), never idle out
    int idleExitSeconds = 60;   // otherwise: exit after this long with nothing to do
    int tickMs = 500;           // how often running jobs are looked at
    // A job's first seconds are looked at more often, so its first records show up quickly
    // (submit to first record is what a user waits for); later looks keep to tickMs.
    int startTickMs = 100;
    int startSeconds = 10;
};

// The one control plane of a data directory: the only process that starts, watches and
// ends jobs. It holds the data directory's agent lock, so there is never a second one; it
// schedules queued jobs, follows every running job (state, metrics at saved offsets,
// terminate and the wall clock) whether or not anyone looks, and tells connected clients
// what changed. Clients (CLI, GUI) store and queue jobs and ask it over AgentChannel.
class Agent : public QObject
{
    Q_OBJECT

public:
    explicit Agent(AgentOptions options);
    ~Agent() override;

    // Takes the lock and opens the socket; fails when another agent holds the directory.
    VoidResult start();

Q_SIGNALS:
    void finished();  // idle for long enough, asked to stop, or the data directory is gone

private:
    void tick();
    // Reads the new records of the jobs in m_ingestOnce and m_ingestWaiting.
    void ingest();
    // A job whose records could not be stored: kept to read again (after a restart too, by
    // its DiskFull error when the disk is full).
    void noteWaiting(qint64 jobId, bool diskFull);
    void clearWaiting(qint64 jobId);
    void wakeSoon();
    void acceptClients();
    void handle(QLocalSocket *socket, const QJsonObject &request);
    QJsonObject status() const;
    void push(const QSet<qint64> &changedJobs);
    QSet<qint64> changedJobs(const QList<Job> &watched);  // watched: as this tick read them
    bool dataDirectoryGone() const;
    bool idle() const;
    void stop(const QString &why);

    AgentOptions m_options;
    std::unique_ptr<QLockFile> m_lock;
    std::unique_ptr<Store> m_store;
    std::unique_ptr<JobRunner> m_runner;
    std::unique_ptr<JobOutput> m_output;
    std::unique_ptr<SweepScheduler> m_sweeps;   // hyperparameter sweeps: submits their trials
    std::unique_ptr<NodeSampling> m_sampling;  // CPU, memory, GPUs, network of running jobs' nodes
    QLocalServer m_server;
    QTimer m_timer;
    QSet<QLocalSocket *> m_clients;
    QSet<QLocalSocket *> m_subscribers;
    QDateTime m_since;
    QDateTime m_lastTick;
    QString m_activity = QStringLiteral("starting");
    QElapsedTimer m_quiet;           // since there was last something to do
    QHash<qint64, QString> m_seen;   // job id -> state and metric count last pushed
    QSet<qint64> m_ingestOnce;       // jobs whose files are read once more (just ended)
    int m_activeSweeps = 0;
    QSet<qint64> m_ingestWaiting;    // ended jobs whose last records could not be stored yet
    std::unique_ptr<SpaceReserve> m_reserve;  // on the data directory's disk
    bool m_diskFull = false;         // a store write failed for lack of space; reading waits
    bool m_ticking = false;
    bool m_stopping = false;
};

} // namespace TrainDesk
