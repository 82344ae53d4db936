#include "SweepParam.h"

#include <QJsonDocument>
#include <QLocale>
#include <QRegularExpression>
#include <QSet>

#include <algorithm>
#include <cmath>

namespace TrainDesk {

namespace {

const QRegularExpression &nameRule()
{
    static const QRegularExpression rule(QStringLiteral("^[A-Za-z_][A-Za-z0-9_]*$"));
    return rule;
}

// Rounded to what numberText writes, so a value reads back as it was printed.
double tidy(double value) { return SweepParams::numberText(value).toDouble(); }

QJsonValue numberValue(double value, SweepParam::DataType type)
{
    if (type == SweepParam::DataType::Integer)
        return QJsonValue(qint64(std::llround(value)));
    return QJsonValue(tidy(value));
}

// A uniform draw in [0, 1) from the generator's 53 high bits: the same numbers for a seed
// whatever the standard library (std::uniform_real_distribution is not specified exactly).
double unit(std::mt19937_64 &random) { return double(random() >> 11) * 0x1.0p-53; }

QString scaleText(SweepParam::Scale scale) { return scale == SweepParam::Scale::Log ? QStringLiteral("LOG") : QStringLiteral("LINEAR"); }
QString typeText(SweepParam::DataType type) { return type == SweepParam::DataType::Integer ? QStringLiteral("INTEGER") : QStringLiteral("REAL"); }

Result<double> numberField(const QJsonObject &object, const QString &key, const QString &path)
{
    const QJsonValue v = object.value(key);
    if (v.isUndefined())
        return fail(QStringLiteral("%1: a NumParam needs \"%2\"").arg(path, key));
    if (!v.isDouble() || !std::isfinite(v.toDouble()))
        return fail(QStringLiteral("%1.%2: expected a number, found %3").arg(path, key, SweepParams::valueText(v)));
    return v.toDouble();
}

// A value of a DiscreteParam or --param list: a number when it reads as one, else the word.
QJsonValue scalarFromText(const QString &text)
{
    bool ok = false;
    const qint64 whole = text.toLongLong(&ok);
    if (ok)
        return QJsonValue(whole);
    const double real = text.toDouble(&ok);
    if (ok && std::isfinite(real))
        return QJsonValue(real);
    return QJsonValue(text);
}

// Whole numbers a double holds exactly: beyond them a count is not a count.
constexpr double wholeLimit = 9007199254740992.0;  // 2^53
// An INTEGER draw is a qint64: its range stays well inside one.
constexpr double integerLimit = 1e18;

VoidResult checkNum(const SweepParam &p, const QString &path)
{
    if (p.dataType == SweepParam::DataType::Integer && (std::abs(p.start) > integerLimit || std::abs(p.end) > integerLimit))
        return fail(QStringLiteral("%1: an INTEGER parameter's start and end are within -1e18 and 1e18 (found %2 and %3)")
                        .arg(path, SweepParams::numberText(p.start), SweepParams::numberText(p.end)));
    if (p.scale == SweepParam::Scale::Log && (p.start <= 0 || p.end <= 0))
        return fail(QStringLiteral("%1: a LOG scale needs start and end above 0 (found %2 and %3)")
                        .arg(path, SweepParams::numberText(p.start), SweepParams::numberText(p.end)));
    if (p.start > p.end)
        return fail(QStringLiteral("%1: start %2 is above end %3").arg(path, SweepParams::numberText(p.start),
                                                                        SweepParams::numberText(p.end)));
    if (p.step && p.numValues)
        return fail(QStringLiteral("%1: give step or numValues, not both").arg(path));
    if (p.step && !(*p.step > 0))
        return fail(QStringLiteral("%1.step: expected a number above 0, found %2").arg(path, SweepParams::numberText(*p.step)));
    if (p.numValues && *p.numValues < 1)
        return fail(QStringLiteral("%1.numValues: expected 1 or more, found %2").arg(path).arg(*p.numValues));
    return {};
}

} // namespace

Result<double> SweepParam::gridCount() const
{
    if (kind != Kind::Num)
        return double(values.size());
    const bool log = scale == Scale::Log;
    const double from = log ? std::log10(start) : start;
    const double to = log ? std::log10(end) : end;
    double count = 0;
    if (numValues) {
        count = double(*numValues);
    } else if (step) {
        // As gridValues() counts its points (the end in when a step lands on it).
        count = std::floor((to - from) / *step * (1 + 1e-12) + 1e-9) + 1;
    } else if (dataType == DataType::Integer && scale == Scale::Linear) {
        count = std::max(0.0, std::floor(end) - std::ceil(start) + 1);
    } else {
        return fail(QStringLiteral("%1: a range (%2) has no grid: give step or numValues, or sample it at random "
                                   "(--sampling random)").arg(name, describe()));
    }
    return count;
}

Result<QJsonArray> SweepParam::gridValues() const
{
    if (kind != Kind::Num)
        return values;
    const auto count = gridCount();
    if (!count)
        return count.failure();
    if (*count > double(SweepParams::maxTrials))
        return fail(SweepParams::tooManyValues(*this, *count));
    QList<double> points;
    const bool log = scale == Scale::Log;
    const double from = log ? std::log10(start) : start;
    const double to = log ? std::log10(end) : end;
    if (numValues) {
        for (qint64 i = 0; i < *numValues; ++i)
            points << (*numValues == 1 ? from : from + (to - from) * double(i) / double(*numValues - 1));
    } else if (step) {
        // Counted, not summed, so that 0.1 steps land on 0.3 and not 0.30000000000000004.
        for (qint64 i = 0; i < qint64(*count); ++i)
            points << from + *step * double(i);
    } else {
        for (qint64 i = 0; i < qint64(*count); ++i)
            points << std::ceil(start) + double(i);
    }
    QJsonArray grid;
    QSet<QString> seen;
    for (double point : points) {
        const QJsonValue v = numberValue(log ? std::pow(10.0, point) : point, dataType);
        // INTEGER rounding can make two points one value: it is run once.
        if (!seen.contains(SweepParams::valueText(v))) {
            seen.insert(SweepParams::valueText(v));
            grid.append(v);
        }
    }
    return grid;
}

QJsonValue SweepParam::draw(std::mt19937_64 &random) const
{
    const double u = unit(random);
    if (kind != Kind::Num)
        return values.at(std::min(qsizetype(u * double(values.size())), values.size() - 1));
    if (scale == Scale::Log) {
        const double from = std::log10(start), to = std::log10(end);
        return numberValue(std::pow(10.0, from + u * (to - from)), dataType);
    }
    if (dataType == DataType::Integer) {
        // Every whole number from start to end, each as likely.
        const double low = std::ceil(start), high = std::floor(end);
        return QJsonValue(qint64(std::min(high, low + std::floor(u * (high - low + 1)))));
    }
    return numberValue(start + u * (end - start), dataType);
}

QJsonObject SweepParam::toJson() const
{
    QJsonObject o{{"parameterName", name}};
    switch (kind) {
    case Kind::Num:
        o.insert(QStringLiteral("paramType"), QStringLiteral("NumParam"));
        o.insert(QStringLiteral("dataType"), typeText(dataType));
        o.insert(QStringLiteral("scale"), scaleText(scale));
        o.insert(QStringLiteral("start"), start);
        o.insert(QStringLiteral("end"), end);
        if (step)
            o.insert(QStringLiteral("step"), *step);
        if (numValues)
            o.insert(QStringLiteral("numValues"), *numValues);
        break;
    case Kind::Discrete:
        o.insert(QStringLiteral("paramType"), QStringLiteral("DiscreteParam"));
        o.insert(QStringLiteral("values"), values);
        break;
    case Kind::Dict:
        o.insert(QStringLiteral("paramType"), QStringLiteral("DictParam"));
        o.insert(QStringLiteral("values"), values);
        break;
    }
    return o;
}

QString SweepParam::describe() const
{
    if (kind != Kind::Num) {
        QStringList texts;
        for (const QJsonValue &v : values)
            texts << SweepParams::valueText(v);
        return QStringLiteral("[%1]").arg(texts.join(QStringLiteral(", ")));
    }
    QString text = QStringLiteral("%1%2(%3, %4")
                       .arg(dataType == DataType::Integer ? QStringLiteral("int ") : QString(),
                            scale == Scale::Log ? QStringLiteral("loguniform") : QStringLiteral("uniform"),
                            SweepParams::numberText(start), SweepParams::numberText(end));
    if (step)
        text += QStringLiteral(", step %1").arg(SweepParams::numberText(*step));
    if (numValues)
        text += QStringLiteral(", %1 values").arg(*numValues);
    return text + QLatin1Char(')');
}

namespace SweepParams {

QString numberText(double value) { return QString::number(value, 'g', 12); }

QString tooManyValues(const SweepParam &param, double count)
{
    const QString counted = count < wholeLimit ? QString::number(qint64(count)) : numberText(count);
    return QStringLiteral("parameter %1: %2 makes %3 values, more than the %4 trials a sweep may have; give fewer "
                          "values, or sample it at random (--sampling random --trials N)")
        .arg(param.name, param.describe(), counted, QLocale(QLocale::English).toString(maxTrials));
}

QString valueText(const QJsonValue &value)
{
    if (value.isString())
        return value.toString();
    if (value.isDouble()) {
        const double d = value.toDouble();
        if (d == std::floor(d) && std::abs(d) < 1e15)
            return QString::number(qint64(d));
        return numberText(d);
    }
    if (value.isBool())
        return value.toBool() ? QStringLiteral("true") : QStringLiteral("false");
    if (value.isObject())
        return QString::fromUtf8(QJsonDocument(value.toObject()).toJson(QJsonDocument::Compact));
    if (value.isArray())
        return QString::fromUtf8(QJsonDocument(value.toArray()).toJson(QJsonDocument::Compact));
    return QStringLiteral("null");
}

Result<SweepParam> fromJson(const QJsonObject &object, const QString &path)
{
    SweepParam p;
    // The service's key; "type" is what TrainDesk once wrote (stored sweeps, older files).
    const QString typeKey = object.contains(QStringLiteral("paramType")) ? QStringLiteral("paramType") : QStringLiteral("type");
    const QString type = object.value(typeKey).toString();
    p.name = object.value(QStringLiteral("parameterName")).toString();
    if (p.name.isEmpty())
        return fail(QStringLiteral("%1.parameterName: every parameter needs a name").arg(path));
    if (!nameRule().match(p.name).hasMatch())
        return fail(QStringLiteral("%1.parameterName: '%2' is not a name (letters, digits and _, not starting with a digit)")
                        .arg(path, p.name));
    if (type == QLatin1String("FileParam"))
        return fail(QStringLiteral("%1: FileParam (%2) enumerates files of an Azure storage container, which TrainDesk "
                                   "does not reach; list the files as a DiscreteParam's values instead")
                        .arg(path, p.name));
    if (type == QLatin1String("NumParam")) {
        p.kind = SweepParam::Kind::Num;
        const QString dataType = object.value(QStringLiteral("dataType")).toString(QStringLiteral("REAL")).toUpper();
        if (dataType != QLatin1String("REAL") && dataType != QLatin1String("INTEGER"))
            return fail(QStringLiteral("%1.dataType: expected INTEGER or REAL, found '%2'").arg(path, dataType));
        p.dataType = dataType == QLatin1String("INTEGER") ? SweepParam::DataType::Integer : SweepParam::DataType::Real;
        const QString scale = object.value(QStringLiteral("scale")).toString(QStringLiteral("LINEAR")).toUpper();
        if (scale != QLatin1String("LINEAR") && scale != QLatin1String("LOG"))
            return fail(QStringLiteral("%1.scale: expected LINEAR or LOG, found '%2'").arg(path, scale));
        p.scale = scale == QLatin1String("LOG") ? SweepParam::Scale::Log : SweepParam::Scale::Linear;
        const auto start = numberField(object, QStringLiteral("start"), path);
        if (!start)
            return start.failure();
        const auto end = numberField(object, QStringLiteral("end"), path);
        if (!end)
            return end.failure();
        p.start = *start;
        p.end = *end;
        if (object.contains(QStringLiteral("step"))) {
            const auto step = numberField(object, QStringLiteral("step"), path);
            if (!step)
                return step.failure();
            p.step = *step;
        }
        if (object.contains(QStringLiteral("numValues"))) {
            const QJsonValue n = object.value(QStringLiteral("numValues"));
            if (!n.isDouble() || n.toDouble() != std::floor(n.toDouble()) || std::abs(n.toDouble()) > wholeLimit)
                return fail(QStringLiteral("%1.numValues: expected a whole number, found %2").arg(path, valueText(n)));
            p.numValues = qint64(n.toDouble());
        }
        if (auto checked = checkNum(p, path); !checked)
            return checked.failure();
        return p;
    }
    if (type != QLatin1String("DiscreteParam") && type != QLatin1String("DictParam"))
        return fail(QStringLiteral("%1.paramType: expected NumParam, DiscreteParam or DictParam, found '%2'").arg(path, type));
    p.kind = type == QLatin1String("DictParam") ? SweepParam::Kind::Dict : SweepParam::Kind::Discrete;
    const QJsonValue values = object.value(QStringLiteral("values"));
    if (!values.isArray() || values.toArray().isEmpty())
        return fail(QStringLiteral("%1.values: a %2 needs a list of values").arg(path, type));
    p.values = values.toArray();
    for (qsizetype i = 0; i < p.values.size(); ++i) {
        const QJsonValue v = p.values.at(i);
        const QString at = QStringLiteral("%1.values[%2]").arg(path).arg(i);
        if (p.kind == SweepParam::Kind::Discrete && !(v.isString() || v.isDouble() || v.isBool()))
            return fail(QStringLiteral("%1: a DiscreteParam's value is a number or a string (a DictParam takes objects)").arg(at));
        if (p.kind == SweepParam::Kind::Dict) {
            if (!v.isObject() || v.toObject().isEmpty())
                return fail(QStringLiteral("%1: a DictParam's value is an object with one or more keys").arg(at));
            const QJsonObject o = v.toObject();
            for (auto it = o.begin(); it != o.end(); ++it) {
                if (!QRegularExpression(QStringLiteral("^[A-Za-z0-9_]+$")).match(it.key()).hasMatch())
                    return fail(QStringLiteral("%1.%2: a key is letters, digits and _ (it goes into PARAM_%3__KEY)")
                                    .arg(at, it.key(), p.name));
                if (it.value().isObject() || it.value().isArray() || it.value().isNull())
                    return fail(QStringLiteral("%1.%2: expected a number or a string").arg(at, it.key()));
            }
        }
    }
    return p;
}

Result<SweepParam> parseInline(const QString &text)
{
    const qsizetype eq = text.indexOf(QLatin1Char('='));
    if (eq <= 0 || eq == text.size() - 1)
        return fail(QStringLiteral("--param '%1': expected NAME=v1,v2,... or NAME=uniform(a,b), loguniform(a,b), "
                                   "randint(a,b), range(a,b,step)").arg(text));
    SweepParam p;
    p.name = text.left(eq).trimmed();
    if (!nameRule().match(p.name).hasMatch())
        return fail(QStringLiteral("--param '%1': '%2' is not a name (letters, digits and _, not starting with a digit)")
                        .arg(text, p.name));
    const QString rest = text.mid(eq + 1).trimmed();
    static const QRegularExpression call(QStringLiteral("^([a-z]+)\\((.*)\\)$"));
    const auto m = call.match(rest);
    if (!m.hasMatch() || m.captured(1) == QLatin1String("choice")) {
        const QString list = m.hasMatch() ? m.captured(2) : rest;
        for (const QString &v : list.split(QLatin1Char(','))) {
            if (v.trimmed().isEmpty())
                return fail(QStringLiteral("--param '%1': an empty value").arg(text));
            p.values.append(scalarFromText(v.trimmed()));
        }
        return p;
    }
    const QString function = m.captured(1);
    QList<double> args;
    for (const QString &a : m.captured(2).split(QLatin1Char(','))) {
        bool ok = false;
        const double d = a.trimmed().toDouble(&ok);
        if (!ok || !std::isfinite(d))
            return fail(QStringLiteral("--param '%1': '%2' is not a number").arg(text, a.trimmed()));
        args << d;
    }
    p.kind = SweepParam::Kind::Num;
    const auto arity = [&](int low, int high) -> VoidResult {
        if (args.size() < low || args.size() > high)
            return fail(QStringLiteral("--param '%1': %2 takes %3 numbers").arg(text, function,
                        low == high ? QString::number(low) : QStringLiteral("%1 or %2").arg(low).arg(high)));
        return {};
    };
    VoidResult counted;
    if (function == QLatin1String("uniform") || function == QLatin1String("loguniform")) {
        counted = arity(2, 3);
        p.scale = function == QLatin1String("loguniform") ? SweepParam::Scale::Log : SweepParam::Scale::Linear;
        if (counted && args.size() == 3) {
            if (args[2] != std::floor(args[2]) || std::abs(args[2]) > wholeLimit)
                return fail(QStringLiteral("--param '%1': the number of values is a whole number").arg(text));
            p.numValues = qint64(args[2]);
        }
    } else if (function == QLatin1String("randint")) {
        counted = arity(2, 2);
        p.dataType = SweepParam::DataType::Integer;
    } else if (function == QLatin1String("range")) {
        counted = arity(3, 3);
        if (counted) {
            p.step = args[2];
            const bool whole = std::all_of(args.begin(), args.end(), [](double d) { return d == std::floor(d); });
            p.dataType = whole ? SweepParam::DataType::Integer : SweepParam::DataType::Real;
        }
    } else {
        return fail(QStringLiteral("--param '%1': unknown '%2' (uniform, loguniform, randint, range or choice)").arg(text, function));
    }
    if (!counted)
        return counted.failure();
    p.start = args[0];
    p.end = args[1];
    if (function == QLatin1String("range")) {
        // Python's range: the end is not in it (range(0, 200, 1) is 0..199, 200 values).
        // Stored as the service's NumParam, whose end is: the last value the step reaches.
        if (!(p.step && *p.step > 0) || !(p.end > p.start))
            return fail(QStringLiteral("--param '%1': range(start, stop, step) needs stop above start and a step above 0")
                            .arg(text));
        const double count = std::ceil((p.end - p.start) / *p.step - 1e-9);
        p.end = count < wholeLimit ? tidy(p.start + *p.step * (count - 1)) : p.end;
    }
    if (auto checked = checkNum(p, QStringLiteral("--param '%1'").arg(text)); !checked)
        return checked.failure();
    return p;
}

VoidResult checkNames(const QList<SweepParam> &params)
{
    QSet<QString> names;
    for (const SweepParam &p : params) {
        if (names.contains(p.name))
            return fail(QStringLiteral("parameter %1 is given twice").arg(p.name));
        names.insert(p.name);
    }
    // PARAM_LR would also match the start of PARAM_LR__KEY or PARAM_LR_DECAY: substitution
    // goes longest name first, so both kinds work; only a dict key colliding with a name is refused.
    for (const SweepParam &p : params) {
        if (p.kind != SweepParam::Kind::Dict)
            continue;
        for (const QJsonValue &v : p.values) {
            const QJsonObject o = v.toObject();
            for (auto it = o.begin(); it != o.end(); ++it) {
                if (names.contains(p.name + QStringLiteral("__") + it.key()))
                    return fail(QStringLiteral("parameter %1__%2 is also a key of the DictParam %1").arg(p.name, it.key()));
            }
        }
    }
    return {};
}

} // namespace SweepParams
} // namespace TrainDesk
