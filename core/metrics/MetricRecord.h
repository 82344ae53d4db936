#pragma once

#include <QByteArray>
#include <QByteArrayView>
#include <QList>
#include <QMetaType>
#include <QString>

#include <cmath>
#include <memory>
#include <optional>
#include <utility>

namespace TrainDesk {

struct ScalarPoint;

// One line of the trainer's metrics.jsonl, or any other stored metric row (docs/METRICS.md):
// the one decoder of those rows. The CLI, the charts, the runs table's summaries, sweeps and
// the store's SQL (MetricRecordSql.h) all read a row's fields as fromJson() does. Fields a
// record does not carry are NaN (or -1 for counters).
struct MetricRecord
{
    double time = 0;
    QString kind;            // info | train | val | epoch | done | rank | scalar | error
    int epoch = -1;
    qint64 step = -1;
    qint64 globalStep = -1;
    int rank = -1;
    double loss = NAN;
    double acc = NAN;
    double valLoss = NAN;
    double valAcc = NAN;
    double lr = NAN;
    double imagesPerSec = NAN;
    double seconds = NAN;
    int workers = -1;
    // The run's plan (info records; Keras "Epoch 3/34" lines give `epochs`): the last
    // epoch, the first one (a resumed run starts later) and the steps of one epoch.
    int epochs = -1;
    int startEpoch = -1;
    qint64 stepsPerEpoch = -1;
    // A named scalar (kind "scalar", ScalarPoint): its series' name, value, source, file and
    // tag (with `rank`, `step` and `epoch` above; a fractional epoch in `epochValue`).
    QString name;
    double value = NAN;
    QString source;
    QString file;
    QString tag;
    double epochValue = NAN;

    // What few records carry, kept apart so that the many (a chart holds millions) stay small.
    struct Extra
    {
        // An info record's settings: every field but time and kind, numbers and words as text.
        QList<std::pair<QString, QString>> settings;
        // Numbers under names the fields above do not have (a script's own "top5", "bleu").
        QList<std::pair<QString, double>> numbers;
        // An error record's message (a damaged event file).
        QString message;
    };
    std::shared_ptr<const Extra> extra;

    static std::optional<MetricRecord> fromJson(const QByteArray &line);
    // Whether `line` can be a record of `kind` (a byte test, no parse): a reader that wants one
    // kind among millions of rows skips the others without decoding them.
    static bool mayBe(const QByteArray &line, QByteArrayView kind);
    // The record a ScalarPoint's JSON reads back as, made without the JSON (an imported run's
    // points, read from its event files).
    static MetricRecord fromScalar(const ScalarPoint &point);
    // A scalar record as its point (nothing for another kind, or a scalar without a name).
    std::optional<ScalarPoint> toScalar() const;

    // The number the row holds under JSON name `field` (NaN when it holds none): "val_acc",
    // "global_step", or a name only the script knows. A scalar record's epoch is its fraction.
    double number(const QString &field) const;
    // Every number the row holds, by JSON name: the fields above and Extra::numbers.
    QList<std::pair<QString, double>> numbers() const;
    QList<std::pair<QString, QString>> settings() const { return extra ? extra->settings : QList<std::pair<QString, QString>>(); }
    QString message() const { return extra ? extra->message : QString(); }
};

} // namespace TrainDesk

Q_DECLARE_METATYPE(TrainDesk::MetricRecord)
