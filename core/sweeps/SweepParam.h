#pragma once

#include "common/Result.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QList>
#include <QString>

#include <optional>
#include <random>

namespace TrainDesk {

// One swept parameter, as Batch AI's utilities/job_factory.py specified it
// (param_sweep_spec_schema.json; "type" is read as an alias of "paramType"):
//   {"paramType": "NumParam", "parameterName": "LR", "dataType": "REAL", "start": 1e-4, "end": 1e-1,
//    "scale": "LOG", "numValues": 4}                       (LINEAR: "step" or numValues)
//   {"paramType": "DiscreteParam", "parameterName": "OPT", "values": ["sgd", "adam"]}
//   {"paramType": "DictParam", "parameterName": "NET", "values": [{"depth": 20, "width": 16}, ...]}
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
    std::optional<qint64> numValues;  // 1 to 2^53 (parsing refuses more)
    // DiscreteParam (numbers or strings) and DictParam (objects)
    QJsonArray values;

    // How many points gridValues() goes through, counted without making any (an INTEGER
    // grid's rounding may merge some into one value). A double, so that no count overflows:
    // randint(0, 1e18) is 1e18 + 1, a tiny step over a wide range inf. Fails as gridValues().
    Result<double> gridCount() const;
    // The values a grid goes through (NumParam: from start to end by step or numValues;
    // INTEGER values rounded, repeats dropped). Fails for a NumParam with neither, and,
    // before making anything, for one of more values than a sweep may have trials.
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

// The most trials one sweep may have (a grid multiplies quickly).
constexpr qint64 maxTrials = 10000;
// "parameter V: uniform(0, 1, 20000000 values) makes 20000000 values, more than the 10,000
// trials a sweep may have; ...": the refusal of a parameter too large for any sweep.
QString tooManyValues(const SweepParam &param, double count);

// A job_factory parameter file: a JSON array of parameters, or an object with "params"
// (or "parameters") holding one. Errors name the JSON path: "params[2].scale: ...". The
// service's own rules hold here (SweepParamFile.cpp): names ^[A-Z_][A-Z0-9_]*$, start < end,
// a LOG grid by numValues (not step), a DictParam's objects all with the same keys.
Result<QList<SweepParam>> parseSpec(const QByteArray &json);
// One parameter object, as the store keeps it (the service's rules are parseSpec's).
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
