#include "SweepScheduler.h"

#include "common/ResultLog.h"
#include "EarlyStopping.h"
#include "ParamSubstitution.h"
#include "jobs/JobOutput.h"
#include "jobs/JobRunner.h"
#include "store/Store.h"

#include <algorithm>

namespace TrainDesk {

namespace {

// What an early-stopped trial's job says when it has ended (job show, the tree, notifications).
QString stoppedEarlyText(const QString &reason)
{
    return QStringLiteral("stopped early: ") + reason;
}

bool jobActive(JobState s) { return s == JobState::Queued || s == JobState::Running || s == JobState::Terminating; }

// A trial's job whose launch an agent's end cut short: its script never started.
bool unlaunched(const Job &job)
{
    return job.state == JobState::Failed && job.pid == 0
        && std::any_of(job.errors.begin(), job.errors.end(),
                       [](const JobError &e) { return e.code == QLatin1String("JobProcessVanished"); });
}

// A sweep with no such trial (all failed, refused or deleted) failed, not completed.
bool anyJudged(const Store &store, const QList<SweepTrial> &trials)
{
    return std::any_of(trials.begin(), trials.end(), [&](const SweepTrial &t) {
        if (t.status == TrialStatus::EarlyStopped)
            return true;
        const auto job = t.jobId ? store.jobById(t.jobId) : Result<Job>(fail(QString()));
        return job && job->state == JobState::Succeeded;
    });
}

} // namespace

SweepScheduler::SweepScheduler(Store &store, JobRunner &runner) : m_store(store), m_runner(runner), m_jobs(store), m_sweeps(store) {}

SweepScheduler::~SweepScheduler() = default;

int SweepScheduler::tick()
{
    int active = 0;
    QSet<qint64> seen;
    for (const Sweep &sweep : m_sweeps.activeSweeps()) {
        seen.insert(sweep.id);
        auto watch = m_watches.find(sweep.id);
        if (watch == m_watches.end())
            watch = m_watches.insert(sweep.id, Watch{m_sweeps.trials(sweep.id), {}, true});
        advance(sweep, *watch);
        if (const auto now = m_sweeps.sweepById(sweep.id); now && now->active())
            ++active;
        else
            seen.remove(sweep.id);
    }
    // An ended (or deleted) sweep's trials are read again if it were ever active again.
    for (auto it = m_watches.begin(); it != m_watches.end();) {
        if (seen.contains(it.key())) {
            ++it;
            continue;
        }
        m_metrics.remove(it.key());
        it = m_watches.erase(it);
    }
    return active;
}

int SweepScheduler::activeTrials(const Store &store, const QList<SweepTrial> &trials)
{
    int active = 0;
    for (const SweepTrial &t : trials) {
        if (t.jobId == 0)
            continue;
        if (const auto job = store.jobById(t.jobId); job && jobActive(job->state))
            ++active;
    }
    return active;
}

QList<SweepTrial *> SweepScheduler::inFlight(Watch &watch)
{
    QList<SweepTrial *> trials;
    for (SweepTrial &t : watch.trials) {
        if (t.jobId != 0 && !watch.settled.contains(t.index))
            trials.append(&t);
    }
    return trials;
}

int SweepScheduler::activeInFlight(Watch &watch, bool fresh)
{
    // A settled trial's job has ended for good: only those in flight can be active.
    int active = 0;
    for (const SweepTrial *t : inFlight(watch)) {
        if (const auto looked = watch.looked.constFind(t->jobId); !fresh && looked != watch.looked.cend()) {
            active += *looked && jobActive((*looked)->state) ? 1 : 0;
            continue;
        }
        if (const auto job = m_store.jobById(t->jobId); job && jobActive(job->state))
            ++active;
    }
    return active;
}

void SweepScheduler::advance(const Sweep &sweep, Watch &watch)
{
    QList<SweepTrial> &trials = watch.trials;
    // The trials in flight as stored now (what was decided about them, by whoever decided).
    for (SweepTrial *t : inFlight(watch))
        logFailure(m_sweeps.reread(*t), QStringLiteral("sweep '%1'").arg(sweep.name));
    if (watch.adoptDue) {
        watch.adoptDue = false;
        adopt(sweep, trials);
    }
    // Their jobs, read once for this look (the runner moves them on after it).
    watch.looked.clear();
    for (const SweepTrial *t : inFlight(watch)) {
        const auto job = m_store.jobById(t->jobId);
        watch.looked.insert(t->jobId, job ? std::optional<Job>(*job) : std::nullopt);  // none: deleted
    }
    resubmitUnlaunched(sweep, watch);
    if (sweep.state == SweepState::Stopping) {
        stopAll(sweep, watch);
        settle(watch);
        return;
    }
    stopEarly(sweep, watch);
    int active = activeInFlight(watch);
    for (SweepTrial &trial : trials) {
        if (active >= sweep.maxConcurrent)
            break;
        if (trial.status != TrialStatus::Pending)
            continue;
        submit(sweep, watch, trial);
        if (trial.status == TrialStatus::Submitted)
            ++active;
    }
    settle(watch);
    const bool pending = std::any_of(trials.begin(), trials.end(),
                                     [](const SweepTrial &t) { return t.status == TrialStatus::Pending; });
    // Not stored: the next look finds the same and finishes it then.
    if (!pending && activeInFlight(watch, true) == 0) {
        const SweepState end = anyJudged(m_store, trials) ? SweepState::Completed : SweepState::Failed;
        logFailure(m_sweeps.finish(sweep.id, end),
                   QStringLiteral("sweep '%1': cannot store that it %2").arg(sweep.name, toString(end)));
    }
}

void SweepScheduler::settle(Watch &watch)
{
    for (SweepTrial *t : inFlight(watch)) {
        // As looked at the start: one that ended since is settled at the next look.
        const auto looked = watch.looked.constFind(t->jobId);
        if (looked == watch.looked.cend())
            continue;  // submitted in this look
        const std::optional<Job> &job = *looked;
        if (job && !isFinished(job->state))
            continue;
        // Records that wait for disk space still come: its series is read until they are in.
        if (job && std::any_of(job->errors.begin(), job->errors.end(), &JobOutput::isMetricsWaiting))
            continue;
        // An unlaunched trial's job goes again (resubmitUnlaunched): not settled while it is one.
        if (job && t->status == TrialStatus::Submitted && unlaunched(*job))
            continue;
        watch.settled.insert(t->index);
    }
}

void SweepScheduler::adopt(const Sweep &sweep, QList<SweepTrial> &trials)
{
    // A pending trial whose job exists was submitted by an agent killed before it wrote the
    // job down: the job is the trial's (the names were checked free when the sweep was made,
    // and JobSubmission refuses a trial's name to any job but the sweep's).
    for (SweepTrial &trial : trials) {
        if (trial.status != TrialStatus::Pending)
            continue;
        const auto job = m_store.job(sweep.experimentId, sweep.trialJobName(trial.index));
        if (job && job->created >= sweep.created.addSecs(-1)) {
            if (const auto set = m_sweeps.setTrialJob(sweep.id, trial.index, job->id); set && *set) {
                trial.jobId = job->id;
                trial.status = TrialStatus::Submitted;
            }
        }
    }
}

void SweepScheduler::resubmitUnlaunched(const Sweep &sweep, Watch &watch)
{
    // A trial whose launch an agent's end cut short (its script never started: no pid, and
    // JobRunner failed it with JobProcessVanished) has run nothing: it goes again, under its
    // own name. Pending first, then the job's record goes: an agent killed between the two
    // finds the job and adopts it again, and comes back here.
    for (SweepTrial *trial : inFlight(watch)) {
        if (trial->status != TrialStatus::Submitted)
            continue;
        const auto looked = watch.looked.constFind(trial->jobId);
        if (looked == watch.looked.cend() || !*looked || !unlaunched(**looked))
            continue;
        const std::optional<Job> &job = *looked;
        const QString why = QStringLiteral("submitted again: %1").arg(job->errors.first().message);
        // Pending in the store but the job not removed: tried again at the next look (and an
        // agent after this one adopts the job while it exists).
        if (!m_sweeps.setTrialStatus(sweep.id, trial->index, TrialStatus::Pending, why) || !m_jobs.remove(job->id))
            continue;
        trial->status = TrialStatus::Pending;
        trial->jobId = 0;
        trial->reason = why;
    }
}

void SweepScheduler::stopAll(const Sweep &sweep, Watch &watch)
{
    bool waiting = false;
    for (SweepTrial &trial : watch.trials) {
        if (trial.status == TrialStatus::Pending) {
            if (logFailure(m_sweeps.setTrialStatus(sweep.id, trial.index, TrialStatus::Skipped,
                                                   QStringLiteral("the sweep was stopped before the trial started")),
                           QStringLiteral("sweep '%1': cannot store that trial %2 is skipped").arg(sweep.name).arg(trial.index)))
                trial.status = TrialStatus::Skipped;
            continue;
        }
        if (trial.jobId == 0 || watch.settled.contains(trial.index))
            continue;
        const auto job = m_store.jobById(trial.jobId);
        if (!job || !jobActive(job->state))
            continue;
        // Its results so far stay: the job ends as a terminated one, its records kept.
        if (job->state != JobState::Terminating) {
            logFailure(m_runner.requestTerminate(job->id),
                       QStringLiteral("sweep '%1': cannot terminate trial %2").arg(sweep.name).arg(trial.index));
            if (trial.status == TrialStatus::Submitted
                && logFailure(m_sweeps.setTrialStatus(sweep.id, trial.index, TrialStatus::Stopped,
                                                      QStringLiteral("the sweep was stopped")),
                              QStringLiteral("sweep '%1': cannot store that trial %2 stopped").arg(sweep.name).arg(trial.index)))
                trial.status = TrialStatus::Stopped;
        }
        if (const auto now = m_store.jobById(trial.jobId); now && jobActive(now->state))
            waiting = true;
    }
    if (!waiting)
        logFailure(m_sweeps.finish(sweep.id, SweepState::Stopped),
                   QStringLiteral("sweep '%1': cannot store that it stopped").arg(sweep.name));
}

void SweepScheduler::stopEarly(const Sweep &sweep, Watch &watch)
{
    const auto policy = EarlyStopPolicy::parse(sweep.earlyStop);
    if (!policy || policy->kind == EarlyStopPolicy::Kind::None || sweep.metric.isEmpty())
        return;
    auto &metric = m_metrics[sweep.id];
    if (!metric)
        metric = std::make_shared<TrialMetric>(sweep.metric);
    QList<TrialSeries> series;
    QHash<int, qint64> jobOf;
    for (const SweepTrial &trial : std::as_const(watch.trials)) {
        if (trial.jobId == 0)
            continue;
        // A settled trial ended with all its records read: its series as kept, a peer only.
        if (watch.settled.contains(trial.index)) {
            series.append({trial.index, false, metric->series(m_store, trial.jobId, TrialMetric::Read::Kept)});
            continue;
        }
        const auto job = m_store.jobById(trial.jobId);
        if (!job)
            continue;
        // A trial is judged while it runs and was not ended already; all count as peers.
        const bool judged = job->state == JobState::Running && trial.status == TrialStatus::Submitted;
        series.append({trial.index, judged, metric->series(m_store, job->id)});
        jobOf.insert(trial.index, job->id);
    }
    for (const StopDecision &d : EarlyStopping::decide(*policy, sweep.metric, sweep.maximize, series)) {
        // Recorded first: a restart between the two finds the job still running and the
        // trial marked, and terminates it (stopAll's and this one's terminate are the same).
        // Not recorded: not terminated either; the next look decides again.
        if (!logFailure(m_sweeps.setTrialStatus(sweep.id, d.index, TrialStatus::EarlyStopped, d.reason),
                        QStringLiteral("sweep '%1': cannot store that trial %2 stops early").arg(sweep.name).arg(d.index)))
            continue;
        logFailure(m_runner.requestTerminate(jobOf.value(d.index), stoppedEarlyText(d.reason)),
                   QStringLiteral("sweep '%1': cannot terminate trial %2").arg(sweep.name).arg(d.index));
        for (SweepTrial &t : watch.trials) {
            if (t.index == d.index) {
                t.status = TrialStatus::EarlyStopped;
                t.reason = d.reason;
            }
        }
    }
    // An early-stopped trial whose terminate was lost (an agent killed between the two).
    for (const SweepTrial *trial : inFlight(watch)) {
        if (trial->status != TrialStatus::EarlyStopped)
            continue;
        if (const auto job = m_store.jobById(trial->jobId); job && job->state == JobState::Running)
            logFailure(m_runner.requestTerminate(job->id, stoppedEarlyText(trial->reason)),
                       QStringLiteral("sweep '%1': cannot terminate trial %2").arg(sweep.name).arg(trial->index));
    }
}

void SweepScheduler::submit(const Sweep &sweep, Watch &watch, SweepTrial &trial)
{
    const auto exp = m_store.experimentById(sweep.experimentId);
    const auto ws = exp ? m_store.workspaceById(exp->workspaceId) : Result<Workspace>(fail(exp.error()));
    const auto cluster = m_store.clusterById(sweep.clusterId);
    QString error;
    if (!exp || !ws || !cluster) {
        error = !exp ? exp.error() : !ws ? ws.error() : cluster.error();
    } else if (const auto spec = ParamSubstitution::apply(sweep.spec, trial.params); !spec) {
        error = spec.error();
    } else {
        SubmitRequest request{ws->name, exp->name, sweep.trialJobName(trial.index), cluster->name, spec->json};
        request.noContainer = sweep.noContainer;
        request.sweep = sweep.name;
        const auto job = m_jobs.submit(request);
        if (job) {
            if (const auto set = m_sweeps.setTrialJob(sweep.id, trial.index, job->id); set && *set) {
                trial.jobId = job->id;
                trial.status = TrialStatus::Submitted;
            } else {
                watch.adoptDue = true;  // the job exists and the trial does not say so yet
            }
            return;
        }
        error = job.error();
    }
    // A trial that cannot be submitted ends as refused, saying why; the others go on.
    logFailure(m_sweeps.setTrialStatus(sweep.id, trial.index, TrialStatus::Refused, error),
               QStringLiteral("sweep '%1': cannot store that trial %2 was refused").arg(sweep.name).arg(trial.index));
    trial.status = TrialStatus::Refused;
    trial.reason = error;
}

} // namespace TrainDesk
