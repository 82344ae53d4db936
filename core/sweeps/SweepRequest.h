#pragma once
// A sweep as asked for (`sweep create`, the GUI's New sweep wizard) and its preview: values
// the GUI fills in and reads back, with no store behind them.
#include "Sweep.h"

#include <QJsonObject>
#include <QList>
#include <QStringList>

#include <optional>

namespace TrainDesk {

// What `sweep create` and the GUI's New sweep wizard ask for.
struct SweepRequest
{
    QString workspace;
    QString experiment;
    QString name;
    QString cluster;
    QByteArray spec;               // the job.json template with PARAM_<NAME> placeholders
    QList<SweepParam> params;
    SweepSampling sampling = SweepSampling::Grid;
    int trials = 0;                // random sampling: how many
    std::optional<qint64> seed;    // random sampling: none draws one (stored, so it can be repeated)
    int maxConcurrent = 1;
    QString metric;
    bool maximize = true;
    QString earlyStop;             // EarlyStopPolicy's text
    bool noContainer = false;
};

struct SweepPreview
{
    QList<QJsonObject> trials;     // each trial's values, in order
    qint64 seed = 0;
    QStringList warnings;          // a parameter the template never names, ...
};

} // namespace TrainDesk
