#pragma once

#include "JobFilesModel.h"

#include <QMessageBox>
#include <QPointer>
#include <QTimer>
#include <QWidget>

class QLabel;

class QProgressBar;
class QPushButton;
class QSortFilterProxyModel;
class QTreeView;

namespace TrainDesk {
class Backend;
}

namespace TrainDesk::Ui {

// The output files tab: stdouterr and the output directories (sizes, times), refreshed
// while the job runs, and downloads (copies to this machine) with progress, one at a time.
// A download goes to the job's own folder (DownloadPaths::jobFolder); a file already there
// is replaced, kept beside under a new name or skipped as the user answers, never silently.
class OutputFilesView : public QWidget
{
    Q_OBJECT

public:
    explicit OutputFilesView(Backend *backend, QWidget *parent = nullptr);

    static constexpr int refreshIntervalMs = 3000;

    void setJob(qint64 jobId, bool active);
    void refresh();
    // Copies the selected files (all when none is selected) into the job's folder below
    // `base` (<base>/<workspace>/<experiment>/<job>), keeping their paths below it
    // ("MODEL/saved_models/model.onnx").
    void downloadTo(const QString &base);
    // Asks for the base folder (starting at the last one chosen), then downloadTo().
    void chooseAndDownload();
    void cancelDownloads();

    // What to do with a file that is already there. Ask: show conflictQuestion().
    enum class Conflict { Ask, Replace, KeepBoth, Skip };

    JobFilesModel *model() const { return m_model; }
    QTreeView *view() const { return m_view; }
    bool isDownloading() const { return m_current != 0 || m_question; }
    QString statusText() const;
    // The folder of the last finished download, opened by "Open folder".
    QString downloadedFolder() const { return m_batchFolder; }
    QPushButton *openFolderButton() const { return m_openFolder; }
    // The open "file exists" question while a download waits for the answer, else null.
    QMessageBox *conflictQuestion() const { return m_question; }

Q_SIGNALS:
    void downloadsFinished(int succeeded, int failed);

private:
    struct Pending
    {
        QString remotePath;
        QString localPath;
        qint64 size = 0;
        QDateTime modified;
    };
    void startNext();
    void askAbout(const Pending &pending);
    void resolve(Pending pending, Conflict choice);
    void finishBatch();
    void onListed(qint64 jobId, const QList<TrainDesk::JobFile> &files, const QString &error);
    void updateButtons();

    Backend *m_backend;
    qint64 m_jobId = 0;
    JobFilesModel *m_model;
    QSortFilterProxyModel *m_proxy;
    QTreeView *m_view;
    QPushButton *m_refresh;
    QPushButton *m_download;
    QPushButton *m_cancel;
    QPushButton *m_openFolder;
    QProgressBar *m_progress;
    QLabel *m_status;
    QTimer m_refreshTimer;
    QList<Pending> m_queue;
    int m_current = 0;  // request id of the running download
    int m_succeeded = 0;
    int m_failed = 0;
    int m_total = 0;
    int m_skipped = 0;
    QString m_lastError;
    bool m_showingResult = false;  // the status line holds a download's result: keep it
    QStringList m_renamed;        // "model.h5 -> model (2).h5" for the finished message
    QString m_batchFolder;        // the job folder of the current (or last) download
    Conflict m_rule = Conflict::Ask;  // the answer kept for the rest of the batch
    QPointer<QMessageBox> m_question;
};

} // namespace TrainDesk::Ui
