#pragma once

#include "common/Result.h"

#include <QByteArray>
#include <QList>
#include <QString>
#include <QStringList>

namespace TrainDesk {

class EventFiles;

// The runs of a TensorBoard log folder, found as TensorBoard finds them: a run is any folder
// (the root included) that directly holds event files (a name with "tfevents": PyTorch's,
// TensorFlow's `.v2`, CatBoost's bare `events.out.tfevents`), named by its path under the
// root ("." for the root itself). Paths are the file system's bytes, so a name that is not
// UTF-8 is still opened; it is shown with its odd bytes as \xNN. Links are not followed (a
// link cannot lead the walk in a circle or out of the folder), and nothing is written.
namespace TensorBoardFolder {

struct Run
{
    QByteArray folder;          // absolute, bytes
    QString name;               // TensorBoard's run name, shown
    QList<QByteArray> files;    // event file names in it, sorted (the order TensorBoard reads them)
};

struct Scan
{
    QList<Run> runs;            // sorted by name
    QStringList problems;       // folders that could not be listed (named), the walk went on
    qint64 filesSeen = 0;
};

// The whole tree under `root` (absolute bytes) as `files` sees it; a root that cannot be
// listed (or is gone) is a failure, named with its place.
Result<Scan> scan(EventFiles &files, const QByteArray &root);

// Bytes of a path or name as text: UTF-8, with each byte that is not shown as \xNN.
QString displayName(const QByteArray &bytes);

} // namespace TensorBoardFolder
} // namespace TrainDesk
