#pragma once

#include <QJsonObject>
#include <QJsonValue>
#include <QList>
#include <QString>

namespace TrainDesk::Ui::JsonPath {

// Reading and writing one value of a JSON document by the paths the core's issues use
// ("properties.outputDirectories[0].id"). Editing only: the checks are the core's.
struct Segment
{
    QString key;     // an object member, or
    int index = -1;  // an array element when >= 0
};

QList<Segment> split(const QString &path);
// Undefined when the path leads nowhere.
QJsonValue valueAt(const QJsonValue &root, const QString &path);
// `root` with the value at `path` replaced; an undefined value removes the member (or
// element). Objects and arrays on the way are created as needed.
QJsonObject withValue(const QJsonObject &root, const QString &path, const QJsonValue &value);

} // namespace TrainDesk::Ui::JsonPath
