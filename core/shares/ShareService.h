#pragma once

#include "common/Result.h"
#include "ShareUpload.h"
#include "store/Entities.h"
#include "transport/TransferOptions.h"
#include "transport/Transport.h"

#include <memory>

namespace TrainDesk {

class Store;

struct CreateShareRequest
{
    QString workspace;
    QString name;
    ShareKind kind = ShareKind::Local;
    // local: a folder on this machine (empty: under the data directory); cluster and
    // replicated: an absolute path on the nodes.
    QString path;
    QString cluster;  // cluster and replicated shares: the cluster whose nodes hold it
};

// What `ShareService::download` placed.
struct ShareDownload
{
    QString localPath;
    bool unchanged = false;  // a local file with the same bytes was there already: left as it was
};

// Shares and their files, for the CLI and the GUI's worker. A local share is a folder on
// this machine; a cluster share a path every node of its cluster sees (NFS, say), written
// and read through the head node; a replicated share a folder on every node: uploads go to
// each, reads come from the head node. Calls that reach nodes block: run them off the GUI
// thread. Every failure names the share and, where one is involved, the node.
class ShareService
{
public:
    explicit ShareService(Store &store);

    // Refused requests leave nothing behind: no record, no folder that was not there.
    Result<Share> create(const CreateShareRequest &request);
    // The record only: the files stay where they are.
    VoidResult remove(const QString &workspace, const QString &name);
    Result<QList<Share>> list(const QString &workspace) const;
    Result<Share> find(const QString &workspace, const QString &name) const;
    // The cluster's name of a cluster or replicated share, empty for a local one.
    QString clusterName(const Share &share) const;

    // Makes `directory` (relative to the share) and returns its absolute path.
    Result<QString> createDirectory(const Share &share, const QString &directory);
    // Copies local files into `directory` of the share (every node for replicated ones).
    // Progress counts the bytes over all files and nodes. Each file is written under a
    // temporary name and renamed when complete, so a cancel leaves no file under its name.
    ShareUpload::Outcome upload(const Share &share, const QString &directory, const QStringList &files,
                                const CancelFlag *cancel = nullptr, const ShareUpload::Progress &progress = {});
    // The entries of `directory` of the share (the head node's for remote kinds).
    Result<QList<RemoteFileInfo>> listFiles(const Share &share, const QString &directory);
    // Copies `file` of the share into the local folder `destination`. A local file of that
    // name is never replaced silently (as job downloads): the same bytes leave it as it is
    // (`unchanged`), other bytes refuse the download, naming it, unless `overwrite`.
    Result<ShareDownload> download(const Share &share, const QString &file, const QString &destination,
                                   const TransferOptions &options = {}, bool overwrite = false);
    // The same to the local file `target` (replaced when complete, atomically).
    Result<QString> downloadAs(const Share &share, const QString &file, const QString &target,
                               const TransferOptions &options = {});
    // Deletes the file or folder `path` of the share (a folder with all it holds; a link
    // itself, never what it points to) on every node that holds it. Refuses the share's own
    // folder and paths that leave the share, also through a link.
    VoidResult deletePath(const Share &share, const QString &path);
    // The share's top-level folders, by name; reaches the head node for remote kinds.
    Result<QStringList> folders(const Share &share);

    // Where a local share created without a path keeps its files.
    static QString defaultLocalPath(const QString &workspace, const QString &name);

private:
    struct NodeTransport
    {
        Node node;
        std::shared_ptr<Transport> transport;
    };
    // The share's nodes: the head node alone, or every node of the cluster (parked ones too,
    // so that a node that rejoins has the files).
    Result<QList<NodeTransport>> nodesOf(const Cluster &cluster, bool headOnly) const;
    Result<QList<NodeTransport>> nodesOf(const Share &share, bool headOnly) const;
    Result<Share> createLocal(const Share &share);
    Result<Share> createOnNodes(const Share &share, const Cluster &cluster);
    // Fails when a node other than the head does not see the file the head writes into
    // the path: the path is not shared.
    VoidResult checkShared(const Share &share, const QList<NodeTransport> &nodes);

    Store &m_store;
};

} // namespace TrainDesk
