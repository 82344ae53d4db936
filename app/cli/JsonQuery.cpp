#include "JsonQuery.h"

#include <QJsonArray>
#include <QJsonObject>

namespace TrainDesk::Cli {

namespace {

// One step of a path: a field name, an index, or every element.
struct Step
{
    enum class Kind { Field, Index, Each, Select } kind = Kind::Field;
    QString field;
    qsizetype index = 0;
    QString text;  // the path up to and with this step, for messages
    QList<QPair<QString, QString>> select;  // {key: path, ...}: each key and its path
};

Result<QList<Step>> parse(const QString &path);

// The inside of `{name: name, n: nodes[0].name}`, split at its top-level commas.
Result<QList<QPair<QString, QString>>> parseSelect(const QString &inside)
{
    QList<QPair<QString, QString>> pairs;
    int depth = 0;
    qsizetype start = 0;
    for (qsizetype i = 0; i <= inside.size(); ++i) {
        const QChar c = i < inside.size() ? inside.at(i) : QLatin1Char(',');
        if (c == QLatin1Char('{') || c == QLatin1Char('['))
            ++depth;
        else if (c == QLatin1Char('}') || c == QLatin1Char(']'))
            --depth;
        if (c != QLatin1Char(',') || depth > 0)
            continue;
        const QString item = inside.mid(start, i - start);
        start = i + 1;
        const qsizetype colon = item.indexOf(QLatin1Char(':'));
        const QString key = item.left(colon).trimmed();
        const QString value = item.mid(colon + 1).trimmed();
        if (colon < 0 || key.isEmpty() || value.isEmpty())
            return fail(QStringLiteral("expected key: path in { }, found '%1'").arg(item.trimmed()));
        if (auto checked = parse(value); !checked)
            return checked.failure();
        pairs.append({key, value});
    }
    return pairs;
}

Result<QList<Step>> parse(const QString &path)
{
    QList<Step> steps;
    qsizetype i = 0;
    const auto bad = [&](const QString &why) {
        return fail(QStringLiteral("--query '%1': %2 at character %3").arg(path, why).arg(i + 1));
    };
    // A bracketed step ends at `close`: it is kept with its text, and a '.' after it skipped.
    const auto closeStep = [&](Step &step, qsizetype close) {
        i = close + 1;
        step.text = path.left(i);
        steps.append(step);
        if (i < path.size() && path.at(i) == QLatin1Char('.'))
            ++i;
    };
    while (i < path.size()) {
        if (path.at(i) == QLatin1Char('{')) {
            // A multiselect hash, as `[].{name:name, state:state}`: an object of the named paths.
            int depth = 0;
            qsizetype close = i;
            for (; close < path.size(); ++close) {
                if (path.at(close) == QLatin1Char('{'))
                    ++depth;
                else if (path.at(close) == QLatin1Char('}') && --depth == 0)
                    break;
            }
            if (close == path.size())
                return bad(QStringLiteral("'{' without '}'"));
            const auto pairs = parseSelect(path.mid(i + 1, close - i - 1));
            if (!pairs)
                return bad(pairs.error());
            Step step;
            step.kind = Step::Kind::Select;
            step.select = *pairs;
            closeStep(step, close);
            continue;
        }
        if (path.at(i) == QLatin1Char('[')) {
            const qsizetype close = path.indexOf(QLatin1Char(']'), i);
            if (close < 0)
                return bad(QStringLiteral("'[' without ']'"));
            const QString inside = path.mid(i + 1, close - i - 1).trimmed();
            Step step;
            if (inside.isEmpty() || inside == QLatin1String("*")) {
                step.kind = Step::Kind::Each;
            } else {
                bool ok = false;
                step.index = inside.toLongLong(&ok);
                if (!ok)
                    return bad(QStringLiteral("expected a number, '*' or nothing inside [ ]"));
                step.kind = Step::Kind::Index;
            }
            closeStep(step, close);
            continue;
        }
        qsizetype end = i;
        while (end < path.size() && path.at(end) != QLatin1Char('.') && path.at(end) != QLatin1Char('[')
               && path.at(end) != QLatin1Char('{'))
            ++end;
        if (end == i)
            return bad(QStringLiteral("expected a field name"));
        steps.append({Step::Kind::Field, path.mid(i, end - i), 0, path.left(end)});
        i = end;
        if (i < path.size() && path.at(i) == QLatin1Char('.')) {
            ++i;
            if (i == path.size())
                return bad(QStringLiteral("expected a field name after '.'"));
        }
    }
    if (steps.isEmpty())
        return fail(QStringLiteral("--query: expected a path such as nodeStateCounts or nodes[0].name"));
    return steps;
}

QString kindOf(const QJsonValue &v)
{
    switch (v.type()) {
    case QJsonValue::Array: return QStringLiteral("a list (use [N] or [*])");
    case QJsonValue::Object: return QStringLiteral("an object");
    case QJsonValue::String: return QStringLiteral("a string");
    case QJsonValue::Double: return QStringLiteral("a number");
    case QJsonValue::Bool: return QStringLiteral("true or false");
    default: return QStringLiteral("null");
    }
}

// Applies steps[from...] to `value`. Inside a list (`projected`), what does not match is
// left out (undefined) instead of failing, as JMESPath's projections do.
Result<QJsonValue> apply(const QJsonValue &value, const QList<Step> &steps, qsizetype from, bool projected)
{
    QJsonValue v = value;
    for (qsizetype s = from; s < steps.size(); ++s) {
        const Step &step = steps.at(s);
        switch (step.kind) {
        case Step::Kind::Field:
            if (!v.isObject() || !v.toObject().contains(step.field)) {
                if (projected)
                    return QJsonValue(QJsonValue::Undefined);
                return fail(v.isObject() ? QStringLiteral("--query: no field '%1'").arg(step.text)
                                         : QStringLiteral("--query: '%1': the value before '%2' is %3, not an object")
                                               .arg(step.text, step.field, kindOf(v)));
            }
            v = v.toObject().value(step.field);
            break;
        case Step::Kind::Index: {
            const QJsonArray array = v.toArray();
            const qsizetype index = step.index < 0 ? array.size() + step.index : step.index;
            if (!v.isArray() || index < 0 || index >= array.size()) {
                if (projected)
                    return QJsonValue(QJsonValue::Undefined);
                return fail(v.isArray() ? QStringLiteral("--query: '%1': index out of range (%2 element%3)")
                                              .arg(step.text).arg(array.size()).arg(array.size() == 1 ? "" : "s")
                                        : QStringLiteral("--query: '%1': the value before '[' is %2, not a list")
                                              .arg(step.text, kindOf(v)));
            }
            v = array.at(index);
            break;
        }
        case Step::Kind::Select: {
            if (v.isNull() || v.isUndefined())
                return QJsonValue(QJsonValue::Null);
            QJsonObject selected;
            for (const auto &[key, subpath] : step.select) {
                const auto value = apply(v, *parse(subpath), 0, true);
                if (!value)
                    return value;
                selected.insert(key, value->isUndefined() ? QJsonValue(QJsonValue::Null) : *value);
            }
            v = selected;
            break;
        }
        case Step::Kind::Each: {
            if (!v.isArray()) {
                if (projected)
                    return QJsonValue(QJsonValue::Undefined);
                return fail(QStringLiteral("--query: '%1': the value before '[' is %2, not a list").arg(step.text, kindOf(v)));
            }
            QJsonArray out;
            for (const QJsonValue &element : v.toArray()) {
                const auto mapped = apply(element, steps, s + 1, true);
                if (!mapped)
                    return mapped;
                if (!mapped->isUndefined() && !mapped->isNull())
                    out.append(*mapped);
            }
            return QJsonValue(out);
        }
        }
    }
    return v;
}

} // namespace

Result<QJsonValue> queryJson(const QJsonValue &root, const QString &path)
{
    const auto steps = parse(path.trimmed());
    if (!steps)
        return steps.failure();
    return apply(root, *steps, 0, false);
}

} // namespace TrainDesk::Cli
