#pragma once

#include <QString>

#include <optional>

namespace TrainDesk {

// constraints.maxWallClockTime in the forms the service accepted: a .NET TimeSpan
// ("7.00:00:00", "1:30:00", "02:00", "3" for days, "0.01:00:00.5") or an ISO 8601 duration
// ("P7D", "PT1H30M", "P1DT12H", "PT90S", "P1W").
struct WallClockTime
{
    qint64 milliseconds = 0;

    // The service's default: one week.
    static WallClockTime defaultLimit() { return {7LL * 24 * 3600 * 1000}; }
    // Whole seconds, rounded up (what a watchdog sleeps).
    qint64 seconds() const { return (milliseconds + 999) / 1000; }
    // As d.hh:mm:ss, the form the service reported.
    QString toString() const;
};

// The duration `text` names, or nothing with `error` set to what was wrong.
std::optional<WallClockTime> parseWallClockTime(const QString &text, QString *error = nullptr);

} // namespace TrainDesk
