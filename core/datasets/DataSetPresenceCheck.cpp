#include "DataSetPresenceCheck.h"

#include "DataSetFetcher.h"
#include "DataSetManifest.h"
#include "shares/ShareService.h"
#include "shares/ShareUpload.h"

#include <QDir>
#include <QFileInfo>
#include <QHash>
#include <QTemporaryDir>

namespace TrainDesk {

namespace {

// The state from what the folder lists (name -> size, -1 for none) and its manifest.
DataSetPresence judge(const DataSet &set, const QHash<QString, qint64> &sizes, bool partFiles,
                      const Result<DataSetManifest::Manifest> &manifest)
{
    DataSetPresence p;
    p.dataSet = set.name;
    int present = 0;
    int vouched = 0;
    for (const DataSetFile &f : set.files) {
        const qint64 size = sizes.value(f.name, -1);
        if (size < 0)
            continue;
        ++present;
        p.bytes += size;
        if (!manifest)
            continue;
        for (const DataSetManifest::Entry &e : manifest->files) {
            const bool verified = e.md5 == f.md5 || (!f.contentMd5.isEmpty() && e.contentMd5 == f.contentMd5);
            if (e.name == f.name && verified && e.size == size) {
                ++vouched;
                if (!p.placed.isValid() || e.placed > p.placed)
                    p.placed = e.placed;
            }
        }
    }
    const int all = int(set.files.size());
    if (present == all && vouched == all)
        p.state = DataSetPresence::State::Fetched;
    else if (present == all)
        p.state = DataSetPresence::State::Unverified;
    else if (present > 0 || partFiles)
        p.state = DataSetPresence::State::Partial;
    if (p.state != DataSetPresence::State::Fetched)
        p.placed = {};
    return p;
}

} // namespace

Result<DataSetPresence> presenceInShare(ShareService &shares, const Share &share, const QString &directory,
                                        const DataSet &set)
{
    const auto folder = ShareUpload::folderPath(share, directory);
    if (!folder)
        return folder.failure();
    QHash<QString, qint64> sizes;
    DataSetPresence presence;
    if (share.kind == ShareKind::Local) {
        bool partFiles = false;
        for (const DataSetFile &f : set.files) {
            const QFileInfo info(QDir(*folder).filePath(f.name));
            if (info.isFile())
                sizes.insert(f.name, info.size());
            partFiles = partFiles || QFileInfo::exists(DataSetFetcher::partPath(*folder, f.name));
        }
        presence = judge(set, sizes, partFiles, DataSetManifest::read(*folder));
    } else {
        const auto top = shares.folders(share);
        if (!top)
            return top.failure();
        // Only a top-level folder is looked up by its parent's listing: deeper ones are listed.
        const QString first = directory.section(QLatin1Char('/'), 0, 0, QString::SectionSkipEmpty);
        if (!top->contains(first)) {
            presence.dataSet = set.name;
        } else {
            const auto entries = shares.listFiles(share, directory);
            if (!entries)
                return entries.failure();
            for (const RemoteFileInfo &e : *entries) {
                if (!e.isDirectory)
                    sizes.insert(e.name, e.size);
            }
            Result<DataSetManifest::Manifest> manifest = fail(QStringLiteral("no manifest"));
            const QTemporaryDir scratch;
            if (scratch.isValid() && sizes.contains(QString::fromLatin1(DataSetManifest::fileName))) {
                const QString file = QDir(directory).filePath(QString::fromLatin1(DataSetManifest::fileName));
                if (shares.download(share, file, scratch.path()))
                    manifest = DataSetManifest::read(scratch.path());
            }
            // Remote uploads are atomic per file: no part files to find there.
            presence = judge(set, sizes, false, manifest);
        }
    }
    presence.directory = directory;
    return presence;
}

} // namespace TrainDesk
