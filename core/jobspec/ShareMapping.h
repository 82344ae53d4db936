#pragma once

#include "JobSpec.h"
#include "store/Entities.h"

#include <QList>
#include <QString>
#include <QStringList>

namespace TrainDesk {

// One mountVolumes entry and how TrainDesk reads it. Azure file shares, blob containers and
// file servers name a TrainDesk share, linked at the mount path on every node; unmanaged
// file systems are mounted there by their own command on each node.
struct MountReference
{
    enum class Kind { AzureFileShare, AzureBlobFileSystem, FileServer, UnmanagedFileSystem };
    Kind kind = Kind::AzureFileShare;
    QString path;               // JSON path of the entry
    QString relativeMountPath;  // under $AZ_BATCHAI_JOB_MOUNT_ROOT
    // Names that may be the share's, best first: the last segment of azureFileUrl, the blob
    // container, the file server's name; then relativeMountPath.
    QStringList candidateNames;
    QString sourceDirectory;    // fileServers: the folder of the share to mount
    QString mountCommand;       // unmanagedFileSystems
};

QList<MountReference> mountReferences(const JobSpec &spec);

// The last path segment of a URL or resource ID ("https://<ACCOUNT>.file.core.windows.net/myshare"
// -> "myshare"); query and trailing slashes ignored.
QString lastSegment(const QString &urlOrId);

// The name in `shareNames` that `reference` names, or empty when none (and for unmanaged
// file systems). Exact names first, then names that differ only in case.
QString matchShare(const MountReference &reference, const QStringList &shareNames);

// A mount resolved against the workspace's shares.
struct ShareMount
{
    MountReference reference;
    QString shareName;   // empty for an unmanaged file system
    QString sharePath;   // the share's folder (plus sourceDirectory) on the nodes
};

} // namespace TrainDesk
