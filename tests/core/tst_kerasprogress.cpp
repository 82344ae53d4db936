// Keras progress text (a Keras or Horovod script's stdout) becomes metric records.
#include "metrics/KerasProgressParser.h"
#include "metrics/MetricRecord.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <cmath>

using namespace TrainDesk;

namespace {

QList<MetricRecord> records(const QList<QByteArray> &json, const QString &kind)
{
    QList<MetricRecord> out;
    for (const QByteArray &j : json) {
        const auto r = MetricRecord::fromJson(j);
        if (r && r->kind == kind)
            out.append(*r);
    }
    return out;
}

// Two epochs as Keras 2.1 prints them with mpirun --tag-output: bars redrawn with \r,
// rank 1 printing the same bars, the epoch's last bar carrying the validation values.
const QByteArray kerasOutput =
    "[1,0]<stdout>:Epoch 1/2\n"
    "[1,1]<stdout>:Epoch 1/2\n"
    "[1,0]<stdout>:   32/1000 [>.....] - ETA: 30s - loss: 2.3334 - acc: 0.0312\r"
    "[1,1]<stdout>:   32/1000 [>.....] - ETA: 30s - loss: 9.9999 - acc: 0.9999\r"
    "[1,0]<stdout>:  512/1000 [==>...] - ETA: 10s - loss: 2.1000 - acc: 0.2000\r"
    "[1,0]<stdout>: 1000/1000 [======] - 20s 20ms/step - loss: 1.9000 - acc: 0.3000 - val_loss: 1.8000 - val_acc: 0.3500\n"
    "[1,0]<stdout>:Epoch 2/2\n"
    "[1,0]<stdout>:  512/1000 [==>...] - ETA: 10s - loss: 1.5000 - accuracy: 0.4500\r";

// kerasOutput's records, worked out by hand from docs/METRICS.md (not from the parser): rank
// 0's "Epoch" lines give "epoch" records, its bars "train", rank 1's bars "rank"; the
// numerator is the step; global_step counts on over epochs of 1000; the epoch's last bar
// also gives "val". One entry per record, in the order of the text.
const QStringList kerasOutputRecords{
    "epoch epoch=1 epochs=2",
    "train epoch=1 step=32 global_step=32 loss=2.3334 acc=0.0312",
    "rank rank=1 epoch=1 step=32 global_step=32 loss=9.9999 acc=0.9999",
    "train epoch=1 step=512 global_step=512 loss=2.1 acc=0.2",
    "train epoch=1 step=1000 global_step=1000 loss=1.9 acc=0.3",
    "val epoch=1 step=1000 global_step=1000 val_loss=1.8 val_acc=0.35",
    "epoch epoch=2 epochs=2",
    "train epoch=2 step=512 global_step=1512 loss=1.5 acc=0.45",
};

// A record as one line of the fields it carries.
QString describe(const MetricRecord &r)
{
    QStringList fields{r.kind};
    if (r.rank >= 0)
        fields << QStringLiteral("rank=%1").arg(r.rank);
    if (r.epoch >= 0)
        fields << QStringLiteral("epoch=%1").arg(r.epoch);
    if (r.step >= 0)
        fields << QStringLiteral("step=%1").arg(r.step);
    if (r.globalStep >= 0)
        fields << QStringLiteral("global_step=%1").arg(r.globalStep);
    const QList<QPair<const char *, double>> values{{"loss", r.loss}, {"acc", r.acc}, {"val_loss", r.valLoss}, {"val_acc", r.valAcc}};
    for (const auto &[name, value] : values) {
        if (!std::isnan(value))
            fields << QStringLiteral("%1=%2").arg(QLatin1String(name)).arg(value);
    }
    return fields.join(QLatin1Char(' '));
}

QStringList describeAll(const QList<QByteArray> &json)
{
    QStringList out;
    for (const QByteArray &j : json) {
        const auto r = MetricRecord::fromJson(j);
        QString line = r ? describe(*r) : QStringLiteral("unreadable: ") + QString::fromUtf8(j);
        // "epochs" is not a MetricRecord field: read from the JSON itself.
        if (const QJsonValue epochs = QJsonDocument::fromJson(j).object().value("epochs"); !epochs.isUndefined())
            line += QStringLiteral(" epochs=%1").arg(epochs.toInt());
        out << line;
    }
    return out;
}

} // namespace

class TestKerasProgress : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void otherRanksBecomeRankRecords()
    {
        KerasProgressParser parser;
        const QList<MetricRecord> ranks = records(parser.parse(kerasOutput), "rank");
        QCOMPARE(ranks.size(), 1);  // rank 0 has no rank records: its train series is its own
        QCOMPARE(ranks.first().rank, 1);
        QCOMPARE(ranks.first().loss, 9.9999);
        QCOMPARE(ranks.first().acc, 0.9999);
        QCOMPARE(ranks.first().globalStep, 32);
        QCOMPARE(ranks.first().epoch, 1);

        // Each rank counts its own epochs: rank 2 still in epoch 1 while rank 0 is in epoch 2.
        const QList<MetricRecord> later = records(parser.parse("[1,2]<stdout>:Epoch 1/2\n"
                                                               "[1,0]<stdout>:Epoch 2/2\n"
                                                               "[1,2]<stdout>:  64/1000 [>...] - loss: 3.5 - acc: 0.1\n"
                                                               "[1,1]<stdout>:Epoch 2/2\n"
                                                               "[1,1]<stdout>:  64/1000 [>...] - loss: 1.5 - acc: 0.6\n"),
                                                  "rank");
        QCOMPARE(later.size(), 2);
        QCOMPARE(later.at(0).rank, 2);
        QCOMPARE(later.at(0).epoch, 1);
        QCOMPARE(later.at(0).globalStep, 64);
        QCOMPARE(later.at(1).rank, 1);
        QCOMPARE(later.at(1).epoch, 2);
        QCOMPARE(later.at(1).globalStep, 1064);
        QCOMPARE(parser.epoch(), 2);
    }

    void parsesTrainAndValidation()
    {
        KerasProgressParser parser;
        const QList<QByteArray> json = parser.parse(kerasOutput);
        const QList<MetricRecord> train = records(json, "train");
        QCOMPARE(train.size(), 4);  // rank 1's bar is not charted
        QCOMPARE(train.at(0).loss, 2.3334);
        QCOMPARE(train.at(0).globalStep, 32);
        QCOMPARE(train.at(2).acc, 0.3);
        QCOMPARE(train.at(3).epoch, 2);
        QCOMPARE(train.at(3).globalStep, 1512);
        QCOMPARE(train.at(3).acc, 0.45);  // "accuracy" read as acc
        const QList<MetricRecord> val = records(json, "val");
        QCOMPARE(val.size(), 1);
        QCOMPARE(val.first().valLoss, 1.8);
        QCOMPARE(val.first().valAcc, 0.35);
        QCOMPARE(val.first().epoch, 1);
        QCOMPARE(parser.epoch(), 2);
    }

    void recordsAreThoseWorkedOutByHand()
    {
        KerasProgressParser parser;
        const QStringList got = describeAll(parser.parse(kerasOutput));
        QVERIFY2(got == kerasOutputRecords, qPrintable("got:\n" + got.join('\n')));
    }

    void piecesGiveTheSameRecords()
    {
        // Cut after every whole line; carry the state over as the reader does.
        QStringList got;
        QByteArray state;
        QByteArray rest = kerasOutput;
        while (!rest.isEmpty()) {
            qsizetype cut = rest.size();
            for (char end : {'\r', '\n'}) {
                if (const qsizetype at = rest.indexOf(end); at >= 0)
                    cut = qMin(cut, at + 1);
            }
            KerasProgressParser piece;
            if (!state.isEmpty())
                piece.setState(state);
            got += describeAll(piece.parse(rest.left(cut)));
            state = piece.state();
            rest = rest.mid(cut);
        }
        QVERIFY2(got == kerasOutputRecords, qPrintable("got:\n" + got.join('\n')));
    }

    void fourRanksAcrossAnEpochBoundaryInPieces()
    {
        // Four ranks; ranks 1-3 finish epoch 1 after rank 0 has begun epoch 2. Read one line
        // at a time by fresh parsers that carry only the saved state, as a restarted reader
        // does: each rank's series is what the text says, no point moved to another epoch.
        QByteArray text;
        for (int r = 0; r < 4; ++r)
            text += QStringLiteral("[1,%1]<stdout>:Epoch 1/2\n").arg(r).toUtf8();
        for (int r = 0; r < 4; ++r)
            text += QStringLiteral("[1,%1]<stdout>:  500/1000 [==>...] - ETA: 9s - loss: %2.5 - acc: 0.1\r").arg(r).arg(r).toUtf8();
        text += "[1,0]<stdout>: 1000/1000 [======] - 9s - loss: 0.9 - acc: 0.2\n[1,0]<stdout>:Epoch 2/2\n";
        for (int r = 1; r < 4; ++r) {
            text += QStringLiteral("[1,%1]<stdout>: 1000/1000 [======] - 9s - loss: %2.4 - acc: 0.2\n").arg(r).arg(r).toUtf8();
            text += QStringLiteral("[1,%1]<stdout>:Epoch 2/2\n").arg(r).toUtf8();
        }
        for (int r = 0; r < 4; ++r)
            text += QStringLiteral("[1,%1]<stdout>:  500/1000 [==>...] - ETA: 9s - loss: %2.3 - acc: 0.3\r").arg(r).arg(r).toUtf8();

        QHash<int, QList<QPair<int, qint64>>> series;  // rank -> (epoch, step)
        QByteArray state;
        QByteArray rest = text;
        while (!rest.isEmpty()) {
            qsizetype cut = rest.size();
            for (char end : {'\r', '\n'}) {
                if (const qsizetype at = rest.indexOf(end); at >= 0)
                    cut = qMin(cut, at + 1);
            }
            KerasProgressParser piece;
            if (!state.isEmpty())
                piece.setState(state);
            for (const QByteArray &json : piece.parse(rest.left(cut))) {
                const auto m = MetricRecord::fromJson(json);
                if (m && (m->kind == QLatin1String("train") || m->kind == QLatin1String("rank")))
                    series[m->kind == QLatin1String("rank") ? m->rank : 0].append({m->epoch, m->step});
            }
            state = piece.state();
            rest = rest.mid(cut);
        }
        // Read from the text above by hand: every rank 500 and 1000 of epoch 1, 500 of epoch 2.
        const QList<QPair<int, qint64>> expected{{1, 500}, {1, 1000}, {2, 500}};
        for (int r = 0; r < 4; ++r)
            QCOMPARE(series.value(r), expected);
    }

    void wholeLinesOnly()
    {
        QCOMPARE(KerasProgressParser::wholeLinesLength("abc"), 0);
        QCOMPARE(KerasProgressParser::wholeLinesLength("a\rbc"), 2);
        QCOMPARE(KerasProgressParser::wholeLinesLength("a\nb\rc"), 4);
    }

    void ignoresOtherText()
    {
        KerasProgressParser parser;
        QVERIFY(parser.parse("Using TensorFlow backend.\nloss: 1.0\n12/34 not a bar\n").isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestKerasProgress)
#include "tst_kerasprogress.moc"
