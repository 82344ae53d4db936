#include "MetricSeries.h"

#include "metrics/MetricRecord.h"
#include "store/Store.h"

#include <QDateTime>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryFile>

#include <cmath>
#include <limits>
#include <optional>

namespace TrainDesk::Cli {

namespace {

// The cells of a record's row, in the order of the headers below; nothing for a record
// that is not part of the series.
std::optional<QStringList> seriesRow(const QByteArray &json, MetricSeriesFormat format)
{
    const auto number = [](double v) { return std::isnan(v) ? QString() : QString::number(v, 'g', 6); };
    const auto counter = [](qint64 v) { return v < 0 ? QString() : QString::number(v); };
    const auto m = MetricRecord::fromJson(json);
    if (!m || (m->kind != QLatin1String("train") && m->kind != QLatin1String("val") && m->kind != QLatin1String("epoch")))
        return std::nullopt;
    const QString time = format == MetricSeriesFormat::Table ? readableTime(m->time) : QString::number(m->time, 'f', 3);
    return QStringList{time, m->kind, counter(m->rank), counter(m->epoch), counter(m->step),
                       number(m->loss), number(m->acc), number(m->valLoss), number(m->valAcc)};
}

// As QJsonDocument::Indented prints an array of objects, one element at a time.
VoidResult printJson(const Store &store, qint64 jobId, QTextStream &out)
{
    bool first = true;
    out << '[';
    auto read = store.forEachJobMetric(jobId, [&](qint64, const QByteArray &record) {
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

VoidResult printMetricSeries(const Store &store, qint64 jobId, MetricSeriesFormat format, QTextStream &out)
{
    if (format == MetricSeriesFormat::Json)
        return printJson(store, jobId, out);
    if (format == MetricSeriesFormat::Csv) {
        // Every cell is a number or a kind name: nothing to quote.
        out << "time,kind,rank,epoch,step,loss,accuracy,val_loss,val_accuracy\n";
        return store.forEachJobMetric(jobId, [&](qint64, const QByteArray &record) {
            if (const auto row = seriesRow(record, format))
                out << row->join(QLatin1Char(',')) << '\n';
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
    auto measured = store.forEachJobMetric(jobId, [&](qint64, const QByteArray &record) {
        if (const auto row = seriesRow(record, format)) {
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
    return store.forEachJobMetric(jobId, [&](qint64, const QByteArray &record) {
        if (const auto row = seriesRow(record, format))
            out << Table::line(*row, widths);
        return true;
    });
}

} // namespace TrainDesk::Cli
