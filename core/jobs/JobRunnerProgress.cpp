// JobRunner's look at whether a running job still makes progress (constraints.progressTimeout).
#include "JobRunner.h"

#include "common/ResultLog.h"
#include "jobspec/ReliabilitySettings.h"
#include "store/Store.h"

namespace TrainDesk {

void JobRunner::watchProgress(Job &job, Transport &head)
{
    const ReliabilitySettings settings = ReliabilitySettings::of(m_specs.of(job)->spec);
    if (settings.progressTimeoutSeconds <= 0)
        return;
    bool looked = false;
    const auto silence = m_progressWatch.look(job, head, m_store.lastMetricId(job.id), settings.progressTimeoutSeconds,
                                              QDateTime::currentDateTimeUtc(), &looked);
    if (!looked)
        return;
    if (!silence) {
        if (!m_store.jobSilence(job.id).isEmpty())
            logFailure(m_store.setJobSilence(job.id, {}),  // it spoke again
                       QStringLiteral("job '%1': cannot store that it spoke again").arg(job.name));
        return;
    }
    logFailure(m_store.setJobSilence(job.id, silence->toJson()),
               QStringLiteral("job '%1': cannot store its silence").arg(job.name));
    if (!settings.failOnHang)
        return;
    // The attempt fails (and may be retried); its processes are ended now and swept by finish.
    if (job.pid > 0)
        logFailure(head.exec(QStringLiteral("kill -TERM -%1 2>/dev/null; true").arg(job.pid), 15000),
                   QStringLiteral("job '%1': cannot end its hung processes (finish sweeps them)").arg(job.name));
    finish(job, JobState::Failed, std::nullopt,
           {JobError{QStringLiteral("JobHung"), silence->text(),
                     {QStringLiteral("constraints.failOnHang: the attempt was ended after %1 s without progress")
                          .arg(silence->seconds)}}});
}

} // namespace TrainDesk
