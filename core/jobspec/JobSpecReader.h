#pragma once

// Internal to the job spec code: typed reading of JSON objects that reports every problem
// (wrong type, missing required field, out of range, unknown field) with its JSON path.

#include "JobSpec.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QSet>

namespace TrainDesk::SpecReading {

QString typeName(const QJsonValue &value);

// Reads the fields of one JSON object. Every key asked for counts as known; what is left at
// unknownFields() is reported as a warning (with a suggestion when one is close) and kept.
class ObjectReader
{
public:
    ObjectReader(QList<SpecIssue> &issues, const QJsonObject &object, const QString &path);

    const QString &path() const { return m_path; }
    // An empty key (JSON allows one) is written [""] so that the path still names something.
    QString pathOf(const QString &key) const
    {
        return key.isEmpty() ? m_path + QStringLiteral("[\"\"]") : m_path + QLatin1Char('.') + key;
    }
    bool contains(const QString &key) const { return m_object.contains(key); }
    QList<SpecIssue> &issues() { return m_issues; }

    void error(const QString &path, const QString &message);
    void warning(const QString &path, const QString &message);

    std::optional<QString> optionalString(const QString &key);
    QString requiredString(const QString &key);
    std::optional<int> optionalInt(const QString &key, int minimum, int maximum = 1000000);
    std::optional<int> requiredInt(const QString &key, int minimum, int maximum = 1000000);
    std::optional<bool> optionalBool(const QString &key);
    // An array of integers in [minimum, maximum].
    std::optional<QList<int>> optionalIntArray(const QString &key, int minimum, int maximum);

    // `read` is T(ObjectReader &) for the nested object.
    template<typename T, typename Read>
    std::optional<T> optionalObject(const QString &key, Read read)
    {
        m_known.insert(key);
        const QJsonValue v = m_object.value(key);
        if (v.isUndefined())
            return std::nullopt;
        if (!v.isObject()) {
            error(pathOf(key), QStringLiteral("expected an object, found %1").arg(typeName(v)));
            return std::nullopt;
        }
        ObjectReader nested(m_issues, v.toObject(), pathOf(key));
        T value = read(nested);
        value.extra = nested.unknownFields();
        return value;
    }

    template<typename T, typename Read>
    T requiredObject(const QString &key, Read read)
    {
        if (!m_object.contains(key)) {
            m_known.insert(key);
            error(pathOf(key), QStringLiteral("expected an object, found nothing (required field)"));
            return T{};
        }
        return optionalObject<T>(key, read).value_or(T{});
    }

    template<typename T, typename Read>
    std::optional<QList<T>> optionalArray(const QString &key, Read read)
    {
        m_known.insert(key);
        const QJsonValue v = m_object.value(key);
        if (v.isUndefined())
            return std::nullopt;
        if (!v.isArray()) {
            error(pathOf(key), QStringLiteral("expected an array, found %1").arg(typeName(v)));
            return std::nullopt;
        }
        const QJsonArray array = v.toArray();
        QList<T> items;
        for (qsizetype i = 0; i < array.size(); ++i) {
            const QString itemPath = QStringLiteral("%1[%2]").arg(pathOf(key)).arg(i);
            if (!array.at(i).isObject()) {
                error(itemPath, QStringLiteral("expected an object, found %1").arg(typeName(array.at(i))));
                continue;
            }
            ObjectReader nested(m_issues, array.at(i).toObject(), itemPath);
            T value = read(nested);
            value.extra = nested.unknownFields();
            items.append(value);
        }
        return items;
    }

    // Marks a key as known without reading it (read elsewhere).
    void markKnown(const QString &key) { m_known.insert(key); }
    // Warns about the keys no one asked for and returns them, to be written back.
    QJsonObject unknownFields();

private:
    QList<SpecIssue> &m_issues;
    QJsonObject m_object;
    QString m_path;
    QSet<QString> m_known;
};

// Reads a properties object into `spec` (which keeps `properties` and the file shape fields).
void readProperties(ObjectReader &reader, JobSpec &spec);

} // namespace TrainDesk::SpecReading
