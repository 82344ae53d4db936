#pragma once

#include <QByteArray>
#include <QHash>
#include <QList>

namespace TrainDesk {

// Turns the Keras progress text that a Keras or Horovod script prints to stdout.txt into
// metric records of the trainer's metrics.jsonl contract, so such jobs get charts too:
//   "Epoch 3/34"
//   "  352/50000 [>....] - ETA: 1:23 - loss: 2.3334 - acc: 0.0312"   -> kind "train"
//   "50000/50000 [====] - 12s - loss: 1.2 - acc: 0.5 - val_loss: 1.1 - val_acc: 0.6" -> also "val"
// Progress bars are redrawn with '\r', so both '\r' and '\n' end a line. Lines tagged by
// mpirun --tag-output ("[1,2]<stdout>:") say their rank. Rank 0 (or untagged text) makes
// the job's series: Keras prints each rank's own values, and rank 0's stand for the job
// as Horovod's examples do. Other ranks' bars become "rank" records (with "rank": r) for
// the per-rank series; rank 0's per-rank series is its train series.
class KerasProgressParser
{
public:
    // Where a previous parse left off: the epoch each rank last said, so that reading a
    // file in pieces gives the same records as reading it whole. Saved with the reader's
    // offset (Store::appendJobOutput) so that a restarted agent goes on from there too.
    QByteArray state() const;
    void setState(const QByteArray &state);
    void setEpoch(int epoch) { m_epoch = epoch; }
    int epoch() const { return m_epoch; }  // rank 0's

    // `text` holds whole lines only; returns compact JSON records.
    QList<QByteArray> parse(const QByteArray &text);

    // The number of bytes of `chunk` that form whole lines (up to the last '\r' or '\n').
    static qsizetype wholeLinesLength(const QByteArray &chunk);

private:
    int m_epoch = 1;                // rank 0's
    QHash<int, int> m_otherEpochs;  // other ranks' (after a resume: rank 0's until they say)
};

} // namespace TrainDesk
