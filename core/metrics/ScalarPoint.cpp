#include "ScalarPoint.h"

#include "MetricRecord.h"

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
    // Read as every stored record is (MetricRecord): one decoder.
    const auto record = MetricRecord::fromJson(json);
    return record ? record->toScalar() : std::nullopt;
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
