#pragma once

#include "common/Result.h"

#include <QString>

namespace TrainDesk::FileDigest {

// The MD5 of a file on this machine, lower-case hex (the form data set publishers list).
Result<QString> md5(const QString &path);
// The MD5 of a gzip file's decompressed contents (all members, as zcat prints them); a
// failure for a file that is not gzip or is cut short.
Result<QString> gunzippedMd5(const QString &path);

} // namespace TrainDesk::FileDigest
