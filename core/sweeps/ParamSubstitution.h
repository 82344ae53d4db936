#pragma once

#include "common/Result.h"

#include <QByteArray>
#include <QJsonObject>
#include <QStringList>

namespace TrainDesk {

// A trial's job.json: every string of the template (at any depth, keys left as they are)
// with PARAM_<NAME> replaced by the trial's value of NAME, and PARAM_<NAME>__<KEY> by the
// value under KEY of a DictParam's object. Longest names first, so PARAM_LR_DECAY is not
// PARAM_LR followed by "_DECAY". In shell text (commandLine, commandLineArgs) a value is one
// shell word (ShellPlaceholder): `a;touch X` is an argument, never a command; a value meant
// as several words goes through an environment variable ($EXTRA, which the shell splits).
namespace ParamSubstitution {

struct Outcome
{
    QByteArray json;
    QStringList unknown;  // "properties.x: PARAM_FOO": placeholders no parameter fills
    QStringList unused;   // parameter names that appear nowhere in the template
};

Result<Outcome> apply(const QByteArray &jobJson, const QJsonObject &values);

} // namespace ParamSubstitution
} // namespace TrainDesk
