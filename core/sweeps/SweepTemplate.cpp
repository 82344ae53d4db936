#include "SweepTemplate.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <functional>

namespace TrainDesk::SweepTemplate {

namespace {

// Calls `visit` with every string's path and value, in place (a changed value is kept).
QJsonValue walk(const QJsonValue &value, const QString &path, const std::function<void(const QString &, QString &)> &visit)
{
    if (value.isString()) {
        QString s = value.toString();
        visit(path, s);
        return s;
    }
    if (value.isArray()) {
        QJsonArray a = value.toArray();
        for (qsizetype i = 0; i < a.size(); ++i)
            a[i] = walk(a.at(i), QStringLiteral("%1[%2]").arg(path).arg(i), visit);
        return a;
    }
    if (value.isObject()) {
        QJsonObject o = value.toObject();
        for (auto it = o.begin(); it != o.end(); ++it)
            it.value() = walk(it.value(), path.isEmpty() ? it.key() : path + QLatin1Char('.') + it.key(), visit);
        return o;
    }
    return value;
}

} // namespace

QList<Field> stringFields(const QByteArray &json)
{
    QList<Field> fields;
    walk(QJsonDocument::fromJson(json).object(), QString(), [&](const QString &path, QString &value) {
        fields.append({path, value});
    });
    return fields;
}

Result<QByteArray> apply(const QByteArray &json, const QList<Placeholder> &placeholders)
{
    QJsonParseError error{};
    const QJsonDocument doc = QJsonDocument::fromJson(json, &error);
    if (error.error != QJsonParseError::NoError || !doc.isObject())
        return fail(QStringLiteral("the job.json is not a JSON object: %1").arg(error.errorString()));
    QList<bool> used(placeholders.size(), false);
    QString problem;
    const QJsonValue out = walk(doc.object(), QString(), [&](const QString &path, QString &value) {
        for (qsizetype i = 0; i < placeholders.size(); ++i) {
            const Placeholder &p = placeholders[i];
            if (p.path != path)
                continue;
            used[i] = true;
            if (p.text.isEmpty() || !value.contains(p.text)) {
                problem = QStringLiteral("%1 does not hold '%2' (it is '%3')").arg(path, p.text, value);
                continue;
            }
            value.replace(p.text, QStringLiteral("PARAM_") + p.name);
        }
    });
    if (!problem.isEmpty())
        return fail(problem);
    for (qsizetype i = 0; i < placeholders.size(); ++i) {
        if (!used[i])
            return fail(QStringLiteral("the job.json has no string field %1").arg(placeholders[i].path));
    }
    return QJsonDocument(out.toObject()).toJson(QJsonDocument::Indented);
}

} // namespace TrainDesk::SweepTemplate
