// JobSpec -> JSON: every field the spec holds, unknown ones included, so that reading and
// writing a job.json keeps all of it.
#include "FieldBinding.h"

#include <QJsonDocument>

namespace TrainDesk {

QJsonObject jobSpecProperties(const JobSpec &s)
{
    // Each field as the table (JobSpecFields.cpp) says, over the unknown ones.
    return SpecFields::writeFields(s, s.extra);
}

QByteArray writeJobSpec(const JobSpec &spec)
{
    const QJsonObject properties = jobSpecProperties(spec);
    if (!spec.fileShape)
        return QJsonDocument(properties).toJson(QJsonDocument::Indented);
    QJsonObject file = spec.fileExtra;
    if (spec.schema)
        file.insert(QStringLiteral("$schema"), *spec.schema);
    file.insert(QStringLiteral("properties"), properties);
    return QJsonDocument(file).toJson(QJsonDocument::Indented);
}

} // namespace TrainDesk
