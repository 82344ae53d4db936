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

} // namespace TrainDesk::Cli
