#include "ImportedRunRows.h"

#include "EventFiles.h"
#include "TensorBoardFolder.h"
#include "TfEventsReader.h"

#include "store/Store.h"

#include <QDateTime>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>

namespace TrainDesk::ImportedRunRows {

namespace {

constexpr qint64 rowsReadBytes = 4 * 1024 * 1024;

QByteArray errorRow(const QString &file, qint64 offset, const QString &message)
{
    QJsonObject o{{"time", QDateTime::currentMSecsSinceEpoch() / 1000.0}, {"kind", "error"}, {"file", file},
                  {"message", message}};
    if (offset >= 0)
        o.insert("offset", double(offset));
    return QJsonDocument(o).toJson(QJsonDocument::Compact);
}

} // namespace

VoidResult forEach(const Store &store, const ImportedRun &run, qint64 afterId,
                   const std::function<bool(qint64 id, const QByteArray &row)> &each)
{
    return forEachItem(store, run, afterId, [&each](const Item &item) {
        return each(item.id, item.point ? item.point->toJson() : item.error);
    });
}

VoidResult forEachItem(const Store &store, const ImportedRun &run, qint64 afterId, const std::function<bool(const Item &)> &each)
{
    const QList<ImportedFile> files = store.importedFiles(run.jobId);
    // Here, or the node the run was imported from (logged in to only when a file is read).
    std::shared_ptr<EventFiles> place;
    QString placeError;
    qint64 id = 0;
    for (const ImportedFile &file : files) {
        const QString name = TensorBoardFolder::displayName(file.name);
        if (id + file.points <= afterId) {
            id += file.points;  // read by this reader before
            continue;
        }
        if (!place && placeError.isEmpty()) {
            auto opened = eventFilesOfRun(store, run.jobId);
            if (opened)
                place = *opened;
            else
                placeError = opened.error();
        }
        const QByteArray path = run.folder + '/' + file.name;
        const QString shown = (place ? place->place() : QString()) + TensorBoardFolder::displayName(path);
        // Only up to the offset the import reached: every reader sees the points it counted.
        qint64 offset = 0;
        qint64 left = file.points;
        QString readError = placeError;
        while (place && offset < file.offset && left > 0) {
            const qint64 want = std::min(rowsReadBytes, file.offset - offset);
            auto read = place->readAt(path, offset, want);
            if (!read) {
                readError = read.error();
                break;
            }
            TfEventsReader::Chunk chunk = TfEventsReader::read(*read, offset, name);
            if (chunk.consumed == 0 && chunk.nextRecordSize > read->size() && offset + chunk.nextRecordSize <= file.offset) {
                read = place->readAt(path, offset, chunk.nextRecordSize);
                if (!read || read->size() != chunk.nextRecordSize)
                    break;
                chunk = TfEventsReader::read(*read, offset, name);
            }
            if (chunk.consumed == 0)
                break;  // changed under us since the import: what follows is not what it read
            for (const ScalarPoint &p : chunk.points) {
                if (left-- <= 0)
                    break;
                ++id;
                if (id > afterId && !each({id, &p, {}}))
                    return {};
            }
            offset += chunk.consumed;
        }
        if (!readError.isEmpty() && offset == 0) {
            if (!each({id, nullptr, errorRow(name, -1, QStringLiteral("%1: %2: its %3 points cannot be read").arg(
                                                 shown, readError).arg(file.points))}))
                return {};
        }
        id += std::max<qint64>(left, 0);  // points the file no longer holds keep their ids
        if (!file.error.isEmpty() && id > afterId) {
            // The damage is where the reading stopped: the import named it when it met it.
            if (!each({id, nullptr, errorRow(name, file.offset, file.error)}))
                return {};
        }
    }
    return {};
}

} // namespace TrainDesk::ImportedRunRows
