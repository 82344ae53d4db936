#pragma once

#include "common/Result.h"

#include <QString>

namespace TrainDesk {

// A private key must be a regular file before anything reads it: a FIFO given as the key
// would block the login forever, /dev/zero never ends, /dev/null and a folder hold no key,
// and OpenSSH's "chmod 600" advice would mislead for each of them. A missing file is left to
// the login, which names it.
VoidResult checkPrivateKeyFile(const QString &path);

} // namespace TrainDesk
