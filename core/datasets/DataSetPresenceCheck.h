#pragma once
// Reads a share's folder to say how much of a data set it holds (DataSetPresence).
#include "DataSetCatalogue.h"
#include "DataSetPresence.h"
#include "common/Result.h"
#include "store/Entities.h"

namespace TrainDesk {

class ShareService;

// `set` in folder `directory` of `share` (remote shares are read on their head node, so
// this blocks: run it off the GUI thread). Fetched means: each file is there with the size
// that the manifest written by its fetch lists, together with the data set's checksum.
Result<DataSetPresence> presenceInShare(ShareService &shares, const Share &share, const QString &directory,
                                        const DataSet &set);

} // namespace TrainDesk
