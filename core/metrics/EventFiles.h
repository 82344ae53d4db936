#pragma once

#include "common/Result.h"

#include <QByteArray>
#include <QDateTime>
#include <QList>
#include <QString>

#include <functional>
#include <memory>
#include <optional>

namespace TrainDesk {

class Store;
class Transport;

// Where a TensorBoard folder's files are read from: this machine's file system
// (localEventFiles) or a node of a cluster, over its transport: SFTP for an SSH node
// (nodeEventFiles). The folder walk (TensorBoardFolder), the import (TensorBoardImport) and
// the rows' reader (ImportedRunRows) all read through this, so the decoder is written once
// and knows nothing of where the bytes come from. Only reads: nothing is ever written there.
// Calls block (a node's may take the login's timeout): never on the GUI thread.
class EventFiles
{
public:
    virtual ~EventFiles() = default;

    struct Entry
    {
        enum Kind { File, Folder, Other };  // Other: a link (never followed), a socket, ...
        QByteArray name;
        Kind kind = Other;
    };

    // Where the files are, said before a path in messages: "" here, "node n1 of cluster
    // 'gpu': " on a node.
    virtual QString place() const = 0;
    // A folder's entries, unsorted; nothing when the folder is gone (or is not a folder).
    virtual Result<std::optional<QList<Entry>>> list(const QByteArray &folder) = 0;
    struct FileState
    {
        qint64 size = 0;
        QDateTime modified;
    };
    // A file's size and time now; nothing when it is gone.
    virtual Result<std::optional<FileState>> stat(const QByteArray &path) = 0;
    // Up to `maxBytes` of `path` from `offset` (fewer at its end).
    virtual Result<QByteArray> readAt(const QByteArray &path, qint64 offset, qint64 maxBytes) = 0;
    // Whether reading several files at once from several threads pays (a node's SFTP
    // requests go one connection each: read its runs one after the other).
    virtual bool parallel() const = 0;
};

// This machine's files, by their bytes (names that are not UTF-8 open), links not followed.
std::shared_ptr<EventFiles> localEventFiles();
// A node's files through `transport` (SshTransport: SFTP, host key checked as for every
// login), described as `place`. Paths are UTF-8 on the wire.
std::shared_ptr<EventFiles> nodeEventFiles(std::shared_ptr<Transport> transport, const QString &place);

// How an imported run that lives on a node (its job row names a cluster and node) is reached.
// Logging in to a node needs the cluster's credentials, which a layer above this one reads:
// it installs the opener (cluster/ImportedRunNodes) when the process starts.
using NodeEventFilesOpener = std::function<Result<std::shared_ptr<EventFiles>>(const Store &, qint64 jobId)>;
void setNodeEventFilesOpener(NodeEventFilesOpener opener);
// The files of imported run `jobId`: here when its job has no node, else the opener's.
Result<std::shared_ptr<EventFiles>> eventFilesOfRun(const Store &store, qint64 jobId);

} // namespace TrainDesk
