#pragma once

#include "common/Result.h"
#include "store/Entities.h"
#include "transport/TransferOptions.h"

#include <functional>

namespace TrainDesk {

class JobFiles;

// What to copy from a job's head node to this machine.
struct JobDownloadRequest
{
    QString directory;    // relative to the job directory: "stdouterr" or an output directory's path
    QString label;        // the local folder it goes to: "stdouterr" or the output directory's id
    QString path;         // a file or folder inside `directory`; empty: all of it
    QString destination;  // local folder; files land in <destination>/<job name>/<label>/<path>
    bool overwrite = false;
};

struct JobFileCopy
{
    QString source;     // <label>/<path of the file>
    QString localPath;  // absolute
    qint64 size = 0;
    bool unchanged = false;  // a file with the same bytes was there already
};

struct JobDownloadOutcome
{
    QList<JobFileCopy> files;
    // Local files that exist and differ from the job's (without `overwrite`): when there
    // are any, nothing was written.
    QList<JobFileCopy> conflicts;
    QStringList skippedLinks;  // symbolic links of the job's folders, never followed
};

struct JobDownloadEvents
{
    // Bytes of all files so far, the total, and the file being copied.
    std::function<void(qint64 done, qint64 total, const QString &file)> progress;
    const CancelFlag *cancel = nullptr;
};

// Copies one file or a folder (recursively) of a job from its head node, through
// JobFiles' reads. All or nothing: every file goes to a part file of its own first, and
// only when every file arrived and none would replace a different local file silently are
// they renamed into place (common/AtomicReplace). A local file with the same bytes is left
// as it is.
class JobFileDownload
{
public:
    explicit JobFileDownload(JobFiles &files) : m_output(files) {}

    Result<JobDownloadOutcome> download(const Job &job, const JobDownloadRequest &request,
                                        const JobDownloadEvents &events = {});

private:
    JobFiles &m_output;
};

} // namespace TrainDesk
