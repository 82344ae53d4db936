// Store: which sweep holds a job name (its trials are jobs "<sweep>-<n>"), so that no other
// job takes a trial's name and is then taken for the trial.
#include "Store.h"

#include <QRegularExpression>
#include <QSqlQuery>

namespace TrainDesk {

std::optional<std::pair<QString, int>> Store::sweepHoldingJobName(qint64 experimentId, const QString &jobName) const
{
    // The trial number as SweepScheduler writes it: no sign, no leading zero.
    static const QRegularExpression trialName(QStringLiteral("^(.+)-([1-9][0-9]{0,8})$"));
    const auto m = trialName.match(jobName);
    if (!m.hasMatch())
        return std::nullopt;
    QSqlQuery q(m_db);
    q.prepare(QStringLiteral("SELECT trial_count FROM sweeps WHERE experiment_id = ? AND name = ?"));
    q.addBindValue(experimentId);
    q.addBindValue(m.captured(1));
    const int index = m.captured(2).toInt();
    if (!q.exec() || !q.next() || index > q.value(0).toInt())
        return std::nullopt;
    return std::make_pair(m.captured(1), index);
}

} // namespace TrainDesk
