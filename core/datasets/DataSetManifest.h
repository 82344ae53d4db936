#pragma once

#include "DataSetCatalogue.h"
#include "common/Result.h"

#include <QDateTime>
#include <QList>
#include <QString>

namespace TrainDesk {

// What a data set's folder holds and where it came from: `traindesk-dataset.json` beside the
// files, written when a fetch placed them, so a user (or a later fetch) can tell what is there.
namespace DataSetManifest {

inline constexpr const char *fileName = "traindesk-dataset.json";

struct Entry
{
    QString name;
    QString md5;
    qint64 size = 0;
    QString source;  // the address it was downloaded from, "file:<path>" given by hand, or "found in place"
    QDateTime placed;
    // Set when the file was verified by the md5 of its decompressed contents (a .gz a
    // packager compressed again): `md5` is then the file's own, not the published one.
    QString contentMd5 = {};
};

struct Manifest
{
    QString dataSet;
    QString title;
    QList<Entry> files;
};

// The manifest of `folder`; a missing or unreadable one is a failure the caller may ignore.
Result<Manifest> read(const QString &folder);
// Writes it atomically (a temporary file of its own, then a rename).
VoidResult write(const QString &folder, const Manifest &manifest);

} // namespace DataSetManifest
} // namespace TrainDesk
