#include "Agent.h"

#include "common/ResultLog.h"
#include "AgentChannel.h"
#include "common/DataDirectoryCheck.h"
#include "NodeSampling.h"
#include "jobs/JobOutput.h"
#include "jobs/JobRunner.h"
#include "store/DatabaseCheck.h"
#include "jobs/SpaceReserve.h"
#include "metrics/MetricRows.h"
#include "store/Store.h"
#include "sweeps/SweepScheduler.h"

#include <algorithm>

#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QJsonArray>
#include <QLocalSocket>
#include <QLockFile>

namespace TrainDesk {

namespace {

const QList<JobState> watchedStates{JobState::Queued, JobState::Running, JobState::Terminating};

// The last good copy of the database (`traindesk doctor --restore`): made when the agent
// starts and renewed every 10 minutes while it runs, only from a database that passes the
// check, so a damaged one never replaces it.
void keepBackup(const Store &store)
{
    constexpr qint64 everySeconds = 600;
    static QElapsedTimer sinceTry;
    if (sinceTry.isValid() && sinceTry.elapsed() < everySeconds * 1000)
        return;
    const QDateTime last = DatabaseCheck::backupTime(store.path());
    if (last.isValid() && last.secsTo(QDateTime::currentDateTime()) < everySeconds)
        return;
    sinceTry.start();
    if (auto made = store.backup(); !made)
        qWarning("traindesk agent: no new last good copy: %s", qPrintable(made.error()));
}

} // namespace

Agent::Agent(AgentOptions options) : m_options(std::move(options))
{
    m_timer.setSingleShot(true);
    connect(&m_timer, &QTimer::timeout, this, &Agent::tick);
    connect(&m_server, &QLocalServer::newConnection, this, &Agent::acceptClients);
}

Agent::~Agent()
{
    // The server deletes its sockets as it goes, after m_clients and m_subscribers (declared
    // after it) are gone: their disconnected() must not reach the sets then (issue #38).
    for (QLocalSocket *socket : std::as_const(m_clients))
        socket->disconnect(this);
    m_clients.clear();
    m_subscribers.clear();
}

VoidResult Agent::start()
{
    // Another user's (or a writable) data directory would let them act as this user.
    if (auto safe = DataDirectoryCheck::verify(m_options.dataDirectory); !safe)
        return safe;
    m_lock = std::make_unique<QLockFile>(AgentChannel::lockPath(m_options.dataDirectory));
    // A lock left by a killed agent names a dead pid: QLockFile takes it over.
    m_lock->setStaleLockTime(0);
    if (!m_lock->tryLock(0)) {
        qint64 pid = 0;
        QString host, app;
        // No pid yet: the other agent has made the lock file but not written it (started at once).
        if (!m_lock->getLockInfo(&pid, &host, &app) || pid <= 0)
            return fail(QStringLiteral("another agent is starting for %1").arg(m_options.dataDirectory));
        return fail(QStringLiteral("an agent already runs for %1 (pid %2)").arg(m_options.dataDirectory).arg(pid));
    }
    m_store = std::make_unique<Store>();
    if (auto opened = m_store->open(QDir(m_options.dataDirectory).filePath(QStringLiteral("traindesk.db"))); !opened)
        return opened;
    m_runner = std::make_unique<JobRunner>(*m_store);
    m_output = std::make_unique<JobOutput>(*m_store);
    m_sweeps = std::make_unique<SweepScheduler>(*m_store, *m_runner);
    m_reserve = std::make_unique<SpaceReserve>(m_options.dataDirectory);
    m_reserve->ensure();
    m_runner->setSpaceReserve(m_reserve.get());
    // Jobs that ended while their records could not be stored (an agent before this one).
    for (const Job &job : m_store->jobsInStates({JobState::Succeeded, JobState::Failed})) {
        if (std::any_of(job.errors.begin(), job.errors.end(), &JobOutput::isMetricsWaiting))
            m_ingestWaiting.insert(job.id);
    }
    m_sampling = std::make_unique<NodeSampling>(*m_store);
    keepBackup(*m_store);
    // Owner only: whoever can talk to the agent can start and end jobs.
    const QString socket = AgentChannel::socketPath(m_options.dataDirectory);
    QLocalServer::removeServer(socket);  // a socket file left by a killed agent
    m_server.setSocketOptions(QLocalServer::UserAccessOption);
    if (!m_server.listen(socket))
        return fail(QStringLiteral("cannot listen on %1: %2").arg(socket, m_server.errorString()));
    m_since = QDateTime::currentDateTimeUtc();
    m_quiet.start();
    for (const Job &job : m_store->jobsInStates(watchedStates))
        m_seen.insert(job.id, QString());
    qInfo("traindesk agent %lld: serving %s", static_cast<long long>(QCoreApplication::applicationPid()),
          qPrintable(m_options.dataDirectory));
    wakeSoon();
    return {};
}

void Agent::wakeSoon()
{
    if (!m_ticking && !m_stopping)
        m_timer.start(0);
}

void Agent::tick()
{
    if (m_stopping)
        return;
    if (dataDirectoryGone()) {
        stop(QStringLiteral("the data directory is gone"));
        return;
    }
    m_ticking = true;
    keepBackup(*m_store);
    const QList<Job> before = m_store->jobsInStates({JobState::Running, JobState::Terminating});
    // Sweeps first: the trials they queue start in the schedule of the refresh that follows.
    m_activeSweeps = m_sweeps->tick();
    m_runner->refreshAll();
    // Metrics of running jobs, and once more of those that just ended (their last lines) or
    // whose node is back after a cut (what they wrote while it was out of reach).
    for (const Job &job : before)
        m_ingestOnce.insert(job.id);
    for (qint64 id : m_runner->takeJobsWhoseNodesAnswered())
        m_ingestOnce.insert(id);
    ingest();
    m_store->truncateLogOver(8 * 1024 * 1024);
    // Read once for the rest of the tick: sampling, the counts and what changed.
    const QList<Job> watched = m_store->jobsInStates(watchedStates);
    QList<Job> runningJobs;
    for (const Job &job : watched) {
        if (job.state == JobState::Running)
            runningJobs.append(job);
    }
    m_sampling->tick(runningJobs);
    int running = 0, queued = 0;
    bool justStarted = false;
    const QDateTime now = QDateTime::currentDateTimeUtc();
    for (const Job &job : watched) {
        if (job.state == JobState::Queued) {
            ++queued;
        } else {
            ++running;
            m_ingestOnce.insert(job.id);
            justStarted = justStarted || (job.started.isValid() && job.started.secsTo(now) < m_options.startSeconds);
        }
    }
    m_activity = running + queued + m_activeSweeps == 0
        ? QStringLiteral("idle")
        : QStringLiteral("watching %1 running, %2 queued").arg(running).arg(queued)
            + (m_activeSweeps ? QStringLiteral(", %1 sweep%2").arg(m_activeSweeps).arg(m_activeSweeps == 1 ? "" : "s") : QString());
    if (!m_ingestWaiting.isEmpty())
        m_activity += QStringLiteral("; the records of %1 ended job(s) wait to be stored%2")
                          .arg(m_ingestWaiting.size())
                          .arg(m_diskFull ? QStringLiteral(" (the disk of %1 is full)").arg(m_options.dataDirectory)
                                          : QString());
    m_lastTick = QDateTime::currentDateTimeUtc();
    push(changedJobs(watched));
    m_ticking = false;

    if (running + queued + m_activeSweeps > 0 || !m_clients.isEmpty() || !m_ingestWaiting.isEmpty())
        m_quiet.restart();
    else if (!m_options.service && m_quiet.elapsed() >= qint64(m_options.idleExitSeconds) * 1000) {
        stop(QStringLiteral("nothing to do for %1 s").arg(m_options.idleExitSeconds));
        return;
    }
    m_timer.start(justStarted ? std::min(m_options.startTickMs, m_options.tickMs) : m_options.tickMs);
}

void Agent::ingest()
{
    // Space back after a full disk (the reserve can be taken again): reading resumes.
    if (m_reserve->ensure())
        m_diskFull = false;
    else if (m_reserve->released())
        m_diskFull = true;  // let go for a job's end (JobRunner::finish): the disk is full
    m_ingestOnce.unite(m_ingestWaiting);
    for (qint64 id : std::as_const(m_ingestOnce)) {
        const auto job = m_store->jobById(id);
        if (!job || job->jobDir.isEmpty()) {
            m_ingestWaiting.remove(id);
            continue;
        }
        if (m_runner->headOutOfReach(*job))
            continue;  // read when it answers again
        if (m_diskFull) {
            // Records stored now would take the space the jobs' states need: they wait.
            noteWaiting(id, true);
            continue;
        }
        bool storeFailed = false;
        const auto read = m_output->ingestMetrics(*job, &storeFailed);
        if (read) {
            // A retried job's attempt redoes the epochs after its checkpoint: stored once.
            // Left for the next read on failure: the removal is the same then.
            logFailure(MetricRows::removeRepeated(*m_store, id),
                       QStringLiteral("job '%1': cannot remove its repeated metric records").arg(job->name));
            if (m_ingestWaiting.remove(id) || std::any_of(job->errors.begin(), job->errors.end(), &JobOutput::isMetricsWaiting))
                clearWaiting(id);
            continue;
        }
        if (!storeFailed)
            continue;  // the node is out of reach: a running job is read again at the next tick
        // Nothing of the chunk was stored and its offset stays: it is read again later.
        const qint64 free = SpaceReserve::freeBytes(m_options.dataDirectory);
        const bool full = (free >= 0 && free < SpaceReserve::defaultBytes)
            || read.error().contains(QLatin1String("full"), Qt::CaseInsensitive);
        if (full && !m_diskFull) {
            qWarning("traindesk agent: %s", qPrintable(read.error()));
            m_diskFull = true;
            m_reserve->release();  // room for the jobs' states and this error
        }
        noteWaiting(id, full);
    }
    m_ingestOnce.clear();
}

void Agent::noteWaiting(qint64 jobId, bool diskFull)
{
    auto job = m_store->jobById(jobId);
    if (!job)
        return;
    if (isFinished(job->state))
        m_ingestWaiting.insert(jobId);
    if (!diskFull || std::any_of(job->errors.begin(), job->errors.end(), &JobOutput::isMetricsWaiting))
        return;
    job->errors.append(JobOutput::metricsWaitingError(m_options.dataDirectory));
    // The disk is full: this write may fail too, and is tried again at the next tick.
    logFailure(m_store->updateJob(*job), QStringLiteral("job '%1': cannot store that its metrics wait").arg(job->name));
}

void Agent::clearWaiting(qint64 jobId)
{
    auto job = m_store->jobById(jobId);
    if (!job)
        return;
    const qsizetype removed = job->errors.removeIf(&JobOutput::isMetricsWaiting);
    if (removed > 0)
        logFailure(m_store->updateJob(*job),
                   QStringLiteral("job '%1': cannot store that its metrics are stored again").arg(job->name));
}

QSet<qint64> Agent::changedJobs(const QList<Job> &watched)
{
    // A job changed when its state, its newest stored metric record or system sample did.
    QSet<qint64> changed;
    QSet<qint64> ids(m_seen.keyBegin(), m_seen.keyEnd());
    QHash<qint64, Job> read;  // those just read need not be read again
    for (const Job &job : watched) {
        ids.insert(job.id);
        read.insert(job.id, job);
    }
    for (qint64 id : std::as_const(ids)) {
        const auto known = read.constFind(id);
        const Result<Job> job = known != read.cend() ? Result<Job>(*known) : m_store->jobById(id);
        if (!job) {
            m_seen.remove(id);
            changed.insert(id);
            continue;
        }
        const QString seen = QStringLiteral("%1/%2/%3")
                                 .arg(toString(job->state))
                                 .arg(m_store->lastMetricId(id))
                                 .arg(m_store->lastSystemSampleId(id));
        if (m_seen.value(id) != seen)
            changed.insert(id);
        if (isFinished(job->state))
            m_seen.remove(id);  // told once; nothing moves any more
        else
            m_seen.insert(id, seen);
    }
    return changed;
}

void Agent::push(const QSet<qint64> &changedJobs)
{
    if (changedJobs.isEmpty())
        return;
    QJsonArray ids;
    for (qint64 id : changedJobs)
        ids.append(id);
    for (QLocalSocket *socket : std::as_const(m_subscribers))
        AgentChannel::send(*socket, QJsonObject{{"event", "changed"}, {"jobs", ids}});
}

void Agent::acceptClients()
{
    while (QLocalSocket *socket = m_server.nextPendingConnection()) {
        m_clients.insert(socket);
        m_quiet.restart();
        connect(socket, &QLocalSocket::readyRead, this, [this, socket] {
            for (QJsonObject request = AgentChannel::takeMessage(*socket); !request.isEmpty();
                 request = AgentChannel::takeMessage(*socket))
                handle(socket, request);
        });
        connect(socket, &QLocalSocket::disconnected, this, [this, socket] {
            m_clients.remove(socket);
            m_subscribers.remove(socket);
            socket->deleteLater();
        });
    }
}

void Agent::handle(QLocalSocket *socket, const QJsonObject &request)
{
    const QString op = request.value(QStringLiteral("op")).toString();
    if (op == QLatin1String("status")) {
        AgentChannel::send(*socket, status());
    } else if (op == QLatin1String("wake")) {
        AgentChannel::send(*socket, {{"ok", true}});
        wakeSoon();
    } else if (op == QLatin1String("subscribe")) {
        m_subscribers.insert(socket);
        AgentChannel::send(*socket, {{"ok", true}});
    } else if (op == QLatin1String("terminate")) {
        const auto job = m_runner->requestTerminate(request.value(QStringLiteral("job")).toInteger());
        if (job)
            AgentChannel::send(*socket, {{"ok", true}, {"state", toString(job->state)}});
        else
            AgentChannel::send(*socket, {{"ok", false}, {"error", job.error()}});
        wakeSoon();
    } else if (op == QLatin1String("stop")) {
        AgentChannel::send(*socket, {{"ok", true}});
        stop(QStringLiteral("asked to stop"));
    } else {
        AgentChannel::send(*socket, {{"ok", false}, {"error", QStringLiteral("unknown request '%1'").arg(op)}});
    }
}

QJsonObject Agent::status() const
{
    int running = 0, queued = 0;
    for (const Job &job : m_store->jobsInStates(watchedStates))
        (job.state == JobState::Queued ? queued : running)++;
    return {{"ok", true},
            {"pid", QCoreApplication::applicationPid()},
            {"since", m_since.toString(Qt::ISODate)},
            {"lastTick", m_lastTick.toString(Qt::ISODate)},
            {"activity", m_activity},
            {"running", running},
            {"queued", queued},
            {"clients", int(m_clients.size())},
            {"service", m_options.service},
            {"dataDirectory", m_options.dataDirectory}};
}

bool Agent::dataDirectoryGone() const
{
    // Tests (and users) delete data directories: an agent must not outlive its own.
    return !QFileInfo::exists(QDir(m_options.dataDirectory).filePath(QStringLiteral("traindesk.db")))
        || !QFileInfo::exists(AgentChannel::lockPath(m_options.dataDirectory));
}

void Agent::stop(const QString &why)
{
    if (m_stopping)
        return;
    m_stopping = true;
    m_timer.stop();
    qInfo("traindesk agent: stopping: %s", qPrintable(why));
    m_server.close();
    // The lock is kept until the agent is destroyed, after its Store (declared after the lock):
    // `agent stop` returns when the lock is free, and by then the database is closed and its
    // write-ahead log checkpointed, so a copy of the data directory is whole.
    Q_EMIT finished();
}

} // namespace TrainDesk
