#pragma once

#include "metrics/RunSummary.h"
#include "store/Entities.h"

#include <QHash>
#include <QObject>

class QSystemTrayIcon;

namespace TrainDesk {
class Backend;
}

namespace TrainDesk::Ui {

// Tells the user when a job ends, fails or is stopped, with its name and final metric, while
// the window may be hidden behind others: a tray message where the desktop has a tray,
// else a desktop notification (org.freedesktop.Notifications on D-Bus). Jobs that ended
// before the app started are not announced. View > Notify when jobs end turns it off
// (QSettings Notifications/jobEnded).
class JobNotifier : public QObject
{
    Q_OBJECT

public:
    explicit JobNotifier(Backend *backend, QObject *parent = nullptr);

    static bool enabledSetting();
    static void setEnabledSetting(bool on);

    // "fashion-mnist-demo succeeded", "... failed", "... was stopped".
    static QString title(const Job &job);
    // The experiment, how long it ran, its final metric and, for a failure, why.
    static QString message(const Job &job, const QString &experiment, const RunSummary &summary);
    // The metric a run is judged by, as "val_acc 0.8912": the first of val_acc, acc, val_loss,
    // loss it has; empty when none.
    static QString finalMetric(const RunSummary &summary);

Q_SIGNALS:
    // Each announcement (none while turned off); `shown`: a tray or D-Bus took it.
    void notified(qint64 jobId, const QString &title, const QString &text, bool shown);
    // The user clicked the tray's message.
    void jobActivated(qint64 jobId);
    // Neither a tray nor a desktop notification service took the announcement (none there,
    // or the service answered with an error): the window says it itself.
    void notShown(qint64 jobId, const QString &title, const QString &text, bool failed);

private:
    void onSnapshot();
    void onSummaries(int requestId, const RunSummaries &summaries);
    bool show(qint64 jobId, const QString &title, const QString &text, bool failed);

    Backend *m_backend;
    QHash<qint64, JobState> m_states;
    bool m_seenFirst = false;
    struct Ended
    {
        Job job;
        QString experiment;
    };
    QHash<int, QList<Ended>> m_waiting;  // by summary request
    QSystemTrayIcon *m_tray = nullptr;
    qint64 m_lastShown = 0;
};

} // namespace TrainDesk::Ui
