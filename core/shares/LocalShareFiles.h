#pragma once

#include "common/BeneathFiles.h"
#include "common/Result.h"
#include "store/Entities.h"
#include "transport/TransferOptions.h"
#include "transport/Transport.h"

namespace TrainDesk::LocalShareFiles {

// The files of a local share reached the way common/BeneathFiles does: from the share's
// open folder, component by component, following no link, so that a name swapped for a
// link while an operation runs never leads it out of the share. A link in a path is
// refused with a message that names it (and where it leads, when that is outside).

// The share's folder `relative` (relative to the share), open; made first when `create`.
Result<BeneathFiles::Fd> openFolder(const Share &share, const QString &relative, bool create);
// A message for `error` met on `relative`: a link on the way is named, as is where it leads.
QString refusal(const Share &share, const QString &relative, int error);
// The entries of the share's folder `relative`; links are listed as links.
Result<QList<RemoteFileInfo>> list(const Share &share, const QString &relative);
// Copies the share's file `relative` into `target` (replaced atomically when complete).
VoidResult download(const Share &share, const QString &relative, const QString &target,
                    const TransferOptions &options);
// Removes `relative` (a link itself, never what it points to; a folder with what it holds).
VoidResult remove(const Share &share, const QString &relative);

} // namespace TrainDesk::LocalShareFiles
