#pragma once

#include "common/Result.h"

#include <QByteArray>
#include <QList>
#include <QString>

namespace TrainDesk {

// A job.json turned into a sweep's template by hand (the GUI's New sweep wizard): pick a
// string field, say which text of it varies, name the parameter; the text becomes
// PARAM_<NAME> in that field. Paths as ParamSubstitution names them ("properties.x[0].y").
namespace SweepTemplate {

struct Field
{
    QString path;
    QString value;
};

struct Placeholder
{
    QString path;   // the field
    QString text;   // what varies in it ("0.001" of "--lr 0.001"), every occurrence
    QString name;   // the parameter: the text becomes PARAM_<name>
};

// Every string of the job.json (keys excluded), in document order.
QList<Field> stringFields(const QByteArray &json);
// The job.json with each placeholder put in; fails naming a field that is not a string of
// the job.json or a text the field does not hold.
Result<QByteArray> apply(const QByteArray &json, const QList<Placeholder> &placeholders);

} // namespace SweepTemplate
} // namespace TrainDesk
