#pragma once

#include "session/JobFile.h"

#include <QList>
#include <QObject>

namespace TrainDesk {
class Backend;
}

namespace TrainDesk::Ui {

// The model of one trial (or any run) in one step: every file of the job's output
// directories (not its stdouterr, nor its checkpoints) listed on its head node, then downloaded one after another into
// <folder>/<directory id>/<path>. Each file arrives whole or not at all (JobMonitor's copy).
class TrialModelDownload : public QObject
{
    Q_OBJECT

public:
    TrialModelDownload(Backend *backend, QObject *parent = nullptr);

    void start(qint64 jobId, const QString &folder);
    // A file below a "checkpoints" folder, or a *.ckpt: not the model, not downloaded.
    static bool isCheckpoint(const QString &path);
    bool busy() const { return m_jobId != 0; }

Q_SIGNALS:
    void progress(const QString &text);
    void finished(const QString &folder, int files, const QString &error);  // empty error: all arrived

private:
    void onListed(qint64 jobId, const QList<TrainDesk::JobFile> &files, const QString &error);
    void next();
    void end(const QString &error);

    Backend *m_backend;
    qint64 m_jobId = 0;
    QString m_folder;
    QList<JobFile> m_pending;
    int m_done = 0;
    int m_request = -1;
};

} // namespace TrainDesk::Ui
