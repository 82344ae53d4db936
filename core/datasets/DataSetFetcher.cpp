#include "DataSetFetcher.h"

#include "FileDigest.h"
#include "HttpDownload.h"
#include "common/AtomicReplace.h"
#include "common/ErrnoText.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QLockFile>

#include <cerrno>

namespace TrainDesk {

namespace {

// Attempts at one address in a row while each attempt gets further than the last.
constexpr int resumeAttempts = 5;

QString lockPath(const QString &folder) { return QDir(folder).filePath(QStringLiteral(".traindesk-dataset.lock")); }

// `path` (whose md5 is `md5`) checked against `file`: its published md5, or, for a .gz
// whose contents' checksum is known, the md5 of its decompressed contents.
struct Check
{
    bool matches = false;
    QString contentMd5;  // set when it matched by its contents
};

Check check(const DataSetFile &file, const QString &path, const QString &md5)
{
    if (md5 == file.md5)
        return {true, {}};
    if (file.contentMd5.isEmpty())
        return {};
    const auto contents = FileDigest::gunzippedMd5(path);
    if (contents && *contents == file.contentMd5)
        return {true, *contents};
    return {};
}

} // namespace

QString toString(FetchedFile::Action action)
{
    switch (action) {
    case FetchedFile::Action::Present:
        return QStringLiteral("present");
    case FetchedFile::Action::Downloaded:
        return QStringLiteral("downloaded");
    case FetchedFile::Action::Copied:
        return QStringLiteral("copied");
    }
    return {};
}

DataSetFetcher::DataSetFetcher(DataSet dataSet, FetchOptions options)
    : m_set(std::move(dataSet)), m_options(std::move(options)) {}

QString DataSetFetcher::partPath(const QString &folder, const QString &file)
{
    return QDir(folder).filePath(QStringLiteral(".%1.download.traindesk-part").arg(file));
}

void DataSetFetcher::log(const QString &line) const
{
    if (m_options.log)
        m_options.log(line);
}

VoidResult DataSetFetcher::lockFolder(QLockFile &lock, const QString &folder) const
{
    lock.setStaleLockTime(0);  // a long download holds it; only a dead owner frees it
    bool waited = false;
    while (!lock.tryLock(250)) {
        if (lock.error() != QLockFile::LockFailedError)
            return fail(QStringLiteral("cannot lock %1: %2").arg(lockPath(folder), errnoText(errno)));
        if (m_options.cancel && m_options.cancel->isCancelled())
            return fail(QStringLiteral("cancelled while waiting for another fetch into %1").arg(folder));
        if (!waited) {
            qint64 pid = 0;
            QString host, app;
            lock.getLockInfo(&pid, &host, &app);
            log(QStringLiteral("waiting for another fetch into %1 (process %2 on %3)").arg(folder).arg(pid).arg(host));
            waited = true;
        }
    }
    return {};
}

Result<FetchedFile> DataSetFetcher::place(const DataSetFile &file, const QString &folder,
                                          const QHash<QString, DataSetManifest::Entry> &recorded, bool *fetched)
{
    const QString target = QDir(folder).filePath(file.name);
    FetchedFile placed{file.name, file.md5, {}, 0, {}, FetchedFile::Action::Present};
    *fetched = false;
    if (QFileInfo(target).isFile()) {
        const auto md5 = FileDigest::md5(target);
        if (!md5)
            return md5.failure();
        const Check checked = check(file, target, *md5);
        if (checked.matches) {
            placed.md5 = *md5;
            placed.contentMd5 = checked.contentMd5;
            placed.source = recorded.contains(file.name) && recorded.value(file.name).md5 == *md5
                                ? recorded.value(file.name).source
                                : QStringLiteral("found in place");
            log(checked.contentMd5.isEmpty()
                    ? QStringLiteral("%1: present, md5 %2 verified").arg(file.name, file.md5)
                    : QStringLiteral("%1: present, md5 %2 of its decompressed contents verified")
                          .arg(file.name, checked.contentMd5));
            placed.size = QFileInfo(target).size();
            return placed;
        }
        log(QStringLiteral("%1: the file there has md5 %2, not the published %3: fetching it again")
                .arg(file.name, *md5, file.md5));
    }
    const auto copied = copyGiven(file, folder, placed);
    if (!copied)
        return copied.failure();
    if (!*copied) {
        if (auto got = download(file, folder, placed); !got)
            return got.failure();
    }
    *fetched = true;
    placed.size = QFileInfo(target).size();
    return placed;
}

Result<FetchOutcome> DataSetFetcher::fetchInto(const QString &folder)
{
    // What the user gave by hand is checked before anything is written.
    const auto given = matchGiven();
    if (!given)
        return given.failure();
    m_given = *given;

    const bool madeFolder = !QFileInfo::exists(folder);
    if (!QDir().mkpath(folder))
        return fail(QStringLiteral("cannot create folder %1: %2").arg(folder, errnoText(errno)));
    QLockFile lock(lockPath(folder));
    if (auto locked = lockFolder(lock, folder); !locked)
        return locked.failure();

    const auto previous = DataSetManifest::read(folder);
    QHash<QString, DataSetManifest::Entry> recorded;
    if (previous && previous->dataSet == m_set.name) {
        for (const DataSetManifest::Entry &e : previous->files)
            recorded.insert(e.name, e);
    }

    FetchOutcome outcome;
    outcome.folder = folder;
    DataSetManifest::Manifest manifest{m_set.name, m_set.title, {}};
    for (const DataSetFile &file : m_set.files) {
        bool fetched = false;
        const auto placed = place(file, folder, recorded, &fetched);
        if (!placed) {
            lock.unlock();
            // A refused fetch leaves no folder it made (a part file kept for resuming keeps it).
            if (madeFolder)
                QDir().rmdir(folder);
            return placed.failure();
        }
        outcome.changed = outcome.changed || fetched;
        const QDateTime when = !fetched && recorded.contains(file.name) ? recorded.value(file.name).placed
                                                                        : QDateTime::currentDateTimeUtc();
        manifest.files.append({placed->name, placed->md5, placed->size, placed->source, when, placed->contentMd5});
        outcome.files.append(*placed);
    }

    // The manifest is rewritten only when it does not already say exactly this.
    bool manifestCurrent = previous && previous->dataSet == m_set.name && previous->files.size() == manifest.files.size();
    for (int i = 0; manifestCurrent && i < manifest.files.size(); ++i) {
        const DataSetManifest::Entry &a = previous->files.at(i);
        const DataSetManifest::Entry &b = manifest.files.at(i);
        manifestCurrent = a.name == b.name && a.md5 == b.md5 && a.size == b.size && a.source == b.source
            && a.contentMd5 == b.contentMd5;
    }
    if (!manifestCurrent) {
        if (auto written = DataSetManifest::write(folder, manifest); !written)
            return written.failure();
        outcome.changed = true;
    }
    return outcome;
}

Result<QHash<QString, QString>> DataSetFetcher::matchGiven() const
{
    QStringList files;
    for (const QString &given : m_options.from) {
        const QFileInfo info(given);
        if (info.isDir()) {
            int found = 0;
            for (const DataSetFile &file : m_set.files) {
                if (QFileInfo(QDir(given).filePath(file.name)).isFile()) {
                    files << QDir(given).filePath(file.name);
                    ++found;
                }
            }
            if (found == 0) {
                QStringList names;
                for (const DataSetFile &file : m_set.files)
                    names << file.name;
                return fail(QStringLiteral("--from %1: the folder holds none of %2's files (%3)")
                                .arg(given, m_set.name, names.join(QStringLiteral(", "))));
            }
        } else if (info.isFile()) {
            files << given;
        } else {
            return fail(QStringLiteral("--from %1: no such file or folder").arg(given));
        }
    }
    QHash<QString, QString> matched;
    for (const QString &path : files) {
        const auto md5 = FileDigest::md5(path);
        if (!md5)
            return md5.failure();
        const DataSetFile *match = nullptr;
        QStringList published;
        for (const DataSetFile &file : m_set.files) {
            published << QStringLiteral("%1 (md5 %2)").arg(file.name, file.md5);
            if (file.md5 == *md5)
                match = &file;
        }
        // A packager's copy compressed again: known by what it holds.
        QString contents;
        for (qsizetype i = 0; !match && i < m_set.files.size(); ++i) {
            const DataSetFile &file = m_set.files.at(i);
            if (file.contentMd5.isEmpty())
                continue;
            if (contents.isEmpty()) {
                const auto unpacked = FileDigest::gunzippedMd5(path);
                if (!unpacked)
                    break;
                contents = *unpacked;
            }
            if (contents == file.contentMd5)
                match = &file;
        }
        if (!match) {
            return fail(QStringLiteral("--from %1: md5 %2%3 is not the published checksum of any file of %4: %5; "
                                       "the file is damaged, incomplete or another data set: refused")
                            .arg(path, *md5,
                                 contents.isEmpty() ? QString()
                                                    : QStringLiteral(" (%1 decompressed)").arg(contents),
                                 m_set.name, published.join(QStringLiteral(", "))));
        }
        matched.insert(match->name, QFileInfo(path).absoluteFilePath());
    }
    return matched;
}

Result<bool> DataSetFetcher::copyGiven(const DataSetFile &file, const QString &folder, FetchedFile &placed)
{
    if (!m_given.contains(file.name))
        return false;
    const QString source = m_given.value(file.name);
    const QString target = QDir(folder).filePath(file.name);
    const QString part = AtomicReplace::uniquePartPath(target);
    log(QStringLiteral("%1: copying %2").arg(file.name, source));
    QFile in(source);
    QFile out(part);
    if (!in.open(QIODevice::ReadOnly))
        return fail(QStringLiteral("cannot read %1: %2").arg(source, in.errorString()));
    if (!out.open(QIODevice::WriteOnly | QIODevice::NewOnly))
        return fail(QStringLiteral("cannot write %1: %2").arg(part, errnoText(errno)));
    const qint64 total = in.size();
    qint64 done = 0;
    while (!in.atEnd()) {
        if (m_options.cancel && m_options.cancel->isCancelled()) {
            out.remove();
            return fail(QStringLiteral("cancelled while copying %1").arg(source));
        }
        const QByteArray chunk = in.read(4 * 1024 * 1024);
        if (chunk.isEmpty() && in.error() != QFileDevice::NoError) {
            out.remove();
            return fail(QStringLiteral("cannot read %1: %2").arg(source, in.errorString()));
        }
        if (out.write(chunk) != chunk.size() || !out.flush()) {
            const QString why = errnoText(errno);
            out.remove();
            return fail(QStringLiteral("cannot write %1: %2").arg(part, why));
        }
        done += chunk.size();
        if (m_options.progress)
            m_options.progress(done, total, file.name);
    }
    out.close();
    // The copy is what the trainer reads: it is the one checked.
    const auto md5 = FileDigest::md5(part);
    const Check checked = md5 ? check(file, part, *md5) : Check{};
    if (!md5 || !checked.matches) {
        QFile::remove(part);
        return fail(md5 ? QStringLiteral("%1: the copy of %2 has md5 %3, not %4 (did the file change while copied?): refused")
                              .arg(file.name, source, *md5, file.md5)
                        : md5.error());
    }
    if (auto moved = AtomicReplace::replace(part, target); !moved)
        return moved.failure();
    placed.md5 = *md5;
    placed.contentMd5 = checked.contentMd5;
    placed.source = QStringLiteral("file:") + source;
    placed.action = FetchedFile::Action::Copied;
    if (checked.contentMd5.isEmpty())
        log(QStringLiteral("%1: md5 %2 verified, placed in %3").arg(file.name, file.md5, folder));
    else
        log(QStringLiteral("%1: compressed again (md5 %2, not the published %3); the md5 %4 of its decompressed "
                           "contents verified, placed in %5")
                .arg(file.name, *md5, file.md5, checked.contentMd5, folder));
    return true;
}

VoidResult DataSetFetcher::download(const DataSetFile &file, const QString &folder, FetchedFile &placed)
{
    const QString target = QDir(folder).filePath(file.name);
    const QString part = partPath(folder, file.name);
    QStringList errors;
    for (const QString &mirror : m_set.mirrors) {
        const QString url = m_set.url(mirror, file);
        HttpDownload::Options options;
        options.inactivitySeconds = m_options.inactivitySeconds;
        options.cancel = m_options.cancel;
        options.progress = [this, &url](qint64 done, qint64 total) {
            if (m_options.progress)
                m_options.progress(done, total, url);
        };
        bool startedOver = false;
        int attempts = 0;
        while (true) {
            const qint64 before = QFileInfo(part).size();
            log(before > 0 ? QStringLiteral("%1: downloading %2 from byte %3 on").arg(file.name, url).arg(before)
                           : QStringLiteral("%1: downloading %2").arg(file.name, url));
            const HttpDownload::Outcome got = HttpDownload::toPartFile(QUrl(url), part, options);
            if (got.status == HttpDownload::Status::Cancelled) {
                return fail(QStringLiteral("%1: cancelled; the %2 bytes downloaded so far stay in %3 and the next fetch "
                                           "continues from there")
                                .arg(url).arg(QFileInfo(part).size()).arg(part));
            }
            if (got.status == HttpDownload::Status::Interrupted) {
                const bool further = QFileInfo(part).size() > before;
                attempts = further ? 0 : attempts + 1;
                log(QStringLiteral("%1: %2").arg(file.name, got.error));
                if (attempts < resumeAttempts)
                    continue;
                errors << got.error;
                break;
            }
            if (got.status == HttpDownload::Status::Failed) {
                if (QFileInfo(part).size() == 0)  // nothing to continue from
                    QFile::remove(part);
                errors << got.error;
                break;
            }
            const auto md5 = FileDigest::md5(part);
            if (!md5)
                return md5.failure();
            if (*md5 == file.md5) {
                if (auto moved = AtomicReplace::replace(part, target); !moved)
                    return moved.failure();
                placed.source = url;
                placed.action = FetchedFile::Action::Downloaded;
                log(QStringLiteral("%1: md5 %2 verified, placed in %3").arg(file.name, file.md5, folder));
                return {};
            }
            QFile::remove(part);
            // A download continued from an older part may join two different files: once more, whole.
            if ((got.resumed || before > 0) && !startedOver) {
                log(QStringLiteral("%1: md5 %2 after resuming, not the published %3: downloading it again whole")
                        .arg(file.name, *md5, file.md5));
                startedOver = true;
                continue;
            }
            errors << QStringLiteral("%1 has md5 %2, not the published %3: refused, nothing kept").arg(url, *md5, file.md5);
            break;
        }
    }
    return fail(QStringLiteral("cannot download %1 of %2: %3").arg(file.name, m_set.name, errors.join(QStringLiteral("; "))));
}

} // namespace TrainDesk
