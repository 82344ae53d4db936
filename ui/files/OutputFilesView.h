#pragma once

#include "JobFilesModel.h"

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
class OutputFilesView : public QWidget
{
    Q_OBJECT

public:
    explicit OutputFilesView(Backend *backend, QWidget *parent = nullptr);

    static constexpr int refreshIntervalMs = 3000;

    void setJob(qint64 jobId, bool active);
    void refresh();
    // Copies the selected files (all when none is selected) into `directory`, keeping
    // their paths below it ("MODEL/saved_models/model.onnx").
    void downloadTo(const QString &directory);
    void chooseAndDownload();
    void cancelDownloads();

    JobFilesModel *model() const { return m_model; }
    QTreeView *view() const { return m_view; }
    bool isDownloading() const { return m_current != 0; }

Q_SIGNALS:
    void downloadsFinished(int succeeded, int failed);

private:
    struct Pending
    {
        QString remotePath;
        QString localPath;
    };
    void startNext();
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
    QProgressBar *m_progress;
    QLabel *m_status;
    QTimer m_refreshTimer;
    QList<Pending> m_queue;
    int m_current = 0;  // request id of the running download
    int m_succeeded = 0;
    int m_failed = 0;
    int m_total = 0;
};

} // namespace TrainDesk::Ui
