#pragma once

#include "ScalarPoint.h"

#include <QByteArray>
#include <QList>
#include <QString>

namespace TrainDesk {

// Named scalars in the progress lines that training scripts print (docs/METRICS.md):
//   pytorch/examples' ProgressMeter: "Epoch: [0][ 10/469]  Time  0.1 ( 0.2)  Loss 2.3e+00 (2.3e+00)"
//     (and "Test: [ 10/79] ..." and the " * Acc@1 75.000 Acc@5 92.000" summary);
//   Hugging Face Trainer's dicts: "{'loss': 0.52, 'learning_rate': 4.5e-05, 'epoch': 1.0}";
//   key=value or key: value pairs on a line that names its step or epoch:
//     "step=100 loss=0.25 lr=0.001", "epoch: 2, iter: 300, loss: 0.4".
// Keras progress text stays KerasProgressParser's. A line is read as the first shape it
// has. Lines tagged by mpirun ("[1,2]<stdout>:") say their rank.
class TextScalarParser
{
public:
    // `file` names the source; `rank` is its task's (-1: the tags say, or none).
    TextScalarParser(const QString &file, int rank);

    // The epoch the last pytorch/examples "Epoch" line said, saved with the file's offset
    // so that its validation lines read in a later piece get it too.
    QByteArray state() const;
    void setState(const QByteArray &state);

    // `text` holds whole lines only.
    QList<ScalarPoint> parse(const QByteArray &text);
    // One line (without its end); `time` is when it was read.
    QList<ScalarPoint> parseLine(const QString &line, double time);

private:
    QList<ScalarPoint> pyTorchExamples(const QString &line);
    QList<ScalarPoint> huggingFace(const QString &line) const;
    QList<ScalarPoint> keyValues(const QString &line) const;
    ScalarPoint point(const QString &name, double value, const QString &source) const;

    QString m_file;
    int m_rank = -1;
    int m_lineRank = -1;      // the rank of the line being read
    double m_epoch = NAN;     // the last pytorch/examples epoch
};

} // namespace TrainDesk
