// TensorBoard event files (TFRecord framing, masked CRC-32C, Event protobufs) become named
// scalar series. The files are built here, byte by byte, to the format.
#include "TfEventsWriter.h"
#include "metrics/Crc32c.h"
#include "metrics/TfEventsReader.h"

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
