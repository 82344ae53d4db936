#include "ReliabilitySettings.h"

#include "JobSpecFields.h"
#include "WallClockTime.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>

namespace TrainDesk {

ReliabilitySettings ReliabilitySettings::of(const JobSpec &spec)
{
    ReliabilitySettings s;
    if (!spec.constraints)
        return s;
    const JobConstraints &c = *spec.constraints;
    s.maxRetries = c.maxRetries.value_or(0);
    s.retryOnExitCodes = c.retryOnExitCodes.value_or(QList<int>());
    if (c.progressTimeout)
        s.progressTimeoutSeconds = parseProgressTimeout(*c.progressTimeout).value_or(0);
    s.failOnHang = c.failOnHang.value_or(false);
    return s;
}

const QStringList &reliabilityExtensionKeys()
{
    static const QStringList keys = [] {
        QStringList list;
        // The constraints' own extensions (the placement's, gpusPerProcess and the like, are
        // properties' and warned about where they are).
        for (const FieldRow &row : jobSpecFields()) {
            if (row.info.extension && row.path.startsWith(QLatin1String("constraints.")))
                list << row.info.key;
        }
        return list;
    }();
    return keys;
}

std::optional<qint64> parseProgressTimeout(const QString &text, QString *error)
{
    static const QRegularExpression unitForm(QStringLiteral("^(\\d{1,9})\\s*([smhd]?)$"), QRegularExpression::CaseInsensitiveOption);
    const QString trimmed = text.trimmed();
    qint64 seconds = 0;
    if (const auto m = unitForm.match(trimmed); m.hasMatch()) {
        const QString unit = m.captured(2).toLower();
        const qint64 scale = unit == QLatin1String("m") ? 60 : unit == QLatin1String("h") ? 3600
                           : unit == QLatin1String("d") ? 86400 : 1;
        seconds = m.captured(1).toLongLong() * scale;
    } else {
        QString why;
        const auto span = parseWallClockTime(trimmed, &why);
        if (!span) {
            if (error)
                *error = QStringLiteral("expected a duration such as 90s, 30m, 2h or 00:30:00, found '%1'").arg(text.left(60));
            return std::nullopt;
        }
        seconds = span->seconds();
    }
    if (seconds < 1) {
        if (error)
            *error = QStringLiteral("expected a duration of at least 1 s, found '%1'").arg(text.left(60));
        return std::nullopt;
    }
    return seconds;
}

Result<QList<int>> parseExitCodeList(const QString &text)
{
    QList<int> codes;
    for (const QString &item : text.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        bool ok = false;
        const int code = item.trimmed().toInt(&ok);
        if (!ok || code < 1 || code > 255)
            return fail(QStringLiteral("--retry-on-exit-codes: '%1' is not an exit code from 1 to 255").arg(item.trimmed()));
        codes.append(code);
    }
    if (codes.isEmpty())
        return fail(QStringLiteral("--retry-on-exit-codes: expected codes such as 137,143, found '%1'").arg(text));
    return codes;
}

Result<QByteArray> applyReliabilityOptions(const QByteArray &spec, const ReliabilityOptions &options)
{
    if (options.isEmpty())
        return spec;
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(spec, &parseError);
    if (parseError.error != QJsonParseError::NoError || !doc.isObject())
        return fail(QStringLiteral("job.json is not a JSON object: cannot set the retry and progress options in it"));
    QJsonObject root = doc.object();
    // The service's file shape keeps its fields under "properties"; a bare one is them.
    const bool fileShape = root.contains(QStringLiteral("properties"));
    QJsonObject properties = fileShape ? root.value(QStringLiteral("properties")).toObject() : root;
    QJsonObject constraints = properties.value(QStringLiteral("constraints")).toObject();
    if (options.maxRetries)
        constraints.insert(QStringLiteral("maxRetries"), *options.maxRetries);
    if (options.retryOnExitCodes) {
        QJsonArray codes;
        for (int code : *options.retryOnExitCodes)
            codes.append(code);
        constraints.insert(QStringLiteral("retryOnExitCodes"), codes);
    }
    if (options.progressTimeout)
        constraints.insert(QStringLiteral("progressTimeout"), *options.progressTimeout);
    if (options.failOnHang)
        constraints.insert(QStringLiteral("failOnHang"), true);
    properties.insert(QStringLiteral("constraints"), constraints);
    if (fileShape)
        root.insert(QStringLiteral("properties"), properties);
    else
        root = properties;
    return QJsonDocument(root).toJson(QJsonDocument::Indented);
}

} // namespace TrainDesk
