#include "ParameterTable.h"

#include <QHash>
#include <QLocale>
#include <QSet>

#include <cmath>
#include <limits>

namespace TrainDesk::Ui {

namespace {

// The axis of `count` values, the i-th valueAt(i) (read in place: 10,000 runs x a dozen
// axes were copied into lists per plot).
template<typename ValueAt>
ParameterTable::Axis axisOf(const QString &name, qsizetype count, ValueAt valueAt)
{
    ParameterTable::Axis axis;
    axis.name = name;
    bool any = false;
    double low = 0;
    double high = 0;
    for (qsizetype i = 0; i < count && axis.numeric; ++i) {
        const QVariant &v = valueAt(i);
        if (v.isNull() || !v.isValid())
            continue;
        if (const auto n = ParameterTable::number(v)) {
            low = any ? std::min(low, *n) : *n;
            high = any ? std::max(high, *n) : *n;
            any = true;
        } else {
            axis.numeric = false;
        }
    }
    if (!axis.numeric) {
        QSet<QString> seen;  // (10,000 runs of as many words: a list's contains() was quadratic)
        for (qsizetype i = 0; i < count; ++i) {
            const QVariant &v = valueAt(i);
            if (!v.isValid() || v.isNull())
                continue;
            const QString text = v.toString();
            if (!seen.contains(text)) {
                seen.insert(text);
                axis.categories << text;
            }
        }
        return axis;
    }
    if (!any)
        return axis;
    axis.min = low;
    axis.max = high;
    axis.log = axis.min > 0 && axis.max / axis.min >= 100;
    return axis;
}

QString numberLabel(double v) { return QString::number(v, 'g', 3); }

} // namespace

std::optional<double> ParameterTable::number(const QVariant &value)
{
    if (!value.isValid() || value.isNull())
        return std::nullopt;
    const auto type = value.typeId();
    if (type == QMetaType::Double || type == QMetaType::Int || type == QMetaType::LongLong || type == QMetaType::Float
        || type == QMetaType::UInt || type == QMetaType::ULongLong)
        return value.toDouble();
    return std::nullopt;
}

std::optional<double> ParameterTable::Axis::position(const QVariant &value) const
{
    if (!numeric) {
        const qsizetype i = categories.indexOf(value.toString());
        if (i < 0 || !value.isValid() || value.isNull())
            return std::nullopt;
        return categories.size() == 1 ? 0.5 : double(i) / double(categories.size() - 1);
    }
    const auto n = number(value);
    if (!n)
        return std::nullopt;
    if (max == min)
        return 0.5;
    if (log)
        return (std::log10(*n) - std::log10(min)) / (std::log10(max) - std::log10(min));
    return (*n - min) / (max - min);
}

QList<QPair<double, QString>> ParameterTable::Axis::ticks(int count) const
{
    QList<QPair<double, QString>> result;
    if (!numeric) {
        for (const QString &c : categories)
            result.append({*position(c), c});
        return result;
    }
    if (max == min) {
        result.append({0.5, numberLabel(min)});
        return result;
    }
    for (int i = 0; i < count; ++i) {
        const double t = double(i) / (count - 1);
        const double v = log ? std::pow(10.0, std::log10(min) + t * (std::log10(max) - std::log10(min))) : min + t * (max - min);
        result.append({t, numberLabel(v)});
    }
    return result;
}

ParameterTable::Axis ParameterTable::parameterAxis(int column) const
{
    static const QVariant none;
    return axisOf(parameters.value(column), rows.size(), [this, column](qsizetype i) -> const QVariant & {
        const QList<QVariant> &values = rows.at(i).values;
        return column >= 0 && column < values.size() ? values.at(column) : none;
    });
}

ParameterTable::Axis ParameterTable::metricAxis() const
{
    Axis axis = axisOf(metric, rows.size(), [this](qsizetype i) {
        return rows.at(i).metric ? QVariant(*rows.at(i).metric) : QVariant();
    });
    axis.log = false;  // accuracies and losses read best on their own scale
    return axis;
}

QList<double> ParameterTable::positions(int column, const Axis &axis) const
{
    QList<double> result(rows.size(), std::numeric_limits<double>::quiet_NaN());
    if (!axis.numeric) {
        QHash<QString, double> place;
        for (qsizetype i = 0; i < axis.categories.size(); ++i)
            place.insert(axis.categories.at(i), axis.categories.size() == 1 ? 0.5 : double(i) / double(axis.categories.size() - 1));
        for (qsizetype i = 0; i < rows.size(); ++i) {
            const QVariant value = column < 0 ? (rows.at(i).metric ? QVariant(*rows.at(i).metric) : QVariant())
                                              : rows.at(i).values.value(column);
            if (!value.isValid() || value.isNull())
                continue;
            if (const auto it = place.constFind(value.toString()); it != place.cend())
                result[i] = *it;
        }
        return result;
    }
    // As position(): the same arithmetic, the logs of the ends taken once.
    const double low = axis.log ? std::log10(axis.min) : axis.min;
    const double span = (axis.log ? std::log10(axis.max) : axis.max) - low;
    for (qsizetype i = 0; i < rows.size(); ++i) {
        const std::optional<double> n = column < 0 ? rows.at(i).metric : number(rows.at(i).values.value(column));
        if (!n)
            continue;
        result[i] = axis.max == axis.min ? 0.5 : ((axis.log ? std::log10(*n) : *n) - low) / span;
    }
    return result;
}

std::optional<double> ParameterTable::goodness(int row) const
{
    const auto p = metricAxis().position(rows.value(row).metric ? QVariant(*rows[row].metric) : QVariant());
    if (!p)
        return std::nullopt;
    return maximize ? *p : 1 - *p;
}

QList<std::optional<double>> ParameterTable::goodnesses() const
{
    const Axis axis = metricAxis();
    QList<std::optional<double>> all;
    all.reserve(rows.size());
    for (const Row &r : rows) {
        const auto p = axis.position(r.metric ? QVariant(*r.metric) : QVariant());
        all.append(p ? std::optional<double>(maximize ? *p : 1 - *p) : std::nullopt);
    }
    return all;
}

int ParameterTable::bestRow() const
{
    int best = -1;
    for (int i = 0; i < rows.size(); ++i) {
        if (rows[i].highlighted)
            return i;
        if (rows[i].metric && (best < 0 || (maximize ? *rows[i].metric > *rows[best].metric : *rows[i].metric < *rows[best].metric)))
            best = i;
    }
    return best;
}

} // namespace TrainDesk::Ui
