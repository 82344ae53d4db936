#pragma once

#include <QByteArray>
#include <QJsonObject>

namespace TrainDesk::Ui::OrderedJson {

// The JSON text of `root`, indented as QJsonDocument indents, with the members of each object
// in the order they have in `previous` (an earlier JSON text of the same document) and new
// members after them, alphabetically. QJsonObject sorts its keys: without this, a change
// made in the form would reorder the whole job.json the user wrote.
QByteArray indented(const QJsonObject &root, const QByteArray &previous);

} // namespace TrainDesk::Ui::OrderedJson
