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

    // The pieces of render(), for a table printed a row at a time (its widths measured in a
    // first pass): a row's line, the rule under the headers, and widths grown to fit a row.
    static QList<int> widthsOf(const QStringList &headers);
    static void widen(QList<int> &widths, const QStringList &cells);
    static QString line(const QStringList &cells, const QList<int> &widths);
    static QString rule(const QList<int> &widths);
};

QString toJsonText(const QJsonValue &value);
// A JSON value as a table (`--query ... -o table`): an array of objects gets a column per
// key (in the order first met), an object a Name/Value row per member, an array of scalars
// and a scalar one Value column. Nested arrays and objects are shown as compact JSON.
Table tableOf(const QJsonValue &value);

} // namespace TrainDesk::Cli
