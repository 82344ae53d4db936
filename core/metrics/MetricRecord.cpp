#include "MetricRecord.h"

#include "ScalarPoint.h"

#include <QJsonDocument>
#include <QJsonObject>

namespace TrainDesk {

std::optional<MetricRecord> MetricRecord::fromJson(const QByteArray &line)
{
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(line, &error);
    if (error.error != QJsonParseError::NoError || !doc.isObject())
        return std::nullopt;
    const QJsonObject o = doc.object();
    if (!o.value(QLatin1String("kind")).isString())
        return std::nullopt;
    auto number = [&](const char *key) {
        const QJsonValue v = o.value(QLatin1String(key));
        return v.isDouble() ? v.toDouble() : NAN;
    };
    auto integer = [&](const char *key) {
        const QJsonValue v = o.value(QLatin1String(key));
        return v.isDouble() ? counterOf(v.toDouble()) : qint64(-1);
    };
    MetricRecord r;
    r.time = number("time");
    r.kind = o.value(QLatin1String("kind")).toString();
    r.epoch = int(integer("epoch"));
    r.step = integer("step");
    r.globalStep = integer("global_step");
    r.rank = int(integer("rank"));
    r.loss = number("loss");
    r.acc = number("acc");
    r.valLoss = number("val_loss");
    r.valAcc = number("val_acc");
    r.lr = number("lr");
    r.imagesPerSec = number("images_per_sec");
    r.seconds = number("seconds");
    r.workers = int(integer("workers"));
    r.epochs = int(integer("epochs"));
    r.startEpoch = int(integer("start_epoch"));
    r.stepsPerEpoch = integer("steps_per_epoch");
    if (r.kind == QLatin1String("scalar")) {
        r.name = o.value(QLatin1String("name")).toString();
        r.value = o.value(QLatin1String("value")).isDouble() ? number("value")
                                                              : o.value(QLatin1String("value")).toString().toDouble();
        r.file = o.value(QLatin1String("file")).toString();
        r.epochValue = number("epoch");
    }
    return r;
}

MetricRecord MetricRecord::fromScalar(const ScalarPoint &p)
{
    MetricRecord r;
    r.time = p.time;
    r.kind = QStringLiteral("scalar");
    r.step = p.step;
    r.epoch = std::isfinite(p.epoch) ? int(counterOf(p.epoch)) : -1;
    r.rank = p.rank;
    r.name = p.name;
    r.value = p.value;
    r.file = p.file;
    r.epochValue = p.epoch;
    return r;
}

} // namespace TrainDesk
