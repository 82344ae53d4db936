#include "JobMonitor.h"

#include "agent/AgentClient.h"
#include "agent/AgentSubscription.h"
#include "shares/ShareUpload.h"
#include "common/AtomicReplace.h"
#include "common/ErrnoText.h"
#include "jobs/JobFiles.h"
#include "jobs/JobSubmission.h"
#include "metrics/MetricRows.h"
#include "store/Store.h"
#include "cluster/TransportFactory.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTimer>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>

#ifdef Q_OS_LINUX
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

namespace TrainDesk {

JobMonitor::JobMonitor(const QString &databasePath, int pollIntervalMs)
    : m_databasePath(databasePath), m_pollIntervalMs(pollIntervalMs)
{
    qRegisterMetaType<TrainDesk::ResourceSnapshot>();
    qRegisterMetaType<TrainDesk::MetricRecord>();
    qRegisterMetaType<QList<TrainDesk::MetricRecord>>();
    qRegisterMetaType<TrainDesk::SystemSample>();
    qRegisterMetaType<QList<TrainDesk::SystemSample>>();
    qRegisterMetaType<TrainDesk::JobFile>();
    qRegisterMetaType<QList<TrainDesk::JobFile>>();
    qRegisterMetaType<TrainDesk::RunSummaries>();
    m_pool.setMaxThreadCount(2);
}

JobMonitor::~JobMonitor()
{
    for (const auto &cancel : std::as_const(m_downloads))
        cancel->store(true);
    m_pool.waitForDone();
}

void JobMonitor::start()
{
#ifdef Q_OS_LINUX
    // A busy job (10,000 metric records a second) keeps this thread parsing and writing;
    // on a small machine that should not cost the GUI thread its turn. Linux sets nice
    // values per thread; QThread priorities do nothing there for normal threads.
    setpriority(PRIO_PROCESS, pid_t(syscall(SYS_gettid)), workerNiceness);
#endif
    m_store = std::make_unique<Store>();
    if (auto opened = m_store->open(m_databasePath); !opened) {
        Q_EMIT operationFailed(opened.error());
        return;
    }
    m_submission = std::make_unique<JobSubmission>(*m_store);
    m_sweeps = std::make_unique<SweepStore>(*m_store);
    m_files = std::make_unique<JobFiles>(*m_store);
    m_summaries = std::make_unique<RunSummaryReader>(*m_store);
    m_agent = std::make_unique<AgentClient>(QFileInfo(m_databasePath).absolutePath());
    m_subscription = new AgentSubscription(QFileInfo(m_databasePath).absolutePath(), this);
    connect(m_subscription, &AgentSubscription::jobsChanged, this, &JobMonitor::jobsChanged);
    m_timer = new QTimer(this);
    m_timer->setInterval(m_pollIntervalMs);
    connect(m_timer, &QTimer::timeout, this, &JobMonitor::poll);
    m_timer->start();
    publishSnapshot(true);
    poll();
    refreshShareFolders();
}

void JobMonitor::poll()
{
    if (!m_submission)
        return;
    keepAgentWatching();
    pollFollows();
    // Jobs' states and metrics come with the agent's pushes; this catches the rest.
    if (++m_pollsSinceSnapshot >= snapshotEveryPolls)
        publishSnapshot(false);
}

void JobMonitor::jobsChanged(const QList<qint64> &jobIds)
{
    for (qint64 id : jobIds) {
        if (m_watched.contains(id)) {
            publishMetrics(id, false);
            publishSystemSamples(id, false);
        }
    }
    publishSnapshot(false);
}

void JobMonitor::keepAgentWatching(bool wake)
{
    // The agent starts, watches and stores; this side only reads the store. Jobs that wait
    // for an agent get one (the first poll after a reboot, or after the agent was killed).
    // (An active sweep needs the agent too: it submits the sweep's trials.)
    if (!wake && m_store->jobsInStates({JobState::Queued, JobState::Running, JobState::Terminating}).isEmpty()
        && (!m_sweeps || m_sweeps->activeSweeps().isEmpty()))
        return;
    QString problem;
    if (!m_agent->isConnected()) {
        if (auto connected = m_agent->connectOrStart(5000); !connected)
            problem = connected.error();
    }
    if (problem.isEmpty() && !m_subscription->isSubscribed()) {
        if (auto subscribed = m_subscription->subscribe(); !subscribed)
            problem = subscribed.error();
        else
            jobsChanged(m_watched.keys());  // what moved while nobody listened
    }
    if (problem.isEmpty() && wake) {
        if (auto woken = m_agent->request({{"op", "wake"}}, 5000); !woken)
            problem = woken.error();
    }
    // Said once, not every poll.
    if (!problem.isEmpty() && problem != m_agentProblem)
        Q_EMIT operationFailed(problem);
    m_agentProblem = problem;
}

void JobMonitor::watchJob(qint64 jobId)
{
    if (!m_store)
        return;
    m_watched.insert(jobId, 0);
    publishMetrics(jobId, true);
    publishSystemSamples(jobId, true);
}

void JobMonitor::unwatchJob(qint64 jobId)
{
    m_watched.remove(jobId);
    m_watchedSamples.remove(jobId);
}

void JobMonitor::queueJob(qint64 jobId)
{
    if (!m_submission)
        return;
    if (auto queued = m_submission->queue(jobId); !queued)
        Q_EMIT operationFailed(queued.error());
    else
        keepAgentWatching(true);
    publishSnapshot(false);
}

void JobMonitor::terminateJob(qint64 jobId)
{
    if (!m_submission)
        return;
    keepAgentWatching(true);
    if (auto asked = m_agent->request({{"op", "terminate"}, {"job", jobId}}); !asked)
        Q_EMIT operationFailed(asked.error());
    publishSnapshot(false);
}

void JobMonitor::forgetJob(qint64 jobId)
{
    unwatchJob(jobId);
    if (m_summaries)
        m_summaries->forget(jobId);
}

void JobMonitor::readRunSummaries(int requestId, const QList<qint64> &jobIds)
{
    if (m_summaries)
        Q_EMIT runSummariesRead(requestId, m_summaries->read(jobIds));
}

void JobMonitor::publishMetrics(qint64 jobId, bool reset)
{
    qint64 lastId = reset ? 0 : m_watched.value(jobId);
    const QList<MetricRecord> records = MetricRows::newRecords(*m_store, jobId, &lastId);
    m_watched[jobId] = lastId;
    if (reset || !records.isEmpty())
        Q_EMIT metricsArrived(jobId, records, reset);
}

void JobMonitor::publishSystemSamples(qint64 jobId, bool reset)
{
    QList<SystemSample> samples;
    qint64 lastId = reset ? 0 : m_watchedSamples.value(jobId);
    for (const auto &[id, json] : m_store->systemSamples(jobId, lastId)) {
        lastId = id;
        if (const auto sample = SystemSample::fromJson(json))
            samples.append(*sample);
    }
    m_watchedSamples[jobId] = lastId;
    if (reset || !samples.isEmpty())
        Q_EMIT systemSamplesArrived(jobId, samples, reset);
}

void JobMonitor::publishSnapshot(bool force)
{
    m_pollsSinceSnapshot = 0;
    ResourceSnapshot snapshot;
    for (const Workspace &ws : m_store->workspaces()) {
        ResourceSnapshot::WorkspaceEntry entry;
        entry.workspace = ws;
        for (const Experiment &exp : m_store->experiments(ws.id)) {
            ResourceSnapshot::ExperimentEntry e{exp, m_store->jobs(exp.id), {}};
            if (m_sweeps) {
                for (const Sweep &sweep : m_sweeps->sweeps(exp.id)) {
                    auto &metric = m_sweepMetrics[sweep.id];
                    if (!metric)
                        metric = std::make_shared<TrialMetric>(sweep.metric);
                    e.sweeps.append(SweepSummary::read(*m_store, *m_sweeps, sweep, metric.get()));
                }
            }
            entry.experiments.append(e);
            for (const ImportedRun &run : m_store->importedRuns(exp.id))
                snapshot.importedRuns.insert(run.jobId);
        }
        for (const Cluster &c : m_store->clusters(ws.id))
            entry.clusters.append({c, m_store->nodes(c.id)});
        entry.shares = m_store->shares(ws.id);
        for (const Share &share : std::as_const(entry.shares)) {
            const QStringList folders = share.kind == ShareKind::Local ? ShareUpload::folders(share)
                                                                       : m_remoteFolders.value(share.id);
            if (!folders.isEmpty())
                snapshot.shareFolders.insert(share.id, folders);
        }
        snapshot.workspaces.append(entry);
    }
    snapshot.reliability = ResourceSnapshot::readReliability(*m_store);
    const QByteArray signature = snapshot.signature();
    if (!force && signature == m_lastSignature)
        return;
    m_lastSignature = signature;
    Q_EMIT snapshotChanged(snapshot);
}

} // namespace TrainDesk

namespace TrainDesk {

namespace {

constexpr int maxListedFiles = 5000;
constexpr int maxListDepth = 8;

// Files under `directory`, depth first, with paths relative to it.
void listRecursively(Transport &transport, const QString &root, const QString &relative, const QString &label,
                     int depth, QList<JobFile> &files)
{
    const QString dir = relative.isEmpty() ? root : root + QLatin1Char('/') + relative;
    const auto entries = transport.list(dir);
    if (!entries)
        return;
    for (const RemoteFileInfo &info : *entries) {
        if (files.size() >= maxListedFiles)
            return;
        const QString path = relative.isEmpty() ? info.name : relative + QLatin1Char('/') + info.name;
        if (info.isDirectory) {
            if (depth < maxListDepth)
                listRecursively(transport, root, path, label, depth + 1, files);
            continue;
        }
        files.append({label, path, root + QLatin1Char('/') + path, info.size, info.modified});
    }
}

} // namespace

void JobMonitor::followFile(qint64 jobId, const QString &file, qint64 tailBytes)
{
    if (!m_store || file.contains(QLatin1String("..")))
        return;
    const QPair<qint64, QString> key(jobId, file);
    Follow follow;
    follow.tailBytes = qMax<qint64>(0, tailBytes);
    m_follows.insert(key, follow);
    readFollow(key, m_follows[key]);
}

void JobMonitor::unfollowFile(qint64 jobId, const QString &file)
{
    m_follows.remove({jobId, file});
}

void JobMonitor::pollFollows()
{
    for (auto it = m_follows.begin(); it != m_follows.end(); ++it) {
        if (!it->idle)
            readFollow(it.key(), *it);
    }
}

void JobMonitor::readFollow(const QPair<qint64, QString> &key, Follow &follow)
{
    const auto job = m_store->jobById(key.first);
    if (!job) {
        follow.idle = true;
        return;
    }
    if (job->jobDir.isEmpty())
        return;  // not started yet: look again next poll
    const bool ended = isFinished(job->state);
    auto transport = m_files->headTransport(*job);
    if (!transport) {
        follow.idle = ended;
        return;
    }
    const QString path = job->jobDir + QLatin1Char('/') + key.second;
    bool skipPartialLine = false;
    if (follow.offset < 0) {
        const auto info = (*transport)->stat(path);
        if (!info) {
            follow.idle = ended;  // an ended job will not write it any more
            return;
        }
        follow.offset = qMax<qint64>(0, info->size - follow.tailBytes);
        skipPartialLine = follow.offset > 0;
    }
    // A few chunks per poll at most, so one huge file does not hold up the others.
    for (int i = 0; i < 8; ++i) {
        const auto chunk = (*transport)->readAt(path, follow.offset, followChunkBytes);
        if (!chunk || chunk->isEmpty()) {
            follow.idle = ended;
            return;
        }
        QByteArray data = *chunk;
        qint64 start = follow.offset;
        follow.offset += data.size();
        if (skipPartialLine) {
            skipPartialLine = false;
            const qsizetype newline = data.indexOf('\n');
            if (newline < 0)
                continue;
            data.remove(0, newline + 1);
            start += newline + 1;
        }
        Q_EMIT fileChunk(key.first, key.second, start, data);
        if (chunk->size() < followChunkBytes)
            return;
    }
}

void JobMonitor::listJobFiles(qint64 jobId)
{
    if (!m_store)
        return;
    const auto job = m_store->jobById(jobId);
    if (!job) {
        Q_EMIT jobFilesListed(jobId, {}, job.error());
        return;
    }
    auto transport = m_files->headTransport(*job);
    if (!transport) {
        Q_EMIT jobFilesListed(jobId, {}, transport.error());
        return;
    }
    QList<JobFile> files;
    listRecursively(**transport, job->jobDir + QStringLiteral("/stdouterr"), {}, QStringLiteral("stdouterr"), 0, files);
    if (const auto plan = m_submission->planOf(*job)) {
        for (const auto &[id, path] : plan->outputDirectories)
            listRecursively(**transport, path, {}, id, 0, files);
    }
    Q_EMIT jobFilesListed(jobId, files, {});
}

void JobMonitor::downloadJobFile(int requestId, qint64 jobId, const QString &remotePath, const QString &localPath)
{
    if (!m_store)
        return;
    const auto job = m_store->jobById(jobId);
    if (!job) {
        Q_EMIT downloadFinished(requestId, job.error());
        return;
    }
    // Only files of this job: its directory or one of its output directories.
    QStringList roots{job->jobDir};
    if (const auto plan = m_submission->planOf(*job)) {
        for (const auto &[id, path] : plan->outputDirectories)
            roots << path;
    }
    const QString clean = QDir::cleanPath(remotePath);
    const bool inside = !job->jobDir.isEmpty() && std::any_of(roots.cbegin(), roots.cend(), [&](const QString &root) {
        return clean.startsWith(QDir::cleanPath(root) + QLatin1Char('/'));
    });
    if (!inside) {
        Q_EMIT downloadFinished(requestId, QStringLiteral("%1 is not a file of job '%2'").arg(remotePath, job->name));
        return;
    }
    // A transport of its own: the copy runs in the pool while this thread keeps polling.
    auto transport = m_files->headTransport(*job);
    if (!transport) {
        Q_EMIT downloadFinished(requestId, transport.error());
        return;
    }
    auto cancel = std::make_shared<std::atomic_bool>(false);
    m_downloads.insert(requestId, cancel);
    std::shared_ptr<Transport> source = *transport;
    (void)QtConcurrent::run(&m_pool, [this, requestId, source, clean, localPath, cancel] {
        const QString error = [&]() -> QString {
            const auto info = source->stat(clean);
            if (!info)
                return info.error();
            const QString folder = QFileInfo(localPath).absolutePath();
            if (!QDir().mkpath(folder))
                return QStringLiteral("cannot create folder %1").arg(folder);
            QFile out(AtomicReplace::uniquePartPath(localPath));
            if (!out.open(QIODevice::WriteOnly | QIODevice::NewOnly))
                return QStringLiteral("cannot write %1: %2").arg(out.fileName(), errnoText(errno));
            qint64 done = 0;
            Q_EMIT downloadProgress(requestId, 0, info->size);
            while (true) {
                if (cancel->load()) {
                    out.remove();
                    return QStringLiteral("download of %1 cancelled").arg(clean);
                }
                const auto chunk = source->readAt(clean, done, 1024 * 1024);
                if (!chunk) {
                    out.remove();
                    return chunk.error();
                }
                if (chunk->isEmpty())
                    break;
                if (out.write(*chunk) != chunk->size() || !out.flush()) {
                    const QString why = errnoText(errno);
                    out.remove();
                    return QStringLiteral("cannot write %1: %2").arg(out.fileName(), why);
                }
                done += chunk->size();
                Q_EMIT downloadProgress(requestId, done, qMax(done, info->size));
            }
            out.close();
            if (auto placed = AtomicReplace::replace(out.fileName(), localPath); !placed)
                return placed.error();
            return {};
        }();
        QMetaObject::invokeMethod(this, [this, requestId] { m_downloads.remove(requestId); }, Qt::QueuedConnection);
        Q_EMIT downloadFinished(requestId, error);
    });
}

void JobMonitor::cancelDownload(int requestId)
{
    if (const auto cancel = m_downloads.value(requestId))
        cancel->store(true);
}

void JobMonitor::publishSnapshotNow()
{
    if (m_store)
        publishSnapshot(false);
}

void JobMonitor::wakeAgent()
{
    if (m_store)
        keepAgentWatching(true);
}

void JobMonitor::setShareFolders(qint64 shareId, const QStringList &folders)
{
    m_remoteFolders.insert(shareId, folders);
}

void JobMonitor::refreshShareFolders()
{
    if (!m_store || m_listingFolders)
        return;
    QList<Share> remote;
    for (const Workspace &ws : m_store->workspaces()) {
        for (const Share &s : m_store->shares(ws.id)) {
            if (s.kind != ShareKind::Local)
                remote.append(s);
        }
    }
    if (remote.isEmpty())
        return;
    m_listingFolders = true;
    (void)QtConcurrent::run(&m_pool, [this, remote, path = m_databasePath] {
        QHash<qint64, QStringList> listed;
        // A Store belongs to the thread that opened it: the pool task opens its own.
        Store store;
        if (store.open(path)) {
            ShareService service(store);
            // A node that does not answer keeps the folders listed before.
            for (const Share &s : remote) {
                if (const auto folders = service.folders(s))
                    listed.insert(s.id, *folders);
            }
        }
        QMetaObject::invokeMethod(this, [this, listed] {
            m_listingFolders = false;
            m_remoteFolders.insert(listed);
            publishSnapshot(false);
        }, Qt::QueuedConnection);
    });
}

} // namespace TrainDesk
