#pragma once

#include "JobSpec.h"
#include "common/Result.h"

#include <QByteArray>
#include <QList>
#include <QString>

#include <optional>

namespace TrainDesk {

// What a job does when things go wrong on the nodes: TrainDesk's extensions of job.json
// under properties.constraints (maxRetries, retryOnExitCodes, progressTimeout, failOnHang).
struct ReliabilitySettings
{
    int maxRetries = 0;              // attempts queued again after the first fails
    QList<int> retryOnExitCodes;     // exit codes that are retried besides signals and lost nodes
    qint64 progressTimeoutSeconds = 0;  // 0: off
    bool failOnHang = false;

    static ReliabilitySettings of(const JobSpec &spec);
};

// The constraints keys that are TrainDesk's, not Batch AI's (the validator marks them).
const QStringList &reliabilityExtensionKeys();

// "90s", "30m", "2h", "1d", a bare number of seconds, or the forms of maxWallClockTime
// (d.hh:mm:ss, ISO 8601): whole seconds, or nothing with `error` set.
std::optional<qint64> parseProgressTimeout(const QString &text, QString *error = nullptr);

// `job create`'s options, written into the job.json's constraints (set ones only).
struct ReliabilityOptions
{
    std::optional<int> maxRetries;
    std::optional<QList<int>> retryOnExitCodes;
    std::optional<QString> progressTimeout;
    bool failOnHang = false;
    bool isEmpty() const { return !maxRetries && !retryOnExitCodes && !progressTimeout && !failOnHang; }
};
// "137,143" -> codes; fails naming the bad item.
Result<QList<int>> parseExitCodeList(const QString &text);
// `spec` (either file shape) with the options set under properties.constraints; fails when
// the text is not a JSON object.
Result<QByteArray> applyReliabilityOptions(const QByteArray &spec, const ReliabilityOptions &options);

} // namespace TrainDesk
