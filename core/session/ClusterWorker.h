#pragma once

#include "cluster/ClusterService.h"

#include <QObject>
#include <QSet>
#include <QThread>

#include <memory>

namespace TrainDesk {

// The GUI's handle on ClusterService: every call runs on a thread of its own (SSH blocks)
// with a Store of that thread, and answers with queued signals. One call at a time: a
// second one waits for the first. Host key questions of the connection test reach the GUI
// as hostKeyQuestion(); the worker waits for answerHostKey() (or cancel()).
class ClusterWorker : public QObject
{
    Q_OBJECT

public:
    explicit ClusterWorker(const QString &databasePath, QObject *parent = nullptr);
    ~ClusterWorker() override;

    // Each returns a request id that the answering signals carry.
    int testNodes(const CreateClusterRequest &request);
    // A Slurm request's partitions, from sinfo on its login node (host keys asked as in the test).
    int slurmPartitions(const CreateClusterRequest &request);
    // Host keys the user accepted in the connection test (type + fingerprint, per
    // host:port) are trusted without asking again; others are refused.
    int createCluster(const CreateClusterRequest &request, const QSet<QString> &acceptedHostKeys);
    int resize(const QString &workspace, const QString &cluster, int targetNodeCount);
    int probe(const QString &workspace, const QString &cluster);
    int remove(const QString &workspace, const QString &cluster);
    // The cluster's setup task again, on the named nodes (every node when none is named).
    int runSetup(const QString &workspace, const QString &cluster, const QStringList &nodes = {});

    void answerHostKey(int questionId, bool accept);
    // Stops a running test, probe or setup task (over SSH; a local task runs to its end);
    // open host key questions are refused.
    void cancel();
    bool isBusy() const { return m_running > 0; }

    static QString hostKeyId(const HostKeyQuestion &q);

Q_SIGNALS:
    void message(int requestId, const QString &line);
    void checkArrived(int requestId, const TrainDesk::ProbeCheck &check);
    void hostKeyQuestion(int requestId, int questionId, const TrainDesk::HostKeyQuestion &question);
    // testNodes and probe: whether every check passed (false when cancelled).
    void testFinished(int requestId, bool allPassed, const QString &error);
    // createCluster, resize, remove, runSetup: the cluster id (0 after remove) or the
    // error; for runSetup also the nodes whose setup task failed, with why.
    void finished(int requestId, qint64 clusterId, const QString &error);
    void busyChanged(bool busy);
    // slurmPartitions: the partition names (Slurm's default first), or the error.
    void slurmPartitionsListed(int requestId, const QStringList &partitions, const QString &error);

private:
    struct Shared;
    int start(const std::function<void(int)> &work);
    ClusterEvents events(int requestId);
    // Asks the GUI about a new host key and blocks this thread until it answers.
    std::function<bool(const HostKeyQuestion &)> hostKeyConfirmer(int requestId);
    void post(const std::function<void()> &toGui);

    QString m_databasePath;
    QThread m_thread;
    QObject *m_context;  // lives in m_thread: queued work runs there
    std::shared_ptr<Shared> m_shared;
    int m_nextRequest = 0;
    int m_running = 0;
};

} // namespace TrainDesk
