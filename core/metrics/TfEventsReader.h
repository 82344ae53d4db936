#pragma once

#include "ScalarPoint.h"

#include <QByteArray>
#include <QList>
#include <QString>

#include <utility>

namespace TrainDesk {

// Reads TensorBoard event files (events.out.tfevents.*), as PyTorch's SummaryWriter,
// TensorFlow and Keras' TensorBoard callback write them, for their scalars: TFRecord
// framing (length, masked CRC-32C of the length, an Event protobuf, its masked CRC-32C) with
// Event.summary.value either a simple_value (TF1, tensorboardX, PyTorch) or a rank-0 tensor
// (TensorFlow 2's tf.summary.scalar). The protobufs are decoded by hand: only the fields of
// a scalar are read, everything else is skipped by its wire type.
// The hparams plugin's session_start_info (PyTorch's SummaryWriter.add_hparams, Keras'
// hp.KerasCallback, tensorboardX) gives the run's settings: each hyperparameter's name and
// value as text (numbers as the shortest text that reads back the same, true/false).
// Read in pieces: a record not yet written whole (a torn tail) is left for the next read.
// The length field comes from outside: a record longer than maxRecordBytes is named as
// damage (file, offset, length), never allocated.
class TfEventsReader
{
public:
    // Scalars, images and graphs of real writers stay far below this.
    static constexpr quint64 maxRecordBytes = 64 * 1024 * 1024;

    struct Chunk
    {
        qsizetype consumed = 0;      // bytes of whole, checked records
        QList<ScalarPoint> points;
        QString error;               // a record that fails its CRC or cannot be decoded
        qint64 errorOffset = -1;     // its offset in the file
        qsizetype nextRecordSize = 0;  // a torn record's whole size (a large one needs a larger read)
        QList<std::pair<QString, QString>> settings;  // hyperparameters met, in file order
    };

    // `data` was read from `file` at `offset`; a bad record stops the reading (what came
    // before it is returned) and is named with its offset.
    static Chunk read(const QByteArray &data, qint64 offset, const QString &file);

    // A file name TensorBoard reads: any name holding "tfevents", as its own loader decides
    // (`events.out.tfevents.<time>.<host>`, CatBoost's bare `events.out.tfevents`, TF2's `.v2`).
    static bool isEventFile(const QString &name) { return name.contains(QLatin1String("tfevents")); }
    // The same rule as a `find -name` pattern.
    static QString findPattern() { return QStringLiteral("*tfevents*"); }
};

} // namespace TrainDesk
