// The progress lines training scripts print become named scalar series: each shape
// against lines whose points are worked out by hand.
#include "metrics/TextScalarParser.h"

#include <QTest>

using namespace TrainDesk;

namespace {

// "name step epoch value rank" per point, for comparing whole lists at once.
QString describe(const QList<ScalarPoint> &points)
{
    QStringList lines;
    for (const ScalarPoint &p : points)
        lines << QStringLiteral("%1 step=%2 epoch=%3 value=%4 rank=%5 %6")
                     .arg(p.name).arg(p.step).arg(p.epoch).arg(p.value, 0, 'g', 8).arg(p.rank).arg(p.source);
    return lines.join(QLatin1Char('\n'));
}

} // namespace

class TestTextScalars : public QObject
{
    Q_OBJECT
private slots:
    void pyTorchExamplesProgressMeter()
    {
        TextScalarParser parser(QStringLiteral("stdouterr/stdout-1.txt"), 1);
        // pytorch/examples imagenet/main.py and mnist: "Epoch: [e][i/n]" then "Name value (avg)".
        const auto points = parser.parse(
            "Epoch: [0][ 10/469]\tTime  0.123 ( 0.456)\tData  0.001 ( 0.002)\tLoss 2.3081e+00 (2.3081e+00)\t"
            "Acc@1   9.38 (  9.38)\tAcc@5  50.00 ( 48.44)\n"
            "Epoch: [2][468/469]  Loss 1.5e-01 (2.0e-01)  Acc@1  96.88 ( 95.10)\n"
            "Test: [ 5/79]\tLoss 0.25 (0.30)\tAcc@1  93.75 ( 92.00)\n"
            " * Acc@1 92.500 Acc@5 99.100\n");
        // Epoch 0, batch 10 of 469: global step 10; epoch 2, batch 468: 2 * 469 + 468 = 1406.
        // The Test lines and the summary take the last epoch (2); the summary has no step.
        QCOMPARE(describe(points),
                 QStringLiteral("Time step=10 epoch=0 value=0.123 rank=1 pytorch-examples\n"
                                "Data step=10 epoch=0 value=0.001 rank=1 pytorch-examples\n"
                                "Loss step=10 epoch=0 value=2.3081 rank=1 pytorch-examples\n"
                                "Acc@1 step=10 epoch=0 value=9.38 rank=1 pytorch-examples\n"
                                "Acc@5 step=10 epoch=0 value=50 rank=1 pytorch-examples\n"
                                "Loss step=1406 epoch=2 value=0.15 rank=1 pytorch-examples\n"
                                "Acc@1 step=1406 epoch=2 value=96.88 rank=1 pytorch-examples\n"
                                "Test/Loss step=5 epoch=2 value=0.25 rank=1 pytorch-examples\n"
                                "Test/Acc@1 step=5 epoch=2 value=93.75 rank=1 pytorch-examples\n"
                                "Acc@1 (val) step=-1 epoch=2 value=92.5 rank=1 pytorch-examples\n"
                                "Acc@5 (val) step=-1 epoch=2 value=99.1 rank=1 pytorch-examples"));
        QCOMPARE(points.first().file, QStringLiteral("stdouterr/stdout-1.txt"));
        QCOMPARE(points.at(2).tag, QStringLiteral("Epoch Loss"));

        // The epoch goes on with the file's offset: a later piece's Test line still gets it.
        TextScalarParser resumed(QStringLiteral("f"), 0);
        resumed.setState(parser.state());
        QCOMPARE(describe(resumed.parse("Test: [1/79]  Loss 0.5 (0.5)\n")),
                 QStringLiteral("Test/Loss step=1 epoch=2 value=0.5 rank=0 pytorch-examples"));
    }

    void pyTorchExamplesMnistLines()
    {
        TextScalarParser parser(QStringLiteral("stdouterr/stdout.txt"), -1);
        // pytorch/examples mnist/main.py (hogwild's puts its pid in front; VAE's test line).
        const auto points = parser.parse(
            "Train Epoch: 1 [0/60000 (0%)]\tLoss: 2.305400\n"
            "Train Epoch: 1 [640/60000 (1%)]\tLoss: 0.123456\n"
            "Test set: Average loss: 0.0500, Accuracy: 9837/10000 (98%)\n"
            "4242\tTrain Epoch: 2 [30000/60000 (50%)]\tLoss: 0.05\n"
            "====> Test set loss: 127.5\n");
        // The x is the fraction of epochs done: 1 - 1 + 640/60000; a test line stands at the
        // end of the last training epoch seen. Accuracy is a percentage.
        QCOMPARE(describe(points),
                 QStringLiteral("Loss step=-1 epoch=0 value=2.3054 rank=-1 pytorch-examples\n"
                                "Loss step=-1 epoch=0.0106667 value=0.123456 rank=-1 pytorch-examples\n"
                                "Test/Loss step=-1 epoch=1 value=0.05 rank=-1 pytorch-examples\n"
                                "Test/Accuracy step=-1 epoch=1 value=98.37 rank=-1 pytorch-examples\n"
                                "Loss step=-1 epoch=1.5 value=0.05 rank=-1 pytorch-examples\n"
                                "Test/Loss step=-1 epoch=2 value=127.5 rank=-1 pytorch-examples"));
        QCOMPARE(points.at(1).x(), 640.0 / 60000);
        QCOMPARE(points.at(1).tag, QStringLiteral("Train Epoch Loss"));
        // The epoch goes on with the file's offset.
        TextScalarParser resumed(QStringLiteral("f"), 0);
        resumed.setState(parser.state());
        QCOMPARE(describe(resumed.parse("Test set: Average loss: 0.04, Accuracy: 9900/10000 (99%)\n")),
                 QStringLiteral("Test/Loss step=-1 epoch=2 value=0.04 rank=0 pytorch-examples\n"
                                "Test/Accuracy step=-1 epoch=2 value=99 rank=0 pytorch-examples"));
    }

    void huggingFaceTrainerDicts()
    {
        TextScalarParser parser(QStringLiteral("stdouterr/stdout.txt"), -1);
        const auto points = parser.parse(
            "{'loss': 0.5213, 'learning_rate': 4.5e-05, 'epoch': 1.0}\n"
            "[1,1]<stdout>:{'eval_loss': 0.4, 'eval_accuracy': 0.875, 'eval_runtime': 1.5, 'epoch': 1.5}\n"
            "{'a': 1, 'b': 2}\n");  // neither an epoch nor a step: not a Trainer's line
        QCOMPARE(describe(points),
                 QStringLiteral("loss step=-1 epoch=1 value=0.5213 rank=-1 huggingface\n"
                                "learning_rate step=-1 epoch=1 value=4.5e-05 rank=-1 huggingface\n"
                                "eval_loss step=-1 epoch=1.5 value=0.4 rank=1 huggingface\n"
                                "eval_accuracy step=-1 epoch=1.5 value=0.875 rank=1 huggingface\n"
                                "eval_runtime step=-1 epoch=1.5 value=1.5 rank=1 huggingface"));
        QCOMPARE(points.first().x(), 1.0);
    }

    void keyValuePairsWithAStepOrEpoch()
    {
        TextScalarParser parser(QStringLiteral("log.txt"), 0);
        const auto points = parser.parse(
            "step=100 loss=0.25 lr=1e-3 throughput=512.5\n"
            "epoch: 2/10, iter: 300, train_loss: 0.4 | val_acc: 0.81\n"
            "INFO:root:global_step=7 loss=nan\n"
            "loss: 0.3 acc: 0.9\n"                              // no step or epoch: not a point
            "  352/50000 [>....] - ETA: 1:23 - loss: 2.3334\n"  // Keras progress: KerasProgressParser's
            "Time: 12:30:01 step=3\n");                         // a step but no value
        QCOMPARE(describe(points),
                 QStringLiteral("loss step=100 epoch=nan value=0.25 rank=0 key-value\n"
                                "lr step=100 epoch=nan value=0.001 rank=0 key-value\n"
                                "throughput step=100 epoch=nan value=512.5 rank=0 key-value\n"
                                "train_loss step=300 epoch=2 value=0.4 rank=0 key-value\n"
                                "val_acc step=300 epoch=2 value=0.81 rank=0 key-value\n"
                                "loss step=7 epoch=nan value=nan rank=0 key-value"));
    }

    void aStoredPointReadsBack()
    {
        TextScalarParser parser(QStringLiteral("stdouterr/stdout-0.txt"), 0);
        const auto points = parser.parse("Epoch: [1][2/10]  Loss 0.5 (0.6)\n");
        QCOMPARE(points.size(), 1);
        const auto back = ScalarPoint::fromJson(points.first().toJson());
        QVERIFY(back);
        QCOMPARE(describe({*back}), describe(points));
        QCOMPARE(back->tag, QStringLiteral("Epoch Loss"));
        QCOMPARE(back->file, QStringLiteral("stdouterr/stdout-0.txt"));
        QVERIFY(!ScalarPoint::fromJson(R"({"kind":"train","loss":1})"));
    }
};

QTEST_GUILESS_MAIN(TestTextScalars)
#include "tst_textscalars.moc"
