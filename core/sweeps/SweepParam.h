#pragma once

#include "common/Result.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QList>
#include <QString>

#include <optional>
#include <random>

namespace TrainDesk {

// One swept parameter, as Batch AI's utilities/job_factory.py specified it:
//   {"type": "NumParam", "parameterName": "LR", "dataType": "REAL", "start": 1e-4, "end": 1e-1,
//    "scale": "LOG", "numValues": 4}                       (or "step" instead of numValues)
//   {"type": "DiscreteParam", "parameterName": "OPT", "values": ["sgd", "adam"]}
//   {"type": "DictParam", "parameterName": "NET", "values": [{"depth": 20, "width": 16}, ...]}
// A job.json string then carries PARAM_<NAME> (PARAM_<NAME>__<key> for a key of a dict value).
struct SweepParam
{
    enum class Kind { Num, Discrete, Dict };
    enum class DataType { Integer, Real };
    enum class Scale { Linear, Log };

    QString name;
    Kind kind = Kind::Discrete;
    // NumParam
    DataType dataType = DataType::Real;
    Scale scale = Scale::Linear;
    double start = 0;
    double end = 0;
    std::optional<double> step;   // LINEAR: added; LOG: added to log10 of the value
    std::optional<int> numValues;
    // DiscreteParam (numbers or strings) and DictParam (objects)
    QJsonArray values;

    // The values a grid goes through (NumParam: from start to end by step or numValues;
    // INTEGER values rounded, repeats dropped). Fails for a NumParam with neither.
    Result<QJsonArray> gridValues() const;
    // One value drawn with `random` (NumParam: uniform on its scale over [start, end];
    // the others: one of the values, each as likely).
    QJsonValue draw(std::mt19937_64 &random) const;
    // The parameter as job_factory's JSON (what the store keeps and `sweep show` prints).
    QJsonObject toJson() const;
    // "loguniform(0.0001, 0.01)", "[16, 32]": how `sweep show` and the wizard say it.
    QString describe() const;
};

namespace SweepParams {

// A job_factory parameter file: a JSON array of parameters, or an object with "params"
// (or "parameters") holding one. Errors name the JSON path: "params[2].scale: ...".
Result<QList<SweepParam>> parseSpec(const QByteArray &json);
Result<SweepParam> fromJson(const QJsonObject &object, const QString &path);
// One --param: NAME=v1,v2,... (numbers or words), NAME=uniform(a,b[,n]),
// NAME=loguniform(a,b[,n]), NAME=randint(a,b) or NAME=range(a,b,step).
Result<SweepParam> parseInline(const QString &text);
// Names are job_factory's (^[A-Za-z_][A-Za-z0-9_]*$) and unique.
VoidResult checkNames(const QList<SweepParam> &params);

// A number written the way a user would (12 significant digits: 0.001, not 0.0010000000000000002).
QString numberText(double value);
// A value as it is put into a job.json string.
QString valueText(const QJsonValue &value);

} // namespace SweepParams
} // namespace TrainDesk
