#pragma once

#include <QHash>
#include <QList>
#include <QPair>
#include <QSet>
#include <QToolButton>

namespace TrainDesk::Ui {

// "Compare" on the charts' toolbar: a menu of the experiment's other jobs, each one a
// check box; checking one overlays its curves. Says what it would do when there is none.
class CompareJobsButton : public QToolButton
{
    Q_OBJECT

public:
    explicit CompareJobsButton(QWidget *parent = nullptr);

    // (job id, name) of the jobs that can be compared; checked ones that are no longer
    // among them are unchecked (toggled(id, false)).
    void setCandidates(const QList<QPair<qint64, QString>> &jobs);
    void setChecked(qint64 jobId, bool on);
    QSet<qint64> checkedJobs() const { return m_checked; }
    QList<QPair<qint64, QString>> candidates() const { return m_candidates; }

Q_SIGNALS:
    void jobToggled(qint64 jobId, bool on);

private:
    void rebuildMenu();
    void updateText();

    QList<QPair<qint64, QString>> m_candidates;
    QSet<qint64> m_checked;
    QHash<qint64, QAction *> m_actions;
};

} // namespace TrainDesk::Ui
