#pragma once

#include <QJsonValue>
#include <QString>
#include <QStringList>
#include <QTextStream>

namespace TrainDesk::Cli {

// A table as `az` prints it: a header row, a rule, then aligned columns.
struct Table
{
    QStringList headers;
    QList<QStringList> rows;

    QString render() const;
};

QString toJsonText(const QJsonValue &value);
// A JSON value as a table (`--query ... -o table`): an array of objects gets a column per
// key (in the order first met), an object a Name/Value row per member, an array of scalars
// and a scalar one Value column. Nested arrays and objects are shown as compact JSON.
Table tableOf(const QJsonValue &value);

} // namespace TrainDesk::Cli
