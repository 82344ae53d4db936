#include "DataSetShareFetch.h"

#include "DataSetManifest.h"
#include "DataSetPresenceCheck.h"
#include "common/DataPaths.h"
#include "common/PathConfinement.h"
#include "shares/ShareService.h"
#include "shares/ShareUpload.h"

#include <QDir>

namespace TrainDesk {

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
        const auto real = PathConfinement::confined(share.path, *folder, QStringLiteral("share '%1' at").arg(share.name));
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
    // The share's manifest lists these very files (the set's checksums) at the sizes they have there.
    const auto there = presenceInShare(shares, share, directory, set);
    if (there && there->state == DataSetPresence::State::Fetched) {
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
