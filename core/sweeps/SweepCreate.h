#pragma once

#include "Sweep.h"
#include "common/Result.h"

#include <QStringList>

namespace TrainDesk {

class Store;

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

// Checks a request all the way (names, parameters, the template with every trial's values
// put in, the early-stopping policy) and, for create, stores the sweep; the agent runs it.
namespace SweepCreate {

Result<SweepPreview> preview(Store &store, const SweepRequest &request);
Result<Sweep> create(Store &store, const SweepRequest &request, QStringList *warnings = nullptr);

} // namespace SweepCreate
} // namespace TrainDesk
