#include "JsonPath.h"

#include <QJsonArray>

namespace TrainDesk::Ui::JsonPath {

QList<Segment> split(const QString &path)
{
    QList<Segment> segments;
    QString key;
    for (qsizetype i = 0; i < path.size(); ++i) {
        const QChar c = path.at(i);
        if (c == QLatin1Char('.')) {
            if (!key.isEmpty())
                segments.append({key, -1});
            key.clear();
        } else if (c == QLatin1Char('[')) {
            if (!key.isEmpty())
                segments.append({key, -1});
            key.clear();
            const qsizetype close = path.indexOf(QLatin1Char(']'), i);
            if (close < 0)
                break;
            segments.append({{}, path.mid(i + 1, close - i - 1).toInt()});
            i = close;
        } else {
            key += c;
        }
    }
    if (!key.isEmpty())
        segments.append({key, -1});
    return segments;
}

QJsonValue valueAt(const QJsonValue &root, const QString &path)
{
    QJsonValue node = root;
    for (const Segment &s : split(path)) {
        if (s.index >= 0) {
            const QJsonArray array = node.toArray();
            if (!node.isArray() || s.index >= array.size())
                return QJsonValue(QJsonValue::Undefined);
            node = array.at(s.index);
        } else {
            if (!node.isObject() || !node.toObject().contains(s.key))
                return QJsonValue(QJsonValue::Undefined);
            node = node.toObject().value(s.key);
        }
    }
    return node;
}

namespace {

QJsonValue replaced(const QJsonValue &node, const QList<Segment> &segments, qsizetype at, const QJsonValue &value)
{
    if (at == segments.size())
        return value;
    const Segment &s = segments.at(at);
    if (s.index >= 0) {
        QJsonArray array = node.toArray();
        const QJsonValue child = replaced(s.index < array.size() ? array.at(s.index) : QJsonValue(),
                                          segments, at + 1, value);
        if (child.isUndefined()) {
            if (s.index < array.size())
                array.removeAt(s.index);
        } else {
            while (array.size() <= s.index)
                array.append(QJsonValue());
            array.replace(s.index, child);
        }
        return array;
    }
    QJsonObject object = node.toObject();
    const QJsonValue child = replaced(object.value(s.key), segments, at + 1, value);
    if (child.isUndefined())
        object.remove(s.key);
    else
        object.insert(s.key, child);
    return object;
}

} // namespace

QJsonObject withValue(const QJsonObject &root, const QString &path, const QJsonValue &value)
{
    const QList<Segment> segments = split(path);
    if (segments.isEmpty())
        return value.isObject() ? value.toObject() : root;
    if (value.isUndefined() && valueAt(root, path).isUndefined())
        return root;  // nothing to remove: no empty objects on the way either
    return replaced(root, segments, 0, value).toObject();
}

} // namespace TrainDesk::Ui::JsonPath
