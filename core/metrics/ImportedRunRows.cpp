#include "ImportedRunRows.h"

#include "TensorBoardFolder.h"
#include "TfEventsReader.h"

#include "store/Store.h"

#include <QDateTime>
#include <QJsonDocument>
#include <QJsonObject>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

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
    qint64 id = 0;
    for (const ImportedFile &file : store.importedFiles(run.jobId)) {
        const QString name = TensorBoardFolder::displayName(file.name);
        if (id + file.points <= afterId) {
            id += file.points;  // read by this reader before
            continue;
        }
        const QByteArray path = run.folder + '/' + file.name;
        const int fd = ::open(path.constData(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
        if (fd < 0) {
            const int error = errno;
            const QString shown = TensorBoardFolder::displayName(path);
            if (!each({id, nullptr, errorRow(name, -1, QStringLiteral("%1: %2: its %3 points cannot be read").arg(
                                                 shown, QString::fromLocal8Bit(std::strerror(error))).arg(file.points))}))
                return {};
            id += file.points;
            continue;
        }
        // Only up to the offset the import reached: every reader sees the points it counted.
        qint64 offset = 0;
        qint64 left = file.points;
        QByteArray buffer;
        while (offset < file.offset && left > 0) {
            qint64 want = std::min(rowsReadBytes, file.offset - offset);
            buffer.resize(want);
            ssize_t got = ::pread(fd, buffer.data(), size_t(want), offset);
            if (got <= 0)
                break;
            buffer.resize(got);
            TfEventsReader::Chunk chunk = TfEventsReader::read(buffer, offset, name);
            if (chunk.consumed == 0 && chunk.nextRecordSize > got && offset + chunk.nextRecordSize <= file.offset) {
                buffer.resize(chunk.nextRecordSize);
                got = ::pread(fd, buffer.data(), size_t(chunk.nextRecordSize), offset);
                if (got != chunk.nextRecordSize)
                    break;
                chunk = TfEventsReader::read(buffer, offset, name);
            }
            if (chunk.consumed == 0)
                break;  // changed under us since the import: what follows is not what it read
            for (const ScalarPoint &p : chunk.points) {
                if (left-- <= 0)
                    break;
                ++id;
                if (id > afterId && !each({id, &p, {}})) {
                    ::close(fd);
                    return {};
                }
            }
            offset += chunk.consumed;
        }
        ::close(fd);
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
