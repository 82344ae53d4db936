// libFuzzer target for the parsers of what jobs write (issue #38). The first byte picks the
// parser, the rest is the file's bytes. Nothing may crash, leak, trip a sanitizer or ask for
// memory the bytes do not justify (run_fuzz.sh caps RSS), and each parser keeps its
// contract:
// - event files: whole records read in one piece or cut anywhere into two give the same
//   points; nothing is consumed past the bytes; a record size asked is within the limit;
// - progress lines and Keras text: parsing in two pieces with the state carried over gives
//   the same records; every point survives its JSON round trip;
// - every record that parses becomes a CSV row whose quotes balance.
#include "common/CsvField.h"
#include "metrics/KerasProgressParser.h"
#include "metrics/MetricCsv.h"
#include "metrics/MetricRecord.h"
#include "metrics/ScalarPoint.h"
#include "metrics/ScalarSeries.h"
#include "metrics/TextScalarParser.h"
#include "metrics/TfEventsReader.h"

#include <cstdio>
#include <cstdlib>

using namespace TrainDesk;

namespace {

[[noreturn]] void failWith(const char *what, const QByteArray &detail = {})
{
    std::fprintf(stderr, "fuzz_metrics: %s\n%s\n", what, detail.constData());
    std::abort();
}

QByteArray pointsText(const QList<ScalarPoint> &points)
{
    QByteArray text;
    for (const ScalarPoint &p : points) {
        QByteArray json = p.toJson();
        // The time of reading stands in for a wall time that is no time: not compared.
        if (!(p.time >= 0 && p.time < 1e11))
            failWith("a point's time is no time", json);
        const auto back = ScalarPoint::fromJson(json);
        if (!back || back->name != p.name)
            failWith("a point does not read back", json);
        text += p.name.toUtf8() + '@' + QByteArray::number(p.step) + '=' + QByteArray::number(p.value) + '\n';
    }
    return text;
}

void checkCsv(const QString &cell)
{
    const QString field = csvField(cell);
    if (field.count(QLatin1Char('"')) % 2 != 0)
        failWith("a CSV cell with unbalanced quotes", field.toUtf8());
    if ((field.contains(QLatin1Char('\n')) || field.contains(QLatin1Char(','))) && !field.startsWith(QLatin1Char('"')))
        failWith("a CSV cell with a line break or comma unquoted", field.toUtf8());
}

void eventFile(const QByteArray &data, size_t cutSeed)
{
    const auto whole = TfEventsReader::read(data, 0, QStringLiteral("f"));
    if (whole.consumed < 0 || whole.consumed > data.size())
        failWith("consumed past the bytes");
    if (quint64(whole.nextRecordSize) > TfEventsReader::maxRecordBytes + 16)
        failWith("a record size over the limit was asked");
    for (const ScalarPoint &p : whole.points)
        checkCsv(p.name);
    if (!whole.error.isEmpty() || whole.consumed == 0)
        return;
    const qsizetype cut = qsizetype(cutSeed % size_t(whole.consumed + 1));
    const auto first = TfEventsReader::read(data.left(cut), 0, QStringLiteral("f"));
    const auto second = TfEventsReader::read(data.mid(first.consumed, whole.consumed - first.consumed), first.consumed,
                                             QStringLiteral("f"));
    if (!first.error.isEmpty() || !second.error.isEmpty() || first.consumed + second.consumed != whole.consumed)
        failWith("a cut changed what was read");
    if (pointsText(first.points + second.points) != pointsText(whole.points))
        failWith("a cut changed the points");
}

void progressLines(const QByteArray &data, size_t cutSeed)
{
    const qsizetype length = KerasProgressParser::wholeLinesLength(data);
    TextScalarParser whole(QStringLiteral("stdout-0.txt"), 0);
    const QByteArray all = pointsText(whole.parse(data.left(length)));
    // Cut at a line end: the state carries the rest.
    const qsizetype cut = KerasProgressParser::wholeLinesLength(data.left(qsizetype(cutSeed % size_t(length + 1))));
    TextScalarParser first(QStringLiteral("stdout-0.txt"), 0);
    QByteArray pieces = pointsText(first.parse(data.left(cut)));
    TextScalarParser second(QStringLiteral("stdout-0.txt"), 0);
    second.setState(first.state());
    pieces += pointsText(second.parse(data.mid(cut, length - cut)));
    if (pieces != all)
        failWith("parsing in two pieces changed the points", data.left(4096));
}

void kerasText(const QByteArray &data)
{
    const qsizetype length = KerasProgressParser::wholeLinesLength(data);
    KerasProgressParser parser;
    for (const QByteArray &record : parser.parse(data.left(length))) {
        const auto parsed = MetricRecord::fromJson(record);
        if (!parsed)
            failWith("the Keras parser made a record that does not read", record);
        if (MetricCsv::isRow(*parsed) && MetricCsv::row(QStringLiteral("run"), *parsed).count('\n') != 1)
            failWith("a CSV row that is not one line", record);
    }
    KerasProgressParser again;
    again.setState(parser.state());
}

void jsonLines(const QByteArray &data)
{
    QList<MetricRecord> records;
    for (const QByteArray &line : data.split('\n')) {
        const auto r = MetricRecord::fromJson(line.trimmed());
        if (!r)
            continue;
        if (MetricCsv::isRow(*r) && MetricCsv::row(QStringLiteral("run"), *r).count('\n') != 1)
            failWith("a CSV row that is not one line", line);
        r->numbers();
        records.append(*r);
    }
    for (const ScalarSeries &s : ScalarSeries::fromRecords(records)) {
        checkCsv(s.name);
        s.minimum();
        s.maximum();
    }
    ScalarSeries::problems(records);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *bytes, size_t size)
{
    if (size < 1)
        return 0;
    const QByteArray data(reinterpret_cast<const char *>(bytes + 1), qsizetype(size - 1));
    size_t cutSeed = 0;
    for (size_t i = 1; i < size && i < 9; ++i)
        cutSeed = cutSeed * 131 + bytes[i];
    switch (bytes[0] % 4) {
    case 0: eventFile(data, cutSeed); break;
    case 1: progressLines(data, cutSeed); break;
    case 2: kerasText(data); break;
    case 3: jsonLines(data); break;
    }
    return 0;
}
