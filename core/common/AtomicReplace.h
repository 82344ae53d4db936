#pragma once

#include "Result.h"

#include <QLatin1String>
#include <QString>

namespace TrainDesk::AtomicReplace {

// Files on this machine written so that nothing is lost or mixed: each writer has its own
// temporary file beside the target (".NAME.<host>-<pid>-<random>.traindesk-part", which
// listings hide) and renames it into place with rename(2), which replaces the target in one
// step. Of several writers of one name, the last to finish wins whole.
inline constexpr QLatin1String partSuffix(".traindesk-part");

// The writer's own part file for `target`, beside it (the token is processToken()'s).
QString uniquePartPath(const QString &target);
bool isPartFile(const QString &fileName);
// Renames `part` over `target` in one step; the part is removed when that fails, and a
// folder at `target` is never replaced.
VoidResult replace(const QString &part, const QString &target);

} // namespace TrainDesk::AtomicReplace
