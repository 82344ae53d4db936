#include "CompareJobsButton.h"

#include <QMenu>
#include <QSignalBlocker>

namespace TrainDesk::Ui {

CompareJobsButton::CompareJobsButton(QWidget *parent) : QToolButton(parent)
{
    setPopupMode(QToolButton::InstantPopup);
    setToolButtonStyle(Qt::ToolButtonTextOnly);
    setMenu(new QMenu(this));
    rebuildMenu();
}

void CompareJobsButton::setCandidates(const QList<QPair<qint64, QString>> &jobs)
{
    if (jobs == m_candidates)
        return;
    m_candidates = jobs;
    QSet<qint64> present;
    for (const auto &[id, name] : jobs)
        present.insert(id);
    const QSet<qint64> checked = m_checked;
    for (qint64 id : checked) {
        if (!present.contains(id)) {
            m_checked.remove(id);
            Q_EMIT jobToggled(id, false);
        }
    }
    rebuildMenu();
}

void CompareJobsButton::setChecked(qint64 jobId, bool on)
{
    if (on == m_checked.contains(jobId))
        return;
    bool known = false;
    for (const auto &[id, name] : std::as_const(m_candidates))
        known = known || id == jobId;
    if (on && !known)
        return;
    if (on)
        m_checked.insert(jobId);
    else
        m_checked.remove(jobId);
    // In place: this may run inside the action's own toggled signal.
    if (QAction *action = m_actions.value(jobId); action && action->isChecked() != on) {
        const QSignalBlocker blocker(action);
        action->setChecked(on);
    }
    updateText();
    Q_EMIT jobToggled(jobId, on);
}

void CompareJobsButton::rebuildMenu()
{
    QMenu *list = menu();
    list->clear();
    m_actions.clear();
    for (const auto &[id, name] : std::as_const(m_candidates)) {
        QAction *action = list->addAction(name);
        action->setCheckable(true);
        action->setChecked(m_checked.contains(id));
        const qint64 jobId = id;
        m_actions.insert(jobId, action);
        connect(action, &QAction::toggled, this, [this, jobId](bool on) { setChecked(jobId, on); });
    }
    setEnabled(!m_candidates.isEmpty());
    setToolTip(m_candidates.isEmpty()
                   ? tr("No other job of this experiment has metrics to compare with")
                   : tr("Draw other jobs of this experiment over these charts (smoothed training, dashed validation)"));
    updateText();
}

void CompareJobsButton::updateText()
{
    setText(m_checked.isEmpty() ? tr("Compare") : tr("Compare (%1)").arg(m_checked.size()));
}

} // namespace TrainDesk::Ui
