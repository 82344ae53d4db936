#pragma once

#include "cluster/TransportFactory.h"
#include "metrics/TensorBoardImport.h"

#include "common/Result.h"

#include <QString>

namespace TrainDesk {

class Store;

// TensorBoard folders on a cluster's nodes and shares, read over SFTP in place
// (`traindesk runs import --cluster C [--node N] DIR`, `--share S [PATH]`, the GUI's Open
// TensorBoard folder on a node): the place such a folder is read from, and the opener that
// every later reader of such a run (charts, `runs export`) goes through to reach its node.
// Logins check the node's host key against TrainDesk's known hosts, as every login does.
namespace ImportedRunNodes {

// Lets this process read the runs imported from nodes (metrics/EventFiles's opener): the CLI
// and the GUI's worker call it once at start.
void install();

// Node `node` of cluster `cluster` (empty: its first node).
Result<TensorBoardImport::Place> nodePlace(const Store &store, const QString &workspace, const QString &cluster,
                                           const QString &node, const TransportOptions &options = {});

// A folder under a share: `path` relative to it ("" for the share itself, never out of it with
// ".."). A local share's folder is on this machine; a cluster share's on the cluster's first
// node (or `node`); a replicated share's on each node, `node` or the first.
struct ShareFolder
{
    TensorBoardImport::Place place;
    QString folder;  // absolute, where `place` sees it
};
Result<ShareFolder> shareFolder(const Store &store, const QString &workspace, const QString &share, const QString &path,
                                const QString &node, const TransportOptions &options = {});

} // namespace ImportedRunNodes
} // namespace TrainDesk
