#include "JobSpecReader.h"

#include "FieldBinding.h"

#include <QStringList>
#include <QVarLengthArray>

#include <algorithm>
#include <cmath>
#include <cstdlib>

namespace TrainDesk::SpecReading {

QString typeName(const QJsonValue &v)
{
    switch (v.type()) {
    case QJsonValue::Null: return QStringLiteral("null");
    case QJsonValue::Bool: return QStringLiteral("a boolean");
    case QJsonValue::Double: return QStringLiteral("a number");
    case QJsonValue::String: return QStringLiteral("a string");
    case QJsonValue::Array: return QStringLiteral("an array");
    case QJsonValue::Object: return QStringLiteral("an object");
    case QJsonValue::Undefined: break;
    }
    return QStringLiteral("nothing");
}

namespace {

// The edit distance of a and b, or `limit` as soon as it cannot be below it (each row's
// smallest cell only grows).
int editDistance(const QString &a, const QString &b, int limit)
{
    QVarLengthArray<int, 80> previous(b.size() + 1);
    QVarLengthArray<int, 80> current(b.size() + 1);
    for (qsizetype j = 0; j <= b.size(); ++j)
        previous[j] = int(j);
    for (qsizetype i = 1; i <= a.size(); ++i) {
        current[0] = int(i);
        int rowMinimum = current[0];
        for (qsizetype j = 1; j <= b.size(); ++j) {
            const int substitution = previous[j - 1] + (a.at(i - 1) == b.at(j - 1) ? 0 : 1);
            current[j] = std::min({previous[j] + 1, current[j - 1] + 1, substitution});
            rowMinimum = std::min(rowMinimum, current[j]);
        }
        if (rowMinimum >= limit)
            return limit;
        std::swap(previous, current);
    }
    return previous[b.size()];
}

QString folded(const QString &key)
{
    QString f = key.toLower();
    f.remove(QLatin1Char('_'));
    f.remove(QLatin1Char('-'));
    return f;
}

// A candidate's spellings, worked out once for all the keys of an object (160k unknown
// fields compared with every known name made them most of the validation's time).
struct Candidate
{
    QString name;
    QString folded;
    QString lower;
};

QList<Candidate> prepared(const QStringList &candidates)
{
    QList<Candidate> list;
    list.reserve(candidates.size());
    for (const QString &c : candidates)
        list.append({c, folded(c), c.toLower()});
    return list;
}

QString suggestFrom(const QString &key, const QList<Candidate> &candidates)
{
    // process_count, ProcessCount and processcount all mean processCount.
    const QString keyFolded = folded(key);
    for (const Candidate &c : candidates) {
        if (c.folded == keyFolded)
            return c.name;
    }
    if (key.size() > 64)
        return {};
    const QString keyLower = key.toLower();
    QString best;
    int bestDistance = std::max<int>(2, int(key.size()) / 4) + 1;
    for (const Candidate &c : candidates) {
        // The distance is at least the difference in length: most names are ruled out here.
        if (std::abs(c.lower.size() - keyLower.size()) >= bestDistance)
            continue;
        const int d = editDistance(keyLower, c.lower, bestDistance);
        if (d < bestDistance) {
            bestDistance = d;
            best = c.name;
        }
    }
    return best;
}

} // namespace

ObjectReader::ObjectReader(QList<SpecIssue> &issues, const QJsonObject &object, const QString &path)
    : m_issues(issues), m_object(object), m_path(path)
{
}

void ObjectReader::error(const QString &path, const QString &message)
{
    m_issues.append({SpecIssue::Severity::Error, path, message});
}

void ObjectReader::warning(const QString &path, const QString &message)
{
    m_issues.append({SpecIssue::Severity::Warning, path, message});
}

std::optional<QString> ObjectReader::optionalString(const QString &key)
{
    m_known.insert(key);
    const QJsonValue v = m_object.value(key);
    if (v.isUndefined())
        return std::nullopt;
    if (!v.isString()) {
        // The value itself is never shown: it may be a secret.
        error(pathOf(key), QStringLiteral("expected a string, found %1").arg(typeName(v)));
        return std::nullopt;
    }
    return v.toString();
}

QString ObjectReader::requiredString(const QString &key)
{
    if (!m_object.contains(key)) {
        m_known.insert(key);
        error(pathOf(key), QStringLiteral("expected a string, found nothing (required field)"));
        return {};
    }
    return optionalString(key).value_or(QString());
}

std::optional<int> ObjectReader::optionalInt(const QString &key, int minimum, int maximum)
{
    m_known.insert(key);
    const QJsonValue v = m_object.value(key);
    if (v.isUndefined())
        return std::nullopt;
    if (!v.isDouble()) {
        error(pathOf(key), QStringLiteral("expected an integer, found %1").arg(typeName(v)));
        return std::nullopt;
    }
    const double d = v.toDouble();
    if (!std::isfinite(d) || d != std::floor(d)) {
        error(pathOf(key), QStringLiteral("expected an integer, found %1").arg(d));
        return std::nullopt;
    }
    if (d < minimum || d > maximum) {
        const QString found = QString::number(d, 'f', 0);
        if (d < minimum)
            error(pathOf(key), QStringLiteral("expected an integer of at least %1, found %2").arg(minimum).arg(found));
        else
            error(pathOf(key), QStringLiteral("expected an integer of at most %1, found %2").arg(maximum).arg(found));
        return std::nullopt;
    }
    return int(d);
}

std::optional<bool> ObjectReader::optionalBool(const QString &key)
{
    m_known.insert(key);
    const QJsonValue v = m_object.value(key);
    if (v.isUndefined())
        return std::nullopt;
    if (!v.isBool()) {
        error(pathOf(key), QStringLiteral("expected a boolean, found %1").arg(typeName(v)));
        return std::nullopt;
    }
    return v.toBool();
}

std::optional<QList<int>> ObjectReader::optionalIntArray(const QString &key, int minimum, int maximum)
{
    m_known.insert(key);
    const QJsonValue v = m_object.value(key);
    if (v.isUndefined())
        return std::nullopt;
    if (!v.isArray()) {
        error(pathOf(key), QStringLiteral("expected an array of integers, found %1").arg(typeName(v)));
        return std::nullopt;
    }
    QList<int> values;
    const QJsonArray array = v.toArray();
    for (qsizetype i = 0; i < array.size(); ++i) {
        const QString itemPath = QStringLiteral("%1[%2]").arg(pathOf(key)).arg(i);
        const double d = array.at(i).toDouble(std::nan(""));
        if (!array.at(i).isDouble() || d != std::floor(d)) {
            error(itemPath, QStringLiteral("expected an integer, found %1").arg(typeName(array.at(i))));
            continue;
        }
        if (d < minimum || d > maximum) {
            error(itemPath, QStringLiteral("expected an integer from %1 to %2, found %3").arg(minimum).arg(maximum)
                                .arg(QString::number(d, 'f', 0)));
            continue;
        }
        values.append(int(d));
    }
    return values;
}

std::optional<int> ObjectReader::requiredInt(const QString &key, int minimum, int maximum)
{
    if (!m_object.contains(key)) {
        m_known.insert(key);
        error(pathOf(key), QStringLiteral("expected an integer, found nothing (required field)"));
        return std::nullopt;
    }
    return optionalInt(key, minimum, maximum);
}

QJsonObject ObjectReader::unknownFields()
{
    QJsonObject unknown;
    const QList<Candidate> known = prepared(QStringList(m_known.cbegin(), m_known.cend()));
    // A typo is among a few unknown fields: past this many, no suggestions are looked for
    // (they would be noise, and the time of a document of 160k unknown fields).
    constexpr int maxSuggested = 1000;
    int count = 0;
    for (auto it = m_object.constBegin(); it != m_object.constEnd(); ++it) {
        if (m_known.contains(it.key()))
            continue;
        unknown.insert(it.key(), it.value());
        const QString suggestion = ++count <= maxSuggested ? suggestFrom(it.key(), known) : QString();
        QString message = QStringLiteral("unknown field, kept but not used");
        if (!suggestion.isEmpty())
            message += QStringLiteral(" (did you mean '%1'?)").arg(suggestion);
        warning(pathOf(it.key()), message);
    }
    return unknown;
}

void readProperties(ObjectReader &r, JobSpec &spec)
{
    // Each field as the table (JobSpecFields.cpp) says; what is left is kept as unknown.
    SpecFields::readFields(r, spec);
    spec.extra = r.unknownFields();
}

} // namespace TrainDesk::SpecReading
