#pragma once

#include "Result.h"

#include <QString>

namespace TrainDesk::DataDirectoryCheck {

// The data directory holds the database (which jobs run, as whom), the agent's socket and
// log, the SSH keys and the secret key: whoever can change them acts as this user. So, as
// OpenSSH's StrictModes does, it is refused unless it and every folder above it are owned by
// this user (or root) and writable by no one else (a sticky folder such as /tmp, owned by
// root, is fine: others cannot rename what is ours in it), and unless its files (database,
// socket, logs, keys) are this user's, not links, and not writable by group or others. A
// missing data directory is made, mode 0700. The message names the path and the fix.
VoidResult verify(const QString &dataDirectory);

} // namespace TrainDesk::DataDirectoryCheck
