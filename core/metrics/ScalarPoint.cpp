#include "ScalarPoint.h"

#include <QJsonDocument>
#include <QJsonObject>

namespace TrainDesk {

QByteArray ScalarPoint::toJson() const
{
    QJsonObject o{{"time", time}, {"kind", "scalar"}, {"name", name}, {"source", source}, {"file", file}};
    // JSON has no NaN or infinity: such values are kept as text.
    o.insert("value", std::isfinite(value) ? QJsonValue(value) : QJsonValue(QString::number(value)));
    if (step >= 0)
        o.insert("step", step);
    if (std::isfinite(epoch))
        o.insert("epoch", epoch);
    if (rank >= 0)
        o.insert("rank", rank);
    if (!tag.isEmpty() && tag != name)
        o.insert("tag", tag);
    return QJsonDocument(o).toJson(QJsonDocument::Compact);
}

std::optional<ScalarPoint> ScalarPoint::fromJson(const QByteArray &json)
{
    const QJsonObject o = QJsonDocument::fromJson(json).object();
    if (o.value("kind").toString() != QLatin1String("scalar") || !o.value("name").isString())
        return std::nullopt;
    ScalarPoint p;
    p.time = o.value("time").toDouble();
    p.name = o.value("name").toString();
    const QJsonValue value = o.value("value");
    p.value = value.isDouble() ? value.toDouble() : value.toString().toDouble();
    if (value.isString() && value.toString() == QLatin1String("nan"))
        p.value = NAN;
    p.step = o.contains("step") ? counterOf(o.value("step").toDouble()) : -1;
    p.epoch = o.contains("epoch") ? o.value("epoch").toDouble() : NAN;
    p.source = o.value("source").toString();
    p.file = o.value("file").toString();
    p.rank = o.value("rank").toInt(-1);
    p.tag = o.value("tag").toString(p.name);
    return p;
}

QString ScalarPoint::origin() const
{
    QString text = file;
    if (rank >= 0)
        text += QStringLiteral(" (rank %1)").arg(rank);
    if (tag != name)
        text += QStringLiteral(" tag %1").arg(tag);
    return text;
}

} // namespace TrainDesk
