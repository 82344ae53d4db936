#include "OutputFormat.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace TrainDesk::Cli {

namespace {

// A newline or an escape sequence in a name or a path would break the table or drive the
// terminal: control characters are shown as \n, \t, \r or \xNN.
QString escaped(const QString &cell)
{
    QString out;
    for (const QChar c : cell) {
        if (c == QLatin1Char('\n'))
            out += QStringLiteral("\\n");
        else if (c == QLatin1Char('\t'))
            out += QStringLiteral("\\t");
        else if (c == QLatin1Char('\r'))
            out += QStringLiteral("\\r");
        else if (c.unicode() < 0x20 || c.unicode() == 0x7f || (c.unicode() >= 0x80 && c.unicode() < 0xa0))
            out += QStringLiteral("\\x%1").arg(c.unicode(), 2, 16, QLatin1Char('0'));
        else
            out += c;
    }
    return out;
}

} // namespace

QList<int> Table::widthsOf(const QStringList &headers)
{
    QList<int> widths;
    for (const QString &h : headers)
        widths.append(int(escaped(h).size()));
    return widths;
}

void Table::widen(QList<int> &widths, const QStringList &cells)
{
    for (int i = 0; i < cells.size() && i < widths.size(); ++i)
        widths[i] = qMax(widths[i], int(escaped(cells.at(i)).size()));
}

QString Table::line(const QStringList &cells, const QList<int> &widths)
{
    QStringList padded;
    for (int i = 0; i < widths.size(); ++i)
        padded << escaped(cells.value(i)).leftJustified(widths[i]);
    return padded.join(QStringLiteral("  ")).trimmed() + QLatin1Char('\n');
}

QString Table::rule(const QList<int> &widths)
{
    QStringList rules;
    for (int w : widths)
        rules << QString(w, QLatin1Char('-'));
    return rules.join(QStringLiteral("  ")) + QLatin1Char('\n');
}

QString Table::render() const
{
    QList<int> widths = widthsOf(headers);
    for (const QStringList &row : rows)
        widen(widths, row);
    QString text = line(headers, widths) + rule(widths);
    for (const QStringList &row : rows)
        text += line(row, widths);
    return text;
}

namespace {

QString cellOf(const QJsonValue &value)
{
    switch (value.type()) {
    case QJsonValue::String:
        return value.toString();
    case QJsonValue::Null:
    case QJsonValue::Undefined:
        return QString();
    case QJsonValue::Array:
        return QString::fromUtf8(QJsonDocument(value.toArray()).toJson(QJsonDocument::Compact));
    case QJsonValue::Object:
        return QString::fromUtf8(QJsonDocument(value.toObject()).toJson(QJsonDocument::Compact));
    default:
        return toJsonText(value).trimmed();
    }
}

} // namespace

Table tableOf(const QJsonValue &value)
{
    Table t;
    if (value.isObject()) {
        t.headers = QStringList{QStringLiteral("Name"), QStringLiteral("Value")};
        const QJsonObject object = value.toObject();
        for (auto it = object.constBegin(); it != object.constEnd(); ++it)
            t.rows.append({it.key(), cellOf(it.value())});
        return t;
    }
    const QJsonArray array = value.isArray() ? value.toArray() : QJsonArray{value};
    bool objects = !array.isEmpty();
    for (const QJsonValue &v : array)
        objects = objects && v.isObject();
    if (!objects) {
        t.headers = QStringList{QStringLiteral("Value")};
        for (const QJsonValue &v : array)
            t.rows.append({cellOf(v)});
        return t;
    }
    for (const QJsonValue &v : array) {
        const QStringList keys = v.toObject().keys();
        for (const QString &k : keys) {
            if (!t.headers.contains(k))
                t.headers << k;
        }
    }
    for (const QJsonValue &v : array) {
        const QJsonObject o = v.toObject();
        QStringList row;
        for (const QString &k : std::as_const(t.headers))
            row << cellOf(o.value(k));
        t.rows.append(row);
    }
    return t;
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
