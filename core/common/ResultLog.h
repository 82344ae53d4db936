#pragma once

#include "common/Result.h"

#include <QtGlobal>

namespace TrainDesk {

// For results no caller can act on (a background write of the agent, a node state seen in
// passing): the failure goes to the log of the process (the agent's log file, the GUI's or
// the CLI's stderr) as "traindesk: <what>: <why>", never dropped silently. Returns ok().
template<typename T>
bool logFailure(const Result<T> &result, const QString &what)
{
    if (!result.ok())
        qWarning("traindesk: %s: %s", qPrintable(what), qPrintable(result.error()));
    return result.ok();
}

// A result deliberately not looked at; `why` says why, where it is dropped (a clean-up that
// a later sweep repeats, a wait whose end is checked by other means).
template<typename T>
void ignoreResult(const Result<T> &, const char *why)
{
    Q_UNUSED(why);
}

} // namespace TrainDesk
