#pragma once
// One entry of a folder listed on a node (or a local share).
#include <QDateTime>
#include <QString>

namespace TrainDesk {

struct RemoteFileInfo
{
    QString name;
    qint64 size = 0;
    QDateTime modified;
    bool isDirectory = false;
    // A symbolic link is listed as one (never as what it points to), with where it points.
    bool isLink = false;
    QString linkTarget;
};

} // namespace TrainDesk
