// TensorBoard event files (TFRecord framing, masked CRC-32C, Event protobufs) become named
// scalar series. The files are built here, byte by byte, to the format.
#include "TfEventsWriter.h"
#include "metrics/Crc32c.h"
#include "metrics/TfEventsReader.h"
#include "metrics/ScalarSeries.h"
#include "common/CsvField.h"

#include <QDateTime>

#include <QTest>

#include <cstring>

using namespace TrainDesk;
using namespace TfEventsWriter;

namespace {

QString describe(const QList<ScalarPoint> &points)
{
    QStringList lines;
    for (const ScalarPoint &p : points)
        lines << QStringLiteral("%1@%2=%3 t=%4").arg(p.name).arg(p.step).arg(p.value, 0, 'g', 8).arg(p.time, 0, 'f', 2);
    return lines.join(QLatin1Char('\n'));
}

// A file as a PyTorch + TensorFlow 2 script would leave it: the version record, then
// scalars of several tags in both forms, with records that are not scalars between.
QList<QByteArray> sampleRecords()
{
    return {record(key(1, 1) + doubleBits(99.0) + bytesField(3, "brain.Event:2")),
            record(event(100.5, 1, {simpleValue("train/loss", 0.5f), simpleValue("train/acc", 0.25f)})),
            record(event(101.0, 2, {tensorValue("epoch_loss", 0.125f), vectorValue("weights")})),
            record(event(102.0, 3, {tensorContentValue("lr", 2.5e-4), tensorValue("note", 1.0f, "text")})),
            record(event(103.0, 4, {simpleValue("train/loss", 0.375f)}))};
}

const QString expected = QStringLiteral("train/loss@1=0.5 t=100.50\n"
                                        "train/acc@1=0.25 t=100.50\n"
                                        "epoch_loss@2=0.125 t=101.00\n"
                                        "lr@3=0.00025 t=102.00\n"
                                        "train/loss@4=0.375 t=103.00");

} // namespace

class TestTfEvents : public QObject
{
    Q_OBJECT
private slots:
    void crc32cMatchesTheStandardCheckValue()
    {
        QCOMPARE(Crc32c::of(QByteArray("123456789")), 0xE3069283u);
        QCOMPARE(Crc32c::of(QByteArray()), 0u);
    }

    void simpleAndTensorScalarsOfSeveralTags()
    {
        const QByteArray file = sampleRecords().join();
        const auto chunk = TfEventsReader::read(file, 0, QStringLiteral("out/events.out.tfevents.1.host"));
        QVERIFY2(chunk.error.isEmpty(), qPrintable(chunk.error));
        QCOMPARE(chunk.consumed, file.size());
        QCOMPARE(describe(chunk.points), expected);
        for (const ScalarPoint &p : chunk.points) {
            QCOMPARE(p.source, QStringLiteral("tensorboard"));
            QCOMPARE(p.file, QStringLiteral("out/events.out.tfevents.1.host"));
            QCOMPARE(p.tag, p.name);
        }
        // Stored and read back as the agent does.
        const auto back = ScalarPoint::fromJson(chunk.points.at(3).toJson());
        QVERIFY(back);
        QCOMPARE(back->name, QStringLiteral("lr"));
        QCOMPARE(back->value, 2.5e-4);
        QCOMPARE(back->step, 3);
    }

    // PyTorch's add_hparams / Keras' hp.KerasCallback: the session_start_info's hparams are the
    // run's settings (numbers as the shortest text that reads back the same), nothing of them
    // is a point, and the experiment's list of hparams is no run's setting.
    void hparamsAreTheRunsSettings()
    {
        const QByteArray file = record(TfEventsWriter::event(100.0, 0, {hparamsValue({{"lr", numberValue(0.001)}, {"optimizer", stringValue("adam")},
                                                                       {"augment", boolValue(true)}, {"nothing", nullValue()},
                                                                       {"batch_size", numberValue(64)}})}))
            + record(TfEventsWriter::event(100.0, 0, {hparamsValue({{"dropout", numberValue(0.5)}}, 2)}))
            + record(TfEventsWriter::event(101.0, 1, {simpleValue("loss", 0.5f)}));
        const auto chunk = TfEventsReader::read(file, 0, QStringLiteral("events.out.tfevents.1.host"));
        QVERIFY2(chunk.error.isEmpty(), qPrintable(chunk.error));
        QCOMPARE(chunk.consumed, file.size());
        QCOMPARE(describe(chunk.points), QStringLiteral("loss@1=0.5 t=101.00"));
        const QList<std::pair<QString, QString>> want{{QStringLiteral("lr"), QStringLiteral("0.001")},
                                                     {QStringLiteral("optimizer"), QStringLiteral("adam")},
                                                     {QStringLiteral("augment"), QStringLiteral("true")},
                                                     {QStringLiteral("batch_size"), QStringLiteral("64")}};
        QCOMPARE(chunk.settings, want);
    }

    void aTornTailIsLeftForTheNextRead()
    {
        const QByteArray file = sampleRecords().join();
        // Every cut: what the first read leaves, the second one reads; nothing twice or lost.
        for (qsizetype cut = 0; cut <= file.size(); ++cut) {
            const auto first = TfEventsReader::read(file.left(cut), 0, QStringLiteral("f"));
            QVERIFY2(first.error.isEmpty(), qPrintable(first.error));
            QVERIFY(first.consumed <= cut);
            if (first.consumed < file.size() && cut - first.consumed >= 12)
                QVERIFY(first.nextRecordSize > cut - first.consumed);
            const auto second = TfEventsReader::read(file.mid(first.consumed), first.consumed, QStringLiteral("f"));
            QVERIFY2(second.error.isEmpty(), qPrintable(second.error));
            QCOMPARE(first.consumed + second.consumed, file.size());
            QCOMPARE(describe(first.points + second.points), expected);
        }
    }

    void aBadCrcIsNamedWithItsOffset()
    {
        const QList<QByteArray> records = sampleRecords();
        const qsizetype secondAt = records.at(0).size();
        QByteArray file = records.join();
        // A byte of the second record's Event flipped: its data CRC fails.
        file[secondAt + 12 + 3] = char(file[secondAt + 12 + 3] ^ 0x40);
        const auto chunk = TfEventsReader::read(file, 0, QStringLiteral("logs/events.out.tfevents.9"));
        QCOMPARE(chunk.errorOffset, secondAt);
        QVERIFY2(chunk.error.contains(QStringLiteral("logs/events.out.tfevents.9"))
                     && chunk.error.contains(QStringLiteral("offset %1").arg(secondAt))
                     && chunk.error.contains(QStringLiteral("CRC")),
                 qPrintable(chunk.error));
        QCOMPARE(chunk.consumed, secondAt);  // the record before it is read
        QVERIFY(chunk.points.isEmpty());     // (the version record has no scalar)

        // Read from a later offset, the offset is the file's, not the piece's.
        QByteArray lengthBroken = records.join();
        const qsizetype thirdAt = secondAt + records.at(1).size();
        lengthBroken[thirdAt + 9] = char(lengthBroken[thirdAt + 9] ^ 0x01);  // the length's CRC
        const auto later = TfEventsReader::read(lengthBroken.mid(secondAt), secondAt, QStringLiteral("f"));
        QCOMPARE(later.errorOffset, thirdAt);
        QVERIFY2(later.error.contains(QStringLiteral("offset %1").arg(thirdAt)), qPrintable(later.error));
        QCOMPARE(describe(later.points), QStringLiteral("train/loss@1=0.5 t=100.50\ntrain/acc@1=0.25 t=100.50"));
        QCOMPARE(later.consumed, thirdAt - secondAt);
    }

    // Issue #38: a length field of 2^63 with a valid CRC asked the agent for 2^40 bytes
    // (std::bad_alloc). Outside bytes never size an allocation: named, with file and offset.
    // (Mutation caught: dropping the maxRecordBytes check -> nextRecordSize is asked instead.)
    void aHugeLengthIsNamedNotAllocated()
    {
        const QByteArray first = sampleRecords().at(1);
        for (const quint64 length : {quint64(1) << 63, ~quint64(0), TfEventsReader::maxRecordBytes + 1}) {
            const QByteArray lengthBytes = littleEndian(length, 8);
            const QByteArray hostile = lengthBytes + littleEndian(Crc32c::masked(Crc32c::of(lengthBytes)), 4)
                + QByteArray(5 * 1024 * 1024, 'x');
            const auto chunk = TfEventsReader::read(first + hostile, 0, QStringLiteral("logs/events.out.tfevents.1"));
            QCOMPARE(chunk.errorOffset, first.size());
            QCOMPARE(chunk.nextRecordSize, 0);
            QCOMPARE(chunk.consumed, first.size());
            QCOMPARE(chunk.points.size(), 2);
            QVERIFY2(chunk.error.contains(QStringLiteral("logs/events.out.tfevents.1"))
                         && chunk.error.contains(QStringLiteral("offset %1").arg(first.size()))
                         && chunk.error.contains(QString::number(length)),
                     qPrintable(chunk.error));
        }
        // A long record within the limit is waited for: its size is asked, not an error.
        const QByteArray lengthBytes = littleEndian(8 * 1024 * 1024, 8);
        const auto waiting = TfEventsReader::read(lengthBytes + littleEndian(Crc32c::masked(Crc32c::of(lengthBytes)), 4)
                                                      + QByteArray(1024, 'x'), 0, QStringLiteral("f"));
        QVERIFY2(waiting.error.isEmpty(), qPrintable(waiting.error));
        QCOMPARE(waiting.nextRecordSize, 8 * 1024 * 1024 + 16);
    }

    // Every name TensorBoard itself loads: it looks for "tfevents" in the name (CatBoost
    // writes a bare events.out.tfevents; TensorFlow 2 profiles end in .v2).
    void everyEventFileNameTensorBoardReads()
    {
        for (const char *name : {"events.out.tfevents", "events.out.tfevents.1700000000.host.123.0",
                                 "events.out.tfevents.1700000000.host.profile-empty", "events.out.tfevents.17.host.v2",
                                 "my.tfevents.1"})
            QVERIFY2(TfEventsReader::isEventFile(QString::fromLatin1(name)), name);
        for (const char *name : {"events.out", "stdout-0.txt", "metrics.jsonl"})
            QVERIFY2(!TfEventsReader::isEventFile(QString::fromLatin1(name)), name);
    }

    // Issue #38: a NaN wall time was stored as 1970, 1e308 printed as 309 digits; a series of
    // infinities had min and max "nan". (Mutations caught: the wall-time guard removed;
    // isnan back to isfinite in ScalarSeries::minimum.)
    void wallTimesThatAreNoTimeAndInfiniteSeries()
    {
        const double before = double(QDateTime::currentMSecsSinceEpoch()) / 1000.0;
        for (const double wall : {double(NAN), 1e308, -5.0}) {
            const auto chunk = TfEventsReader::read(record(TfEventsWriter::event(wall, 1, {simpleValue("loss", 1.0f)})), 0, QStringLiteral("f"));
            QCOMPARE(chunk.points.size(), 1);
            QVERIFY2(chunk.points.first().time >= before && chunk.points.first().time < before + 3600,
                     qPrintable(QString::number(chunk.points.first().time)));
        }
        ScalarSeries s;
        for (const double v : {double(INFINITY), -double(INFINITY), double(NAN)}) {
            ScalarPoint p;
            p.value = v;
            s.points << p;
        }
        QCOMPARE(s.minimum(), -double(INFINITY));
        QCOMPARE(s.maximum(), double(INFINITY));
    }

    // One cell writer for every CSV (issue #38): a name with line breaks stays one cell, a
    // formula gets a leading ', numbers stay numbers, raw writes text as it is.
    void csvCellsAreQuotedAndFormulasNeutralised()
    {
        QCOMPARE(csvField(QStringLiteral("a\nb")), QStringLiteral("\"a\nb\""));
        QCOMPARE(csvField(QStringLiteral("say \"hi\", then")), QStringLiteral("\"say \"\"hi\"\", then\""));
        QCOMPARE(csvField(QStringLiteral("=HYPERLINK(\"x\")")), QStringLiteral("\"'=HYPERLINK(\"\"x\"\")\""));
        for (const char *formula : {"+1+cmd", "-2+3", "@SUM(A1)", "\tx", "=1"})
            QCOMPARE(csvField(QString::fromLatin1(formula)).remove(QLatin1Char('"')).front(), QLatin1Char('\''));
        for (const char *number : {"-0.5", "+1e-3", "-inf", "12"})
            QCOMPARE(csvField(QString::fromLatin1(number)), QString::fromLatin1(number));
        QCOMPARE(csvField(QStringLiteral("=1+1"), CsvText::Raw), QStringLiteral("=1+1"));
        QCOMPARE(csvField(QStringLiteral("plain")), QStringLiteral("plain"));
    }

    void aRecordThatIsNoEventIsNamed()
    {
        const QByteArray file = record(QByteArray("\x0a\xff\xff\xff\xff\x0f", 6));  // a length beyond the data
        const auto chunk = TfEventsReader::read(file, 0, QStringLiteral("f"));
        QCOMPARE(chunk.errorOffset, 0);
        QVERIFY2(chunk.error.contains(QStringLiteral("not an Event")), qPrintable(chunk.error));
    }
};

QTEST_GUILESS_MAIN(TestTfEvents)
#include "tst_tfevents.moc"
