#include "JobFileDownload.h"

#include "JobFiles.h"
#include "common/FileCompare.h"
#include "common/AtomicReplace.h"
#include "common/ErrnoText.h"
#include "common/PathConfinement.h"
#include "common/StaleParts.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSet>

#include <cerrno>
#include <optional>

namespace TrainDesk {

namespace {

constexpr qint64 chunkBytes = 4 * 1024 * 1024;
constexpr int maxDepth = 64;

struct Planned
{
    QString remote;  // relative to the job directory
    JobFileCopy copy;
    QString part;    // where its bytes are until they are renamed into place
};

// One download's walk over the job's folders and its local counterpart.
struct Walk
{
    JobFiles &output;
    const Job &job;
    const JobDownloadRequest &request;
    QString localRoot;  // <destination>/<job name>
    QStringList links;  // relative to the job directory
    QList<Planned> files;
    QStringList folders;  // local folders to make, empty ones too
    JobDownloadOutcome outcome;
    QSet<QString> swept;  // local folders whose killed downloads' part files are gone

    QString remotePath(const QString &relative) const
    {
        return relative.isEmpty() ? request.directory : request.directory + QLatin1Char('/') + relative;
    }
    QString shownPath(const QString &relative) const
    {
        return relative.isEmpty() ? request.label : request.label + QLatin1Char('/') + relative;
    }
    QString localPath(const QString &relative) const { return localRoot + QLatin1Char('/') + shownPath(relative); }
};

// The file `relative` of the job as it is planned: refused when its local place is a
// folder or leads out of the download folder, a conflict when a local file of another size
// is there.
VoidResult planFile(Walk &walk, const QString &relative, qint64 size)
{
    const QString local = walk.localPath(relative);
    if (auto inside = PathConfinement::confined(walk.localRoot, local, QStringLiteral("the download folder")); !inside)
        return inside.failure();
    const QFileInfo existing(local);
    if (existing.isDir())
        return fail(QStringLiteral("%1 is a folder, but %2 of job '%3' is a file").arg(local, walk.shownPath(relative),
                                                                                     walk.job.name));
    Planned p{walk.remotePath(relative), JobFileCopy{walk.shownPath(relative), local, size, false}, {}};
    if (existing.isFile() && existing.size() != size && !walk.request.overwrite)
        walk.outcome.conflicts.append(p.copy);
    walk.files.append(p);
    return {};
}

VoidResult collect(Walk &walk, const QString &relative, int depth)
{
    if (depth > maxDepth)
        return fail(QStringLiteral("%1 of job '%2' is more than %3 folders deep").arg(walk.shownPath(relative),
                                                                                    walk.job.name).arg(maxDepth));
    walk.folders << walk.localPath(relative);
    const auto entries = walk.output.listFiles(walk.job, walk.remotePath(relative));
    if (!entries)
        return entries.failure();
    for (const RemoteFileInfo &e : *entries) {
        if (e.name == QLatin1String(".") || e.name == QLatin1String(".."))
            continue;
        const QString child = relative.isEmpty() ? e.name : relative + QLatin1Char('/') + e.name;
        if (walk.links.contains(walk.remotePath(child))) {
            walk.outcome.skippedLinks << walk.shownPath(child);
            continue;
        }
        if (auto ok = e.isDirectory ? collect(walk, child, depth + 1) : planFile(walk, child, e.size); !ok)
            return ok;
    }
    return {};
}

// The path a user gave, relative to the folder: "" for all of it.
Result<QString> relativePath(const JobDownloadRequest &request)
{
    const QString given = request.path.trimmed();
    const QString clean = QDir::cleanPath(given);
    if (given.startsWith(QLatin1Char('/')) || clean == QLatin1String("..") || clean.startsWith(QLatin1String("../")))
        return fail(QStringLiteral("'%1' is not a path inside %2").arg(given, request.label));
    return clean == QLatin1String(".") ? QString() : clean;
}

void removeParts(const QList<Planned> &files)
{
    for (const Planned &p : files) {
        if (!p.part.isEmpty())
            QFile::remove(p.part);
    }
}

// Copies one file to a part file beside its target, in chunks, with progress.
VoidResult fetch(Walk &walk, Planned &file, qint64 &done, qint64 total, const JobDownloadEvents &events)
{
    const QString folder = QFileInfo(file.copy.localPath).absolutePath();
    if (!QDir().mkpath(folder))
        return fail(QStringLiteral("cannot create folder %1").arg(folder));
    if (!walk.swept.contains(folder)) {
        StaleParts::removeFrom(folder);
        walk.swept.insert(folder);
    }
    QFile out(AtomicReplace::uniquePartPath(file.copy.localPath));
    if (!out.open(QIODevice::WriteOnly | QIODevice::NewOnly))
        return fail(QStringLiteral("cannot write %1: %2").arg(out.fileName(), errnoText(errno)));
    file.part = out.fileName();
    qint64 offset = 0;
    for (;;) {
        if (events.cancel && events.cancel->isCancelled())
            return fail(QStringLiteral("download of %1 cancelled").arg(file.copy.source));
        const auto chunk = walk.output.readFile(walk.job, file.remote, offset, chunkBytes);
        if (!chunk)
            return chunk.failure();
        if (chunk->isEmpty())
            break;
        if (out.write(*chunk) != chunk->size() || !out.flush())
            return fail(QStringLiteral("cannot write %1: %2").arg(out.fileName(), errnoText(errno)));
        offset += chunk->size();
        done += chunk->size();
        if (events.progress)
            events.progress(done, qMax(done, total), file.copy.source);
    }
    out.close();
    file.copy.size = offset;
    if (events.progress && offset == 0)
        events.progress(done, qMax(done, total), file.copy.source);
    return {};
}

} // namespace

Result<JobDownloadOutcome> JobFileDownload::download(const Job &job, const JobDownloadRequest &request,
                                                     const JobDownloadEvents &events)
{
    const auto relative = relativePath(request);
    if (!relative)
        return relative.failure();
    if (request.destination.isEmpty())
        return fail(QStringLiteral("name a local folder to download into"));
    Walk walk{m_output, job, request, QDir(request.destination).absoluteFilePath(job.name), {}, {}, {}, {}, {}};

    // What the path names: the whole folder, or an entry of its parent folder.
    std::optional<RemoteFileInfo> entry;
    if (!relative->isEmpty()) {
        const QString parent = QFileInfo(*relative).path();
        const auto siblings = m_output.listFiles(job, walk.remotePath(parent == QLatin1String(".") ? QString() : parent));
        if (siblings) {
            for (const RemoteFileInfo &e : *siblings) {
                if (e.name == QFileInfo(*relative).fileName())
                    entry = e;
            }
        }
        if (!entry)
            return fail(QStringLiteral("job '%1' has no file or folder %2").arg(job.name, walk.shownPath(*relative)));
    }
    const auto links = m_output.linksUnder(job, walk.remotePath(*relative), walk.shownPath(*relative));
    if (!links)
        return links.failure();
    walk.links = *links;
    if (walk.links.contains(walk.remotePath(*relative)))
        return fail(QStringLiteral("%1 of job '%2' is a symbolic link: refused (it may lead out of the job directory)")
                        .arg(walk.shownPath(*relative), job.name));

    if (!QDir().mkpath(walk.localRoot))
        return fail(QStringLiteral("cannot create folder %1").arg(walk.localRoot));
    if (auto planned = entry && !entry->isDirectory ? planFile(walk, *relative, entry->size) : collect(walk, *relative, 0);
        !planned)
        return planned.failure();
    // Refused before a byte moves: a local file of another size would be replaced.
    if (!walk.outcome.conflicts.isEmpty())
        return walk.outcome;

    qint64 total = 0;
    for (const Planned &p : walk.files)
        total += p.copy.size;
    qint64 done = 0;
    for (Planned &p : walk.files) {
        if (auto fetched = fetch(walk, p, done, total, events); !fetched) {
            removeParts(walk.files);
            return fetched.failure();
        }
        if (QFileInfo(p.copy.localPath).isFile()) {
            if (FileCompare::sameBytes(p.part, p.copy.localPath)) {
                QFile::remove(p.part);
                p.part.clear();
                p.copy.unchanged = true;
            } else if (!request.overwrite) {
                // Same size, other bytes: found only now, and still nothing is replaced.
                removeParts(walk.files);
                walk.outcome.conflicts.append(p.copy);
                return walk.outcome;
            }
        }
    }
    for (const QString &folder : std::as_const(walk.folders)) {
        if (!QDir().mkpath(folder))
            return fail(QStringLiteral("cannot create folder %1").arg(folder));
    }
    for (qsizetype i = 0; i < walk.files.size(); ++i) {
        Planned &p = walk.files[i];
        if (!p.part.isEmpty()) {
            if (auto placed = AtomicReplace::replace(p.part, p.copy.localPath); !placed) {
                removeParts(walk.files.mid(i));
                return placed.failure();
            }
        }
        walk.outcome.files.append(p.copy);
    }
    return walk.outcome;
}

} // namespace TrainDesk
