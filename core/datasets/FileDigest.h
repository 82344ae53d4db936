#pragma once

#include "common/Result.h"

#include <QString>

namespace TrainDesk::FileDigest {

// The MD5 of a file on this machine, lower-case hex (the form data set publishers list).
Result<QString> md5(const QString &path);

} // namespace TrainDesk::FileDigest
