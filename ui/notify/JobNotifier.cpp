#include "JobNotifier.h"

#include "common/Icons.h"
#include "common/StateStyle.h"
#include "session/Backend.h"

#include <QDBusConnection>
#include <QDBusInterface>
#include <QDBusPendingCallWatcher>
#include <QSettings>
#include <QSystemTrayIcon>

namespace TrainDesk::Ui {

namespace {

const char settingKey[] = "Notifications/jobEnded";

bool wasStopped(const Job &job)
{
    for (const JobError &e : job.errors) {
        if (e.code == QLatin1String("JobTerminated"))
            return true;
    }
    return false;
}

} // namespace

JobNotifier::JobNotifier(Backend *backend, QObject *parent) : QObject(parent), m_backend(backend)
{
    connect(m_backend, &Backend::snapshotChanged, this, &JobNotifier::onSnapshot);
    connect(m_backend, &Backend::runSummariesRead, this, &JobNotifier::onSummaries);
    onSnapshot();
}

bool JobNotifier::enabledSetting()
{
    return QSettings().value(QLatin1String(settingKey), true).toBool();
}

void JobNotifier::setEnabledSetting(bool on)
{
    QSettings().setValue(QLatin1String(settingKey), on);
}

QString JobNotifier::title(const Job &job)
{
    if (wasStopped(job))
        return tr("%1 was stopped").arg(job.name);
    return job.state == JobState::Succeeded ? tr("%1 succeeded").arg(job.name) : tr("%1 failed").arg(job.name);
}

QString JobNotifier::finalMetric(const RunSummary &summary)
{
    for (const char *name : {"val_acc", "acc", "val_loss", "loss"}) {
        const auto it = summary.metrics.constFind(QLatin1String(name));
        if (it != summary.metrics.cend())
            return QStringLiteral("%1 %2").arg(QLatin1String(name), QString::number(it->last, 'f', 4));
    }
    return {};
}

QString JobNotifier::message(const Job &job, const QString &experiment, const RunSummary &summary)
{
    QStringList parts;
    if (!experiment.isEmpty())
        parts << tr("Experiment %1").arg(experiment);
    if (job.started.isValid() && job.ended.isValid())
        parts << formatDuration(job.started.secsTo(job.ended));
    if (const QString metric = finalMetric(summary); !metric.isEmpty())
        parts << metric;
    QString text = parts.join(QStringLiteral(" · "));
    if (job.state == JobState::Failed && !wasStopped(job) && !job.errors.isEmpty())
        text += QStringLiteral("\n%1: %2").arg(job.errors.first().code, job.errors.first().message);
    return text;
}

void JobNotifier::onSnapshot()
{
    const ResourceSnapshot &snapshot = m_backend->snapshot();
    if (snapshot.workspaces.isEmpty())
        return;
    QList<Ended> ended;
    QList<qint64> ids;
    for (const auto &ws : snapshot.workspaces) {
        for (const auto &exp : ws.experiments) {
            for (const Job &job : exp.jobs) {
                const auto before = m_states.constFind(job.id);
                // Seen waiting or running since the app started, now ended.
                if (m_seenFirst && before != m_states.cend() && !isFinished(*before) && *before != JobState::Draft
                    && isFinished(job.state)) {
                    ended.append({job, exp.experiment.name});
                    ids.append(job.id);
                }
                m_states.insert(job.id, job.state);
            }
        }
    }
    m_seenFirst = true;
    if (!ended.isEmpty() && enabledSetting())
        m_waiting.insert(m_backend->readRunSummaries(ids), ended);  // the final metric first
}

void JobNotifier::onSummaries(int requestId, const RunSummaries &summaries)
{
    const QList<Ended> ended = m_waiting.take(requestId);
    for (const Ended &e : ended) {
        const QString heading = title(e.job);
        const QString text = message(e.job, e.experiment, summaries.value(e.job.id));
        const bool failed = e.job.state == JobState::Failed;
        const bool shown = show(e.job.id, heading, text, failed);
        if (shown)
            m_lastShown = e.job.id;
        else
            Q_EMIT notShown(e.job.id, heading, text, failed);
        Q_EMIT notified(e.job.id, heading, text, shown);
    }
}

bool JobNotifier::show(qint64 jobId, const QString &title, const QString &text, bool failed)
{
    if (QSystemTrayIcon::isSystemTrayAvailable()) {
        if (!m_tray) {
            m_tray = new QSystemTrayIcon(appIcon(QStringLiteral("traindesk")), this);
            m_tray->setToolTip(tr("TrainDesk"));
            connect(m_tray, &QSystemTrayIcon::messageClicked, this, [this] {
                if (m_lastShown)
                    Q_EMIT jobActivated(m_lastShown);
            });
            m_tray->show();
        }
        m_tray->showMessage(title, text, failed ? QSystemTrayIcon::Warning : QSystemTrayIcon::Information, 10000);
        return true;
    }
    // No tray (GNOME without an extension, for one): the desktop's notification service.
    QDBusConnection bus = QDBusConnection::sessionBus();
    if (!bus.isConnected())
        return false;
    QDBusInterface notifications(QStringLiteral("org.freedesktop.Notifications"), QStringLiteral("/org/freedesktop/Notifications"),
                                 QStringLiteral("org.freedesktop.Notifications"), bus);
    if (!notifications.isValid())
        return false;
    const QDBusPendingCall call = notifications.asyncCall(
        QStringLiteral("Notify"), QStringLiteral("TrainDesk"), uint(0), QStringLiteral("traindesk"), title, text, QStringList(),
        QVariantMap{{QStringLiteral("urgency"), QVariant::fromValue(uchar(failed ? 2 : 1))}}, int(-1));
    // A service that answers with an error (or not at all, within D-Bus's timeout) showed
    // nothing: the window says it.
    auto *watcher = new QDBusPendingCallWatcher(call, this);
    connect(watcher, &QDBusPendingCallWatcher::finished, this, [this, jobId, title, text, failed](QDBusPendingCallWatcher *w) {
        if (w->isError())
            Q_EMIT notShown(jobId, title, text, failed);
        w->deleteLater();
    });
    return true;
}

} // namespace TrainDesk::Ui
