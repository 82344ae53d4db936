#include "OutputFormat.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace TrainDesk::Cli {

QString Table::render() const
{
    QList<int> widths;
    for (const QString &h : headers)
        widths.append(h.size());
    for (const QStringList &row : rows) {
        for (int i = 0; i < row.size() && i < widths.size(); ++i)
            widths[i] = qMax(widths[i], int(row.at(i).size()));
    }
    auto line = [&](const QStringList &cells) {
        QStringList padded;
        for (int i = 0; i < widths.size(); ++i)
            padded << cells.value(i).leftJustified(widths[i]);
        return padded.join(QStringLiteral("  ")).trimmed() + QLatin1Char('\n');
    };
    QString text = line(headers);
    QStringList rules;
    for (int w : widths)
        rules << QString(w, QLatin1Char('-'));
    text += rules.join(QStringLiteral("  ")) + QLatin1Char('\n');
    for (const QStringList &row : rows)
        text += line(row);
    return text;
}

QString toJsonText(const QJsonValue &value)
{
    if (value.isArray())
        return QString::fromUtf8(QJsonDocument(value.toArray()).toJson(QJsonDocument::Indented));
    if (value.isObject())
        return QString::fromUtf8(QJsonDocument(value.toObject()).toJson(QJsonDocument::Indented));
    // A scalar: wrap and unwrap, so strings get JSON quoting.
    const QByteArray wrapped = QJsonDocument(QJsonArray{value}).toJson(QJsonDocument::Compact);
    return QString::fromUtf8(wrapped.mid(1, wrapped.size() - 2)) + QLatin1Char('\n');
}

} // namespace TrainDesk::Cli
