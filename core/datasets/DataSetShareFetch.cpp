#include "DataSetShareFetch.h"

#include "DataSetManifest.h"
#include "common/DataPaths.h"
#include "common/SafeFiles.h"
#include "shares/ShareService.h"
#include "shares/ShareUpload.h"

#include <QDir>
#include <QTemporaryDir>

namespace TrainDesk {

namespace {

// Whether `folder` of a remote share already holds the data set as `local` describes it.
bool shareHasIt(ShareService &shares, const Share &share, const QString &directory, const FetchOutcome &local)
{
    const auto entries = shares.listFiles(share, directory);
    if (!entries)
        return false;
    QHash<QString, qint64> sizes;
    for (const RemoteFileInfo &e : *entries)
        sizes.insert(e.name, e.isDirectory ? -1 : e.size);
    for (const FetchedFile &f : local.files) {
        if (sizes.value(f.name, -2) != f.size)
            return false;
    }
    const QTemporaryDir scratch;
    if (!scratch.isValid())
        return false;
    const QString manifestFile = QDir(directory).filePath(QString::fromLatin1(DataSetManifest::fileName));
    if (!shares.download(share, manifestFile, scratch.path()))
        return false;
    const auto manifest = DataSetManifest::read(scratch.path());
    if (!manifest)
        return false;
    for (const FetchedFile &f : local.files) {
        const bool listed = std::any_of(manifest->files.begin(), manifest->files.end(), [&f](const DataSetManifest::Entry &e) {
            return e.name == f.name && e.md5 == f.md5 && e.size == f.size;
        });
        if (!listed)
            return false;
    }
    return true;
}

} // namespace

Result<ShareFetchOutcome> fetchIntoShare(ShareService &shares, const Share &share, const QString &directory,
                                         const DataSet &set, const FetchOptions &options)
{
    const auto folder = ShareUpload::folderPath(share, directory);
    if (!folder)
        return folder.failure();
    ShareFetchOutcome outcome;
    if (share.kind == ShareKind::Local) {
        // As an upload does: the share's own folder is made when missing; links must not lead out.
        QDir().mkpath(share.path);
        const auto real = SafeFiles::confined(share.path, *folder, QStringLiteral("share '%1' at").arg(share.name));
        if (!real)
            return real.failure();
        const auto fetched = DataSetFetcher(set, options).fetchInto(*real);
        if (!fetched)
            return fetched.failure();
        outcome.folder = *real;
        outcome.fetched = *fetched;
        return outcome;
    }

    const QString cache = QDir(DataPaths::dataDirectory()).filePath(QStringLiteral("datasets/") + set.name);
    const auto fetched = DataSetFetcher(set, options).fetchInto(cache);
    if (!fetched)
        return fetched.failure();
    outcome.folder = *folder;
    outcome.fetched = *fetched;
    if (shareHasIt(shares, share, directory, *fetched)) {
        if (options.log)
            options.log(QStringLiteral("share '%1' already holds %2 in %3").arg(share.name, set.name, *folder));
        return outcome;
    }
    QStringList files;
    for (const FetchedFile &f : fetched->files)
        files << QDir(cache).filePath(f.name);
    // The manifest last: a share that lists a file holds it whole.
    files << QDir(cache).filePath(QString::fromLatin1(DataSetManifest::fileName));
    const auto uploaded = shares.upload(share, directory, files, options.cancel,
                                        [&options](qint64 done, qint64 total, const QString &file) {
                                            if (options.progress && !file.isEmpty())
                                                options.progress(done, total, file);
                                        });
    if (!uploaded.error.isEmpty())
        return fail(uploaded.error);
    outcome.uploaded = uploaded.copied;
    outcome.fetched.changed = true;
    return outcome;
}

} // namespace TrainDesk
