#include "Sweep.h"

namespace TrainDesk {

namespace {

template<typename E, size_t N>
std::optional<E> lookup(const QString &text, const std::pair<E, const char *> (&table)[N])
{
    for (const auto &[value, name] : table) {
        if (text == QLatin1String(name))
            return value;
    }
    return std::nullopt;
}

template<typename E, size_t N>
QString name(E value, const std::pair<E, const char *> (&table)[N])
{
    for (const auto &[v, n] : table) {
        if (v == value)
            return QString::fromLatin1(n);
    }
    return {};
}

const std::pair<SweepSampling, const char *> samplings[] = {{SweepSampling::Grid, "grid"}, {SweepSampling::Random, "random"}};
const std::pair<SweepState, const char *> states[] = {{SweepState::Running, "running"},
                                                      {SweepState::Stopping, "stopping"},
                                                      {SweepState::Stopped, "stopped"},
                                                      {SweepState::Completed, "completed"},
                                                      {SweepState::Failed, "failed"}};
const std::pair<TrialStatus, const char *> statuses[] = {
    {TrialStatus::Pending, "pending"},        {TrialStatus::Submitted, "submitted"}, {TrialStatus::Refused, "refused"},
    {TrialStatus::EarlyStopped, "early-stopped"}, {TrialStatus::Stopped, "stopped"}, {TrialStatus::Skipped, "skipped"}};

} // namespace

QString toString(SweepSampling sampling) { return name(sampling, samplings); }
QString toString(SweepState state) { return name(state, states); }
QString toString(TrialStatus status) { return name(status, statuses); }
std::optional<SweepSampling> sweepSamplingFromString(const QString &text) { return lookup(text, samplings); }
std::optional<SweepState> sweepStateFromString(const QString &text) { return lookup(text, states); }
std::optional<TrialStatus> trialStatusFromString(const QString &text) { return lookup(text, statuses); }

} // namespace TrainDesk
