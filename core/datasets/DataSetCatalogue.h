#pragma once

#include <QList>
#include <QString>
#include <QStringList>

namespace TrainDesk {

// One file of a data set as its publisher serves it, with the published MD5 checksum.
struct DataSetFile
{
    QString name;  // also the name it gets in the share
    QString md5;   // lower-case hex
    // For a .gz file: the MD5 of its decompressed contents. A copy compressed again by a
    // packager (Debian's dataset-fashion-mnist) has another md5 but these same contents,
    // and the trainer reads either. Empty where no such checksum is known.
    QString contentMd5 = {};
};

// A data set the bundled trainer reads, fetched as published: the trainer reads CIFAR's
// .tar.gz and the IDX .gz files directly, so nothing is unpacked.
struct DataSet
{
    QString name;         // the CLI's name: cifar10, fashion-mnist, ...
    QString title;        // "CIFAR-10 (python version)"
    QString homepage;     // where the publisher describes it and lists the checksums
    QStringList mirrors;  // base addresses tried in order; a file's address is base + file name
    QList<DataSetFile> files;
    QString trainerFormat;  // traindesk-trainer --format for these files

    QString url(const QString &mirror, const DataSetFile &file) const { return mirror + file.name; }
};

// The data sets TrainDesk can fetch, with their canonical addresses and published checksums.
namespace DataSetCatalogue {

QList<DataSet> all();
// The data set called `name`, or nullptr.
const DataSet *find(const QString &name);
// "cifar10, cifar10-binary, ..." for messages.
QString names();

} // namespace DataSetCatalogue
} // namespace TrainDesk
