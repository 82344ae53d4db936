#include "JobReliability.h"

#include "jobs/ProgressWatch.h"
#include "store/Store.h"

#include <QJsonArray>
#include <QJsonDocument>

namespace TrainDesk::Cli {

QList<QCommandLineOption> reliabilityOptions()
{
    return {
        {QStringLiteral("max-retries"),
         QStringLiteral("Queue a failed attempt again up to N times when a node was lost, a process was killed by a "
                        "signal, or it exited with a code of --retry-on-exit-codes (constraints.maxRetries)."),
         QStringLiteral("N")},
        {QStringLiteral("retry-on-exit-codes"),
         QStringLiteral("Exit codes that are retried too, e.g. 75,143 (constraints.retryOnExitCodes)."),
         QStringLiteral("CODES")},
        {QStringLiteral("progress-timeout"),
         QStringLiteral("Name the silent ranks when no rank prints and no metric arrives for this long, e.g. 30m "
                        "(constraints.progressTimeout)."),
         QStringLiteral("DURATION")},
        {QStringLiteral("fail-on-hang"),
         QStringLiteral("Fail the attempt when the progress timeout passes (it may be retried) (constraints.failOnHang).")},
    };
}

Result<ReliabilityOptions> reliabilityOptionsOf(const Context &c)
{
    ReliabilityOptions o;
    if (c.args.isSet(QStringLiteral("max-retries"))) {
        bool ok = false;
        const int n = c.args.value(QStringLiteral("max-retries")).toInt(&ok);
        if (!ok || n < 0 || n > 100)
            return fail(QStringLiteral("--max-retries: expected a number from 0 to 100, found '%1'")
                            .arg(c.args.value(QStringLiteral("max-retries"))));
        o.maxRetries = n;
    }
    if (c.args.isSet(QStringLiteral("retry-on-exit-codes"))) {
        const auto codes = parseExitCodeList(c.args.value(QStringLiteral("retry-on-exit-codes")));
        if (!codes)
            return codes.failure();
        o.retryOnExitCodes = *codes;
    }
    if (c.args.isSet(QStringLiteral("progress-timeout"))) {
        const QString text = c.args.value(QStringLiteral("progress-timeout"));
        QString why;
        if (!parseProgressTimeout(text, &why))
            return fail(QStringLiteral("--progress-timeout: %1").arg(why));
        o.progressTimeout = text;
    }
    o.failOnHang = c.args.isSet(QStringLiteral("fail-on-hang"));
    return o;
}

QString addReliability(Context &c, const Job &job, QJsonObject &json)
{
    QString text;
    const QList<JobAttempt> attempts = c.store.jobAttempts(job.id);
    json.insert(QStringLiteral("attempt"), int(attempts.size()) + 1);
    if (!attempts.isEmpty()) {
        QJsonArray array;
        text += QStringLiteral("\nAttempts:\n");
        for (const JobAttempt &a : attempts) {
            QJsonArray errors;
            for (const JobError &e : a.errors)
                errors.append(QJsonObject{{"code", e.code}, {"message", e.message}, {"details", QJsonArray::fromStringList(e.details)}});
            array.append(QJsonObject{{"attempt", a.attempt}, {"uuid", a.uuid}, {"jobDirectory", a.jobDir},
                                     {"nodes", QJsonArray::fromStringList(a.nodes)},
                                     {"startTime", a.started.toString(Qt::ISODateWithMs)},
                                     {"endTime", a.ended.toString(Qt::ISODateWithMs)},
                                     {"exitCode", a.exitCode ? QJsonValue(*a.exitCode) : QJsonValue()},
                                     {"lostNodes", QJsonArray::fromStringList(a.lostNodes)}, {"errors", errors}});
            const JobError first = a.errors.value(0);
            text += QStringLiteral("  %1  %2  %3  %4: %5\n")
                        .arg(a.attempt)
                        .arg(a.nodes.join(QLatin1Char(',')), a.started.toString(Qt::ISODate),
                             first.code, first.message);
            for (const QString &d : first.details)
                text += QStringLiteral("       %1\n").arg(d);
            text += QStringLiteral("       %1/stdouterr\n").arg(a.jobDir);
        }
        text += QStringLiteral("  %1  %2  (this attempt: %3)\n")
                    .arg(attempts.size() + 1)
                    .arg(job.nodes.join(QLatin1Char(',')), toString(job.state));
        json.insert(QStringLiteral("attempts"), array);
    }
    if (const auto silence = ProgressWatch::Silence::fromJson(c.store.jobSilence(job.id))) {
        json.insert(QStringLiteral("silence"), QJsonDocument::fromJson(silence->toJson()).object());
        text += QStringLiteral("\nSilent: %1\n").arg(silence->text());
    }
    return text;
}

} // namespace TrainDesk::Cli
