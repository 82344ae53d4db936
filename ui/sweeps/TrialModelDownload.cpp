#include "TrialModelDownload.h"
#include "files/JobFilesModel.h"

#include "session/Backend.h"

#include <QDir>

namespace TrainDesk::Ui {

TrialModelDownload::TrialModelDownload(Backend *backend, QObject *parent) : QObject(parent), m_backend(backend)
{
    connect(m_backend, &Backend::jobFilesListed, this, &TrialModelDownload::onListed);
    connect(m_backend, &Backend::downloadFinished, this, [this](int id, const QString &error) {
        if (id != m_request)
            return;
        m_request = -1;
        if (!error.isEmpty()) {
            end(error);
            return;
        }
        ++m_done;
        next();
    });
}

void TrialModelDownload::start(qint64 jobId, const QString &folder)
{
    if (busy())
        return;
    m_jobId = jobId;
    m_folder = folder;
    m_done = 0;
    m_pending.clear();
    Q_EMIT progress(tr("Listing the trial's output files…"));
    m_backend->listJobFiles(jobId);
}

bool TrialModelDownload::isCheckpoint(const QString &path)
{
    return JobFilesModel::isCheckpoint(path);
}

void TrialModelDownload::onListed(qint64 jobId, const QList<JobFile> &files, const QString &error)
{
    // Idle (no job), another view's listing is none of this: it said "Download failed: job
    // #0 not found" on a sweep's page nobody downloaded from.
    if (!m_jobId || jobId != m_jobId || !m_pending.isEmpty() || m_request >= 0)
        return;
    if (!error.isEmpty()) {
        end(error);
        return;
    }
    // The model, not the checkpoints training left on the way (the trainer's checkpoints/,
    // a Keras callback's): they are many and each as big as the model.
    for (const JobFile &f : files) {
        if (f.directory != QLatin1String("stdouterr") && !isCheckpoint(f.path))
            m_pending << f;
    }
    if (m_pending.isEmpty()) {
        end(tr("the trial has no files in its output directories (its job.json names none, or it wrote none)"));
        return;
    }
    next();
}

void TrialModelDownload::next()
{
    if (m_pending.isEmpty()) {
        end({});
        return;
    }
    const JobFile f = m_pending.takeFirst();
    const QString local = QDir(m_folder).filePath(f.directory + QLatin1Char('/') + f.path);
    QDir().mkpath(QFileInfo(local).absolutePath());
    Q_EMIT progress(tr("Downloading %1 (%2 of %3)…").arg(f.path).arg(m_done + 1).arg(m_done + 1 + m_pending.size()));
    m_request = m_backend->downloadJobFile(m_jobId, f.remotePath, local);
}

void TrialModelDownload::end(const QString &error)
{
    m_jobId = 0;
    m_pending.clear();
    Q_EMIT finished(m_folder, m_done, error);
}

} // namespace TrainDesk::Ui
