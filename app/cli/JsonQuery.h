#pragma once

#include "common/Result.h"

#include <QJsonValue>

namespace TrainDesk::Cli {

// `--query`: the part of a command's JSON view that a path names, as `az --query` takes
// the simple paths of its examples: fields joined by dots (`nodeStateCounts.idleNodeCount`),
// an element by index (`nodes[0].name`, `[-1]` from the end) and every element (`nodes[*].state`
// or `nodes[].state`, a list; elements without the rest of the path are left out) and
// multiselect hashes (`[].{name:name, state:state}`: an object per element, null where a
// path finds nothing). A field
// missing outside such a list is an error naming the path up to it.
Result<QJsonValue> queryJson(const QJsonValue &root, const QString &path);

} // namespace TrainDesk::Cli
