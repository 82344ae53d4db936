#pragma once

#include "DataSetFetcher.h"
#include "store/Entities.h"

namespace TrainDesk {

class ShareService;

struct ShareFetchOutcome
{
    QString folder;        // where the files are: on this machine (local share) or on the nodes
    FetchOutcome fetched;  // what the fetch did on this machine
    int uploaded = 0;      // files copied to the nodes (cluster and replicated shares)
};

// Puts a data set into folder `directory` of a share, so every node reads one copy and
// nothing is fetched per rank. A local share's folder is on this machine: the fetcher works
// in it directly. A cluster or replicated share's files are on the nodes: the data set is
// fetched and verified into this machine's cache (<data directory>/datasets/<name>, kept for
// the next share) and copied with ShareService's upload (atomic on each node), unless the
// share's copy of the manifest already lists the same checksums and the files have its sizes.
Result<ShareFetchOutcome> fetchIntoShare(ShareService &shares, const Share &share, const QString &directory,
                                         const DataSet &set, const FetchOptions &options);

} // namespace TrainDesk
