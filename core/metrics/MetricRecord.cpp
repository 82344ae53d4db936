#include "MetricRecord.h"

#include "ScalarPoint.h"

#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace TrainDesk {

namespace {

// The numeric fields MetricRecord names, by their JSON names (docs/METRICS.md).
enum class Field { None, Time, Epoch, Step, GlobalStep, Rank, Loss, Acc, ValLoss, ValAcc, Lr, ImagesPerSec, Seconds,
                   Workers, Epochs, StartEpoch, StepsPerEpoch };

const QList<std::pair<QString, Field>> &fieldList()
{
    static const QList<std::pair<QString, Field>> list{
        {QStringLiteral("time"), Field::Time},
        {QStringLiteral("epoch"), Field::Epoch},
        {QStringLiteral("step"), Field::Step},
        {QStringLiteral("global_step"), Field::GlobalStep},
        {QStringLiteral("rank"), Field::Rank},
        {QStringLiteral("loss"), Field::Loss},
        {QStringLiteral("acc"), Field::Acc},
        {QStringLiteral("val_loss"), Field::ValLoss},
        {QStringLiteral("val_acc"), Field::ValAcc},
        {QStringLiteral("lr"), Field::Lr},
        {QStringLiteral("images_per_sec"), Field::ImagesPerSec},
        {QStringLiteral("seconds"), Field::Seconds},
        {QStringLiteral("workers"), Field::Workers},
        {QStringLiteral("epochs"), Field::Epochs},
        {QStringLiteral("start_epoch"), Field::StartEpoch},
        {QStringLiteral("steps_per_epoch"), Field::StepsPerEpoch},
    };
    return list;
}

Field fieldOf(const QString &json)
{
    static const QHash<QString, Field> byName = [] {
        QHash<QString, Field> h;
        for (const auto &[name, field] : fieldList())
            h.insert(name, field);
        return h;
    }();
    return byName.value(json, Field::None);
}

void setField(MetricRecord &r, Field field, double v)
{
    switch (field) {
    case Field::None: break;
    case Field::Time: r.time = v; break;
    case Field::Epoch: r.epoch = int(counterOf(v)); break;
    case Field::Step: r.step = counterOf(v); break;
    case Field::GlobalStep: r.globalStep = counterOf(v); break;
    case Field::Rank: r.rank = int(counterOf(v)); break;
    case Field::Loss: r.loss = v; break;
    case Field::Acc: r.acc = v; break;
    case Field::ValLoss: r.valLoss = v; break;
    case Field::ValAcc: r.valAcc = v; break;
    case Field::Lr: r.lr = v; break;
    case Field::ImagesPerSec: r.imagesPerSec = v; break;
    case Field::Seconds: r.seconds = v; break;
    case Field::Workers: r.workers = int(counterOf(v)); break;
    case Field::Epochs: r.epochs = int(counterOf(v)); break;
    case Field::StartEpoch: r.startEpoch = int(counterOf(v)); break;
    case Field::StepsPerEpoch: r.stepsPerEpoch = counterOf(v); break;
    }
}

double counted(qint64 v) { return v < 0 ? NAN : double(v); }

double fieldValue(const MetricRecord &r, Field field)
{
    switch (field) {
    case Field::None: return NAN;
    case Field::Time: return r.time;
    case Field::Epoch: return r.kind == QLatin1String("scalar") ? r.epochValue : counted(r.epoch);
    case Field::Step: return counted(r.step);
    case Field::GlobalStep: return counted(r.globalStep);
    case Field::Rank: return counted(r.rank);
    case Field::Loss: return r.loss;
    case Field::Acc: return r.acc;
    case Field::ValLoss: return r.valLoss;
    case Field::ValAcc: return r.valAcc;
    case Field::Lr: return r.lr;
    case Field::ImagesPerSec: return r.imagesPerSec;
    case Field::Seconds: return r.seconds;
    case Field::Workers: return counted(r.workers);
    case Field::Epochs: return counted(r.epochs);
    case Field::StartEpoch: return counted(r.startEpoch);
    case Field::StepsPerEpoch: return counted(r.stepsPerEpoch);
    }
    return NAN;
}

// An info record's setting as the runs table shows it.
QString settingText(const QJsonValue &value)
{
    if (value.isString())
        return value.toString();
    if (value.isBool())
        return value.toBool() ? QStringLiteral("true") : QStringLiteral("false");
    if (value.isDouble())
        return QString::number(value.toDouble(), 'g', 10);
    // Arrays and objects (input_shape): their compact JSON.
    if (value.isArray())
        return QString::fromUtf8(QJsonDocument(value.toArray()).toJson(QJsonDocument::Compact));
    if (value.isObject())
        return QString::fromUtf8(QJsonDocument(value.toObject()).toJson(QJsonDocument::Compact));
    return {};
}

// `text`, sharing the data of the same text in `known` when it is one of them: the kinds and
// sources of millions of records held by a chart take no memory of their own.
QString shared(const QString &text, const QStringList &known)
{
    for (const QString &k : known) {
        if (k == text)
            return k;
    }
    return text;
}

const QStringList &knownKinds()
{
    static const QStringList kinds{QStringLiteral("train"), QStringLiteral("val"), QStringLiteral("rank"),
                                   QStringLiteral("epoch"), QStringLiteral("scalar"), QStringLiteral("info"),
                                   QStringLiteral("done"), QStringLiteral("error")};
    return kinds;
}

const QStringList &knownSources()
{
    static const QStringList sources{QStringLiteral("tensorboard"), QStringLiteral("pytorch-examples"),
                                     QStringLiteral("huggingface"), QStringLiteral("key-value")};
    return sources;
}

// A scalar's value: a number, or text for what JSON cannot hold (ScalarPoint::toJson: "nan",
// "inf", "-inf", which QString::toDouble reads).
double scalarValue(const QJsonValue &value)
{
    return value.isDouble() ? value.toDouble() : value.toString().toDouble();
}

// The fields only a scalar record has; false for any other name.
bool setScalarField(MetricRecord &r, const QString &key, const QJsonValue &value)
{
    if (key == QLatin1String("name"))
        r.name = value.toString();
    else if (key == QLatin1String("value"))
        r.value = scalarValue(value);
    else if (key == QLatin1String("source"))
        r.source = shared(value.toString(), knownSources());
    else if (key == QLatin1String("file"))
        r.file = value.toString();
    else if (key == QLatin1String("tag"))
        r.tag = value.toString();
    else
        return false;
    return true;
}

} // namespace

std::optional<MetricRecord> MetricRecord::fromJson(const QByteArray &line)
{
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(line, &error);
    if (error.error != QJsonParseError::NoError || !doc.isObject())
        return std::nullopt;
    const QJsonObject o = doc.object();
    const QJsonValue kind = o.value(QLatin1String("kind"));
    if (!kind.isString())
        return std::nullopt;
    MetricRecord r;
    r.time = NAN;
    r.kind = shared(kind.toString(), knownKinds());
    const bool scalar = r.kind == QLatin1String("scalar");
    const bool info = r.kind == QLatin1String("info");
    const bool errorRecord = r.kind == QLatin1String("error");
    Extra extra;
    for (auto it = o.constBegin(); it != o.constEnd(); ++it) {
        const QString key = it.key();
        const QJsonValue value = it.value();
        if (key == QLatin1String("kind"))
            continue;
        if (info && key != QLatin1String("time"))
            extra.settings.append({key, settingText(value)});
        if (const Field field = fieldOf(key); field != Field::None) {
            if (value.isDouble())
                setField(r, field, value.toDouble());
            if (scalar && field == Field::Epoch && value.isDouble())
                r.epochValue = value.toDouble();
            continue;
        }
        if (scalar && setScalarField(r, key, value))
            continue;
        if (errorRecord && key == QLatin1String("message"))
            extra.message = value.toString();
        else if (value.isDouble())
            extra.numbers.append({key, value.toDouble()});
    }
    if (scalar && !o.contains(QLatin1String("tag")))
        r.tag = r.name;
    if (!extra.settings.isEmpty() || !extra.numbers.isEmpty() || !extra.message.isEmpty())
        r.extra = std::make_shared<const Extra>(std::move(extra));
    return r;
}

bool MetricRecord::mayBe(const QByteArray &line, QByteArrayView kind)
{
    // The kind in quotes somewhere (a JSON string), found without building the quoted text.
    for (qsizetype at = line.indexOf(kind, 1); at > 0; at = line.indexOf(kind, at + 1)) {
        if (line.at(at - 1) == '"' && at + kind.size() < line.size() && line.at(at + kind.size()) == '"')
            return true;
    }
    return false;
}

double MetricRecord::number(const QString &field) const
{
    if (const Field f = fieldOf(field); f != Field::None)
        return fieldValue(*this, f);
    if (kind == QLatin1String("scalar") && field == QLatin1String("value"))
        return value;
    if (extra) {
        for (const auto &[name, v] : extra->numbers) {
            if (name == field)
                return v;
        }
    }
    return NAN;
}

QList<std::pair<QString, double>> MetricRecord::numbers() const
{
    QList<std::pair<QString, double>> result;
    for (const auto &[name, field] : fieldList()) {
        if (const double v = fieldValue(*this, field); !std::isnan(v))
            result.append({name, v});
    }
    if (kind == QLatin1String("scalar") && !std::isnan(value))
        result.append({QStringLiteral("value"), value});
    if (extra)
        result.append(extra->numbers);
    return result;
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
    r.source = p.source;
    r.file = p.file;
    r.tag = p.tag;
    r.epochValue = p.epoch;
    return r;
}

std::optional<ScalarPoint> MetricRecord::toScalar() const
{
    if (kind != QLatin1String("scalar") || name.isEmpty())
        return std::nullopt;
    // In ScalarPoint's order: time, name, value, step, epoch, source, file, rank, tag.
    return ScalarPoint{std::isnan(time) ? 0 : time, name, value, step, epochValue, source, file, rank, tag};
}

} // namespace TrainDesk
