#pragma once

#include "DataSetCatalogue.h"
#include "DataSetManifest.h"
#include "common/Result.h"
#include "transport/TransferOptions.h"

#include <QHash>
#include <QStringList>

#include <functional>

class QLockFile;

namespace TrainDesk {

struct FetchOptions
{
    // Files the user downloaded by hand (or folders holding them by their published names):
    // each is matched to the data set's files by its checksum, so any name will do; a .gz
    // compressed again by a packager (Debian's /usr/share/datasets/fashion-mnist) by the
    // checksum of its decompressed contents.
    QStringList from;
    int inactivitySeconds = 60;  // a download that receives nothing this long is given up
    const CancelFlag *cancel = nullptr;
    std::function<void(const QString &line)> log;  // one line per step, for the user
    // Bytes of `file` so far and its size (-1: unknown), while it downloads or is copied.
    std::function<void(qint64 done, qint64 total, const QString &file)> progress;
};

struct FetchedFile
{
    QString name;
    QString md5;  // of the file placed
    // Set when the file was verified by its decompressed contents (a repackaged .gz).
    QString contentMd5;
    qint64 size = 0;
    QString source;  // address, "file:<path>", or "found in place"
    enum class Action { Present, Downloaded, Copied } action = Action::Present;
};

struct FetchOutcome
{
    QString folder;
    QList<FetchedFile> files;
    bool changed = false;  // anything was placed or the manifest was (re)written
};

QString toString(FetchedFile::Action action);

// Places a data set's published files, verified against their checksums, in a folder of
// this machine. Blocks (run it off the GUI thread; it runs its own event loop for Qt Network).
//
// - Files already there whose checksum matches are kept: a second fetch does nothing.
// - Downloads go to ".NAME.download.traindesk-part" in the folder and continue from it with
//   HTTP Range, after a broken transfer (a few times at once) and in a later fetch after a
//   cancel or a kill. Each mirror of the data set is tried in turn.
// - A file is renamed into place only once its checksum matches; one that does not is
//   deleted (a resumed one is first downloaded again whole), so nothing unverified is left.
// - One fetch at a time per folder (a lock file beside the files); the second waits, then
//   finds the files there.
// - The folder gets `traindesk-dataset.json` (DataSetManifest) recording what was placed.
class DataSetFetcher
{
public:
    DataSetFetcher(DataSet dataSet, FetchOptions options);

    Result<FetchOutcome> fetchInto(const QString &folder);

    // The part file a download of `file` into `folder` continues from.
    static QString partPath(const QString &folder, const QString &file);

private:
    void log(const QString &line) const;
    // `file` placed in the folder from the --from sources, when one of them is it.
    Result<bool> copyGiven(const DataSetFile &file, const QString &folder, FetchedFile &placed);
    // The files given with --from, by the data set file they are (checked by checksum).
    Result<QHash<QString, QString>> matchGiven() const;
    VoidResult download(const DataSetFile &file, const QString &folder, FetchedFile &placed);
    // Holds `lock` (the folder's), waiting for another fetch into it; fails when cancelled.
    VoidResult lockFolder(QLockFile &lock, const QString &folder) const;
    // `file` in the folder: kept when its checksum is the published one, else copied from
    // what was given or downloaded. `*fetched`: whether it had to be.
    Result<FetchedFile> place(const DataSetFile &file, const QString &folder,
                              const QHash<QString, DataSetManifest::Entry> &recorded, bool *fetched);

    DataSet m_set;
    FetchOptions m_options;
    QHash<QString, QString> m_given;  // data set file name -> given path
};

} // namespace TrainDesk
