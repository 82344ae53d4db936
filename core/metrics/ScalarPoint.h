#pragma once

#include <QByteArray>
#include <QString>

#include <cmath>
#include <optional>

namespace TrainDesk {

// One point of a named scalar series that a job's own script wrote: a TensorBoard event
// file's scalar or a value in a progress line (docs/METRICS.md). Stored as a metric record
// of kind "scalar" beside the trainer's records; each keeps where it came from (file, rank,
// tag), so that series of one name from several ranks or files stay apart.
struct ScalarPoint
{
    double time = 0;         // seconds since the epoch: the event's wall time, or when read
    QString name;            // the series: a tag ("train/loss") or a printed name ("Acc@1")
    double value = NAN;
    qint64 step = -1;        // the global step, -1 when the source gave none
    double epoch = NAN;      // when the source gave one (Hugging Face's is fractional)
    QString source;          // tensorboard | pytorch-examples | huggingface | key-value
    QString file;            // relative to the job directory, or absolute outside it
    int rank = -1;           // the task's index when the file is a task's (stdout-<i>.txt)
    QString tag;             // the tag or the text as it was written

    QByteArray toJson() const;
    // A stored record of kind "scalar", or nothing for any other record.
    static std::optional<ScalarPoint> fromJson(const QByteArray &json);
    // The x of a chart: the step, else the epoch, else nothing (NaN).
    double x() const { return step >= 0 ? double(step) : epoch; }
    // Where the series comes from, for people: "stdouterr/stdout-0.txt (rank 0)".
    QString origin() const;
};

// A step (or other counter) read as a double from text or JSON: -1 unless it is a finite
// whole-number-sized value in 0 .. 2^63 (a bigger one, or inf, cannot be a qint64: the
// conversion is undefined behaviour, found by fuzz_metrics).
inline qint64 counterOf(double value)
{
    return value >= 0 && value < 9.2e18 ? qint64(value) : -1;
}

} // namespace TrainDesk
