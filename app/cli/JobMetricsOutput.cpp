#include "JobMetricsOutput.h"

#include "metrics/MetricCsv.h"
#include "metrics/MetricRows.h"
#include "store/Entities.h"

#include <QDateTime>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryFile>

#include <cmath>
#include <limits>
#include <optional>

namespace TrainDesk::Cli {

namespace {

// The cells of a record's table row, in the order of the headers below (6 digits: for
// reading; the CSV has them all); nothing for a record that is not part of the series.
std::optional<QStringList> seriesRow(const MetricRecord &m)
{
    const auto number = [](double v) { return std::isnan(v) ? QString() : QString::number(v, 'g', 6); };
    const auto counter = [](qint64 v) { return v < 0 ? QString() : QString::number(v); };
    if (m.kind != QLatin1String("train") && m.kind != QLatin1String("val") && m.kind != QLatin1String("epoch"))
        return std::nullopt;
    return QStringList{readableTime(m.time), m.kind, counter(m.rank), counter(m.epoch), counter(m.step),
                       number(m.loss), number(m.acc), number(m.valLoss), number(m.valAcc)};
}

// As QJsonDocument::Indented prints an array of objects, one element at a time.
VoidResult printJson(const Store &store, qint64 jobId, QTextStream &out)
{
    bool first = true;
    out << '[';
    auto read = MetricRows::forEachRow(store, jobId, [&](const QByteArray &record) {
        const QByteArray object = QJsonDocument(QJsonDocument::fromJson(record).object()).toJson(QJsonDocument::Indented);
        out << (first ? "\n" : ",\n");
        first = false;
        // Each line one level deeper; the object's own last newline is left to the separator.
        const QList<QByteArray> lines = object.trimmed().split('\n');
        for (qsizetype i = 0; i < lines.size(); ++i)
            out << "    " << QString::fromUtf8(lines.at(i)) << (i + 1 < lines.size() ? "\n" : "");
        return true;
    });
    out << "\n]\n";
    return read;
}

} // namespace

QString readableTime(double unixSeconds)
{
    // The local offset is looked up once per quarter hour of records (each lookup reads the
    // time zone file: a million lookups were a third of a million-record table's time).
    static qint64 quarter = std::numeric_limits<qint64>::min();
    static qint64 offsetMs = 0;
    const qint64 ms = qint64(std::llround(unixSeconds * 1000));
    if (const qint64 q = ms / (15 * 60 * 1000); q != quarter) {
        quarter = q;
        offsetMs = qint64(QDateTime::fromMSecsSinceEpoch(ms).offsetFromUtc()) * 1000;
    }
    const QDateTime local = QDateTime::fromMSecsSinceEpoch(ms + offsetMs, Qt::UTC);
    const QDate d = local.date();
    const QTime t = local.time();
    return QString::asprintf("%04d-%02d-%02d %02d:%02d:%02d.%03d", d.year(), d.month(), d.day(), t.hour(), t.minute(),
                             t.second(), t.msec());
}

VoidResult printJobMetrics(const Store &store, const Job &job, JobMetricsFormat format, QTextStream &out)
{
    const qint64 jobId = job.id;
    if (format == JobMetricsFormat::Json)
        return printJson(store, jobId, out);
    if (format == JobMetricsFormat::Csv) {
        out << MetricCsv::header();
        return MetricRows::forEachRecord(store, jobId, [&](const MetricRecord &record) {
            if (MetricCsv::isRow(record))
                out << MetricCsv::row(job.name, record);
            return true;
        });
    }
    const QStringList headers{"Time", "Kind", "Rank", "Epoch", "Step", "Loss", "Accuracy", "Val loss", "Val accuracy"};
    QList<int> widths = Table::widthsOf(headers);
    // The rows go to a scratch file while their widths are measured, and are printed from it:
    // each record is parsed once, and memory stays constant. Without a scratch file, the
    // records are read twice instead.
    QTemporaryFile scratch;
    const bool spooled = scratch.open();
    QTextStream spool(&scratch);
    auto measured = MetricRows::forEachRecord(store, jobId, [&](const MetricRecord &record) {
        if (const auto row = seriesRow(record)) {
            Table::widen(widths, *row);
            if (spooled)
                spool << row->join(QChar(0x1f)) << '\n';  // cells hold no control characters
        }
        return true;
    });
    if (!measured)
        return measured;
    out << Table::line(headers, widths) << Table::rule(widths);
    if (spooled) {
        spool.flush();
        if (spool.status() != QTextStream::Ok || !scratch.seek(0))
            return fail(QStringLiteral("cannot write the table's rows to %1: %2").arg(scratch.fileName(), scratch.errorString()));
        spool.seek(0);
        QString line;
        while (spool.readLineInto(&line))
            out << Table::line(line.split(QChar(0x1f)), widths);
        return {};
    }
    return MetricRows::forEachRecord(store, jobId, [&](const MetricRecord &record) {
        if (const auto row = seriesRow(record))
            out << Table::line(*row, widths);
        return true;
    });
}

} // namespace TrainDesk::Cli
