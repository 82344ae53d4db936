#pragma once

#include "ShareUpload.h"
#include "transport/TransferOptions.h"
#include "transport/Transport.h"

#include <QList>

#include <memory>

namespace TrainDesk {

// Copies local files into one folder on one or more nodes (a cluster share's head node, or
// every node of a replicated share) so that nothing is lost or mixed:
// - each file goes to a staged copy of this upload's own on every node first, in the node
//   user's private staging folder (written by name over SFTP, where no other user can swap a
//   name), and is moved from there into a part file of the share's folder, which is entered
//   without following links (NodeShareCommands);
// - then, holding a lock folder on the first node (one left by a killed upload is broken),
//   the staged files are renamed into place on every node, so that of several uploads of
//   one name the last to commit wins on every node alike (never one here, another there);
// - a node that fails is left out and the others go on; the outcome's error names every
//   node that failed and why, and which nodes have the files;
// - part files of killed uploads (StaleParts::isStale) are removed from the folder first.
namespace NodeUpload {

struct Target
{
    QString nodeName;
    std::shared_ptr<Transport> transport;
    QString error;  // why the node cannot take the files, found before the upload (it is reported)
};

// The lock folder's name in the upload folder; listings hide it.
QString lockName();

// `what` names the share in messages ("share 'rep'"); the files go to `relative` of `root`.
ShareUpload::Outcome copy(const QString &what, const QList<Target> &nodes, const QString &root, const QString &relative,
                          const QStringList &files,
                          qint64 totalBytes, const CancelFlag *cancel, const ShareUpload::Progress &progress);

} // namespace NodeUpload
} // namespace TrainDesk
