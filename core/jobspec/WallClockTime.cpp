#include "WallClockTime.h"

#include <QRegularExpression>

namespace TrainDesk {

namespace {

constexpr qint64 second = 1000;
constexpr qint64 minute = 60 * second;
constexpr qint64 hour = 60 * minute;
constexpr qint64 day = 24 * hour;
// Ten years: anything longer is a typo, and the sums stay far from overflowing.
constexpr qint64 longest = 3650 * day;

const QString acceptedForms = QStringLiteral("a duration such as 7.00:00:00 (d.hh:mm:ss) or P7D, PT1H30M (ISO 8601)");

// Digits (with an optional fraction) of `unit`, in milliseconds.
std::optional<qint64> amount(const QString &digits, qint64 unit)
{
    if (digits.isEmpty())
        return 0;
    QString text = digits;
    text.replace(QLatin1Char(','), QLatin1Char('.'));
    const qsizetype dot = text.indexOf(QLatin1Char('.'));
    const QString whole = dot < 0 ? text : text.left(dot);
    if (whole.size() > 7)
        return std::nullopt;
    qint64 ms = whole.toLongLong() * unit;
    if (dot >= 0) {
        // Fractions count down to the millisecond.
        const QString fraction = (text.mid(dot + 1) + QStringLiteral("000")).left(3);
        ms += fraction.toLongLong() * unit / 1000;
    }
    return ms;
}

std::optional<qint64> parseIso8601(const QString &text)
{
    static const QRegularExpression iso(QStringLiteral(
        "^P(?:(\\d+)Y)?(?:(\\d+)M)?(?:(\\d+)W)?(?:(\\d+)D)?"
        "(?:T(?:(\\d+)H)?(?:(\\d+)M)?(?:(\\d+(?:[.,]\\d{1,9})?)S)?)?$"),
        QRegularExpression::CaseInsensitiveOption);
    const auto m = iso.match(text);
    if (!m.hasMatch())
        return std::nullopt;
    const qsizetype t = text.indexOf(QLatin1Char('T'), 0, Qt::CaseInsensitive);
    if (text.size() == 1 || t == text.size() - 1)
        return std::nullopt;  // "P" and "P1DT" name nothing
    // Years and months as .NET's XmlConvert counts them: 365 and 30 days.
    const qint64 units[] = {365 * day, 30 * day, 7 * day, day, hour, minute, second};
    qint64 total = 0;
    for (int i = 0; i < 7; ++i) {
        const auto a = amount(m.captured(i + 1), units[i]);
        if (!a)
            return std::nullopt;
        total += *a;
        if (total > longest)
            return total;
    }
    return total;
}

std::optional<qint64> parseTimeSpan(const QString &text)
{
    static const QRegularExpression daysOnly(QStringLiteral("^(\\d{1,7})$"));
    static const QRegularExpression span(QStringLiteral(
        "^(?:(\\d{1,7})\\.)?(\\d{1,2}):(\\d{1,2})(?::(\\d{1,2})(?:\\.(\\d{1,7}))?)?$"));
    if (const auto m = daysOnly.match(text); m.hasMatch())
        return m.captured(1).toLongLong() * day;
    const auto m = span.match(text);
    if (!m.hasMatch())
        return std::nullopt;
    const qint64 hours = m.captured(2).toLongLong();
    const qint64 minutes = m.captured(3).toLongLong();
    const qint64 seconds = m.captured(4).toLongLong();
    if (hours > 23 || minutes > 59 || seconds > 59)
        return std::nullopt;
    qint64 total = m.captured(1).toLongLong() * day + hours * hour + minutes * minute + seconds * second;
    if (!m.captured(5).isEmpty())
        total += (m.captured(5) + QStringLiteral("00")).left(3).toLongLong();
    return total;
}

} // namespace

QString WallClockTime::toString() const
{
    const qint64 s = milliseconds / 1000;
    return QStringLiteral("%1.%2:%3:%4")
        .arg(s / 86400)
        .arg(s / 3600 % 24, 2, 10, QLatin1Char('0'))
        .arg(s / 60 % 60, 2, 10, QLatin1Char('0'))
        .arg(s % 60, 2, 10, QLatin1Char('0'));
}

std::optional<WallClockTime> parseWallClockTime(const QString &input, QString *error)
{
    const QString text = input.trimmed();
    std::optional<qint64> ms = text.startsWith(QLatin1Char('P'), Qt::CaseInsensitive) ? parseIso8601(text)
                                                                                      : parseTimeSpan(text);
    auto failWith = [&](const QString &message) -> std::optional<WallClockTime> {
        if (error)
            *error = message;
        return std::nullopt;
    };
    if (!ms)
        return failWith(QStringLiteral("expected %1, found '%2'").arg(acceptedForms, input.left(80)));
    if (*ms <= 0)
        return failWith(QStringLiteral("expected a duration longer than zero, found '%1'").arg(input.left(80)));
    if (*ms > longest)
        return failWith(QStringLiteral("expected a duration of at most 3650 days, found '%1'").arg(input.left(80)));
    return WallClockTime{*ms};
}

} // namespace TrainDesk
