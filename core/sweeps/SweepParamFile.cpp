// A parameter file as Batch AI's job_factory read it (param_sweep_spec_schema.json), with
// the service's own refusals on top of what any parameter must be (SweepParam.cpp).
#include "SweepParam.h"

#include <QJsonDocument>
#include <QRegularExpression>

namespace TrainDesk::SweepParams {

namespace {

// job_factory's Parameter.__init__: environment-variable names, upper case.
const QRegularExpression &serviceNameRule()
{
    static const QRegularExpression rule(QStringLiteral("^[A-Z_][A-Z0-9_]*$"));
    return rule;
}

QStringList sortedKeys(const QJsonObject &o)
{
    QStringList keys = o.keys();
    keys.sort();
    return keys;
}

VoidResult serviceRules(const SweepParam &p, const QJsonObject &object, const QString &path)
{
    if (!object.contains(QStringLiteral("paramType")) && !object.contains(QStringLiteral("type")))
        return fail(QStringLiteral("%1.paramType: expected NumParam, DiscreteParam or DictParam").arg(path));
    if (!serviceNameRule().match(p.name).hasMatch())
        return fail(QStringLiteral("%1.parameterName: '%2': a name is upper-case letters, digits and underscores "
                                   "(^[A-Z_][A-Z0-9_]*$, as the service required)").arg(path, p.name));
    if (p.kind == SweepParam::Kind::Num) {
        if (!(p.start < p.end))
            return fail(QStringLiteral("%1: end %2 must be greater than start %3")
                            .arg(path, numberText(p.end), numberText(p.start)));
        // np.geomspace by numValues; the service had no LOG step.
        if (p.scale == SweepParam::Scale::Log && p.step)
            return fail(QStringLiteral("%1.step: a LOG NumParam's grid is numValues values, not a step").arg(path));
    }
    if (p.kind == SweepParam::Kind::Dict) {
        const QStringList first = sortedKeys(p.values.first().toObject());
        for (qsizetype i = 1; i < p.values.size(); ++i) {
            if (sortedKeys(p.values.at(i).toObject()) != first)
                return fail(QStringLiteral("%1.values[%2]: every object has the same keys as the first (%3)")
                                .arg(path).arg(i).arg(first.join(QStringLiteral(", "))));
        }
    }
    return {};
}

} // namespace

Result<QList<SweepParam>> parseSpec(const QByteArray &json)
{
    QJsonParseError error{};
    const QJsonDocument doc = QJsonDocument::fromJson(json, &error);
    if (error.error != QJsonParseError::NoError)
        return fail(QStringLiteral("not JSON: %1 at offset %2").arg(error.errorString()).arg(error.offset));
    QJsonArray array;
    QString root = QStringLiteral("params");
    if (doc.isArray()) {
        array = doc.array();
        root.clear();
    } else if (doc.object().value(QStringLiteral("params")).isArray()) {
        array = doc.object().value(QStringLiteral("params")).toArray();
    } else if (doc.object().value(QStringLiteral("parameters")).isArray()) {
        array = doc.object().value(QStringLiteral("parameters")).toArray();
        root = QStringLiteral("parameters");
    } else {
        return fail(QStringLiteral("expected a list of parameters, or an object with \"params\" holding one"));
    }
    if (array.isEmpty())
        return fail(QStringLiteral("%1: no parameters").arg(root.isEmpty() ? QStringLiteral("the list") : root));
    QList<SweepParam> params;
    for (qsizetype i = 0; i < array.size(); ++i) {
        const QString path = QStringLiteral("%1[%2]").arg(root).arg(i);
        if (!array.at(i).isObject())
            return fail(QStringLiteral("%1: expected an object").arg(path));
        auto p = fromJson(array.at(i).toObject(), path);
        if (!p)
            return p.failure();
        if (auto service = serviceRules(*p, array.at(i).toObject(), path); !service)
            return service.failure();
        params << *p;
    }
    if (auto names = checkNames(params); !names)
        return names.failure();
    return params;
}

} // namespace TrainDesk::SweepParams
