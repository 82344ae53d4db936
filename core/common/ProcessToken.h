#pragma once

#include <QString>

namespace TrainDesk {

// The token that makes a part file or a lock this process's own: "<host>-<pid>".
QString processToken();
// Whether the process a token names is one of this machine that has ended (a token of
// another host, or of this process, is never gone).
bool processIsGone(const QString &token);

} // namespace TrainDesk
