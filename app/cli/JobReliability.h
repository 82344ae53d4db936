#pragma once

#include "Command.h"
#include "jobspec/ReliabilitySettings.h"

#include <QJsonObject>
#include <QList>

namespace TrainDesk::Cli {

// `job create`'s retry and progress options (written into the job.json's constraints) and
// what `job show` adds for them: the attempts and the silent ranks.
QList<QCommandLineOption> reliabilityOptions();
Result<ReliabilityOptions> reliabilityOptionsOf(const Context &c);

// Adds "attempt", "attempts" and "silence" to `json` and returns their text lines.
QString addReliability(Context &c, const Job &job, QJsonObject &json);

} // namespace TrainDesk::Cli
