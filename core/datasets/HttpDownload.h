#pragma once

#include "transport/TransferOptions.h"

#include <QString>
#include <QUrl>

namespace TrainDesk::HttpDownload {

struct Options
{
    // A transfer that receives nothing for this long (connecting included) is given up.
    int inactivitySeconds = 60;
    const CancelFlag *cancel = nullptr;
    // Bytes in the part file so far (resumed ones included) and the file's size (-1: unknown).
    ProgressCallback progress;
};

enum class Status {
    Complete,     // the part file holds the whole file as served
    Interrupted,  // bytes arrived, then the transfer broke: another try continues from there
    Failed,       // nothing gained: the address refused, is unreachable, or answered an error
    Cancelled,
};

struct Outcome
{
    Status status = Status::Failed;
    QString error;         // "<url>: <why>" unless Complete
    bool resumed = false;  // the server continued an existing part file (HTTP 206)
};

// Downloads `url` into `partPath` with Qt Network. A part file that already holds bytes is
// continued with an HTTP Range request; a server that answers with the whole file instead
// starts it over. Written bytes are flushed as they come, so the part file is always a
// prefix of the file and a killed download resumes. The caller verifies and renames it.
Outcome toPartFile(const QUrl &url, const QString &partPath, const Options &options);

} // namespace TrainDesk::HttpDownload
