#pragma once

#include <QDateTime>
#include <QJsonArray>
#include <QString>
#include <QStringList>

#include <optional>

namespace TrainDesk {

// Plain records as the Store keeps them. Names follow Batch AI: ^[-\w_]+$, 1-64 chars.

struct Workspace
{
    qint64 id = 0;
    QString name;
    QDateTime created;
};

struct Experiment
{
    qint64 id = 0;
    qint64 workspaceId = 0;
    QString name;
    QDateTime created;
};

enum class ClusterKind { Local, Ssh, Slurm };
QString toString(ClusterKind kind);
std::optional<ClusterKind> clusterKindFromString(const QString &text);

// A Slurm cluster: the login node TrainDesk reaches ("local": TrainDesk runs on it, else
// user@host[:port] over SSH) and the defaults of its sbatch options.
struct SlurmSettings
{
    QString login;
    QString partition;
    QString account;
    QString qos;
    int gpusPerNode = 0;

    QByteArray toJson() const;
    static SlurmSettings fromJson(const QByteArray &json);
    bool loginIsLocal() const { return login == QLatin1String("local"); }
};

struct Cluster
{
    qint64 id = 0;
    qint64 workspaceId = 0;
    QString name;
    ClusterKind kind = ClusterKind::Local;
    int targetNodeCount = 0;
    QString mountRoot;  // where shares appear on the nodes ($AZ_BATCHAI_MOUNT_ROOT)
    QString setupTask;  // command run on every node when it joins
    QDateTime created;
    // SSH clusters: the private key (empty: ssh-agent or password) and the password and
    // key passphrase, encrypted with the data directory's key (cluster/SecretBox).
    QString sshKeyFile;
    QString sshSecret;
    SlurmSettings slurm;  // Slurm clusters only
    // How long a node of a running job may be out of reach before the job fails with
    // NodeUnreachable (a shorter drop changes nothing).
    int nodeLostGraceSeconds = 120;
};

enum class NodeState { Idle, Preparing, Running, Leaving, Unusable };
QString toString(NodeState state);
std::optional<NodeState> nodeStateFromString(const QString &text);

struct Node
{
    qint64 id = 0;
    qint64 clusterId = 0;
    int index = 0;        // 0 is the head node (rank 0)
    QString name;
    QString host;
    int port = 22;
    QString user;
    int slotCount = 1;        // MPI slots: the node's cores
    int gpuCount = 0;         // GPUs nvidia-smi listed at the last probe (indices 0..gpuCount-1)
    NodeState state = NodeState::Idle;
    QString stateReason;  // why a node is unusable
    QDateTime lastSeen;
    // Above the cluster's target and drained: kept for a later resize, but out of the
    // cluster (Store::nodes leaves it out, as the service deallocated such nodes).
    bool parked = false;
    QString facts;        // JSON of the last probe: OS, cores, memory, GPUs, ...
};

enum class ShareKind { Local, ClusterPath, Replicated };
QString toString(ShareKind kind);
std::optional<ShareKind> shareKindFromString(const QString &text);

struct Share
{
    qint64 id = 0;
    qint64 workspaceId = 0;
    QString name;
    ShareKind kind = ShareKind::Local;
    QString path;         // on this machine (local) or on the nodes (cluster, replicated)
    qint64 clusterId = 0;  // cluster and replicated shares: the cluster whose nodes hold it
    QDateTime created;
};

// Batch AI's execution states, plus Draft: a job saved but not yet submitted
// (the embedded demo job starts as one).
enum class JobState { Draft, Queued, Running, Terminating, Succeeded, Failed };
QString toString(JobState state);
std::optional<JobState> jobStateFromString(const QString &text);
inline bool isFinished(JobState s) { return s == JobState::Succeeded || s == JobState::Failed; }
inline bool isActive(JobState s) { return s == JobState::Running || s == JobState::Terminating; }

struct JobError
{
    QString code;
    QString message;
    QStringList details;
};

// What a job packed onto a node holds there (jobs/ResourcePlacement): core and GPU indices
// (the n-th core the node lets TrainDesk use, nvidia-smi's GPU index).
struct NodeGrant
{
    QString node;
    QList<int> cores;
    QList<int> gpus;
    bool operator==(const NodeGrant &) const = default;
};

struct Job
{
    qint64 id = 0;
    qint64 experimentId = 0;
    qint64 clusterId = 0;
    QString name;
    QByteArray spec;          // the job.json as given (secrets removed before storing)
    JobState state = JobState::Queued;
    int priority = 0;         // higher runs first
    QDateTime created;
    QDateTime started;
    QDateTime ended;
    std::optional<int> exitCode;
    QList<JobError> errors;
    QStringList nodes;        // node names, head node first
    QStringList rankNodes;    // the node of each MPI rank (index = rank), from the launch plan
    // A packed job's cores and GPUs; empty: it holds its nodes whole.
    QList<NodeGrant> placement;
    QString uuid;
    QString jobDir;           // remote job directory on the head node
    qint64 pid = 0;           // launch process (and process group) on the head node
    // Jobs handed to a scheduler (Slurm): its job id ("" until submitted) and its last word
    // on the job, e.g. "PENDING (Resources)".
    QString schedulerId;
    QString schedulerState;
};

// A job's node whose stray processes are to be ended (StrayProcessCleanup) once it can be
// reached.
struct PendingCleanup
{
    qint64 clusterId = 0;
    QString node;
    QString jobUuid;
};

} // namespace TrainDesk
