#pragma once

#include "Result.h"

#include <QString>

namespace TrainDesk::PathConfinement {

// `path` (absolute, on this machine) with every symbolic link resolved, refused when it
// leaves `root`: "'<path>' is outside <what> <root>". Missing trailing parts are fine.
Result<QString> confined(const QString &root, const QString &path, const QString &what);
// The same check run on a node, as one shell command: prints the resolved path, exits 3
// when it leaves the root.
QString confinedCommand(const QString &root, const QString &path);
// Whether `path` is `root` or lies below it, by the text alone (no link resolved): for
// paths a plan writes itself, such as a job's folders on a node.
bool isUnder(const QString &path, const QString &root);

} // namespace TrainDesk::PathConfinement
