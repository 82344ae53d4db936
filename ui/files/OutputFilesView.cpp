#include "OutputFilesView.h"

#include "common/StateStyle.h"
#include "session/Backend.h"

#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QStyle>
#include <QTreeView>
#include <QVBoxLayout>

namespace TrainDesk::Ui {

OutputFilesView::OutputFilesView(Backend *backend, QWidget *parent)
    : QWidget(parent),
      m_backend(backend),
      m_model(new JobFilesModel(this)),
      m_proxy(new QSortFilterProxyModel(this)),
      m_view(new QTreeView(this)),
      m_refresh(new QPushButton(style()->standardIcon(QStyle::SP_BrowserReload), tr("Refresh"), this)),
      m_download(new QPushButton(style()->standardIcon(QStyle::SP_DialogSaveButton), tr("Download…"), this)),
      m_cancel(new QPushButton(tr("Cancel"), this)),
      m_progress(new QProgressBar(this)),
      m_status(new QLabel(this))
{
    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(JobFilesModel::SortRole);
    m_view->setModel(m_proxy);
    m_view->setRootIsDecorated(false);
    m_view->setSortingEnabled(true);
    m_view->sortByColumn(JobFilesModel::DirectoryColumn, Qt::DescendingOrder);
    m_view->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_view->setAlternatingRowColors(true);
    m_view->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_view->header()->setSectionResizeMode(JobFilesModel::NameColumn, QHeaderView::Stretch);
    m_view->header()->setStretchLastSection(false);
    m_download->setToolTip(tr("Copy the selected files (or all of them) to a folder on this computer"));
    m_progress->setVisible(false);
    m_cancel->setVisible(false);
    m_status->setWordWrap(true);

    auto *bar = new QHBoxLayout;
    bar->addWidget(m_refresh);
    bar->addWidget(m_download);
    bar->addWidget(m_progress, 1);
    bar->addWidget(m_cancel);
    bar->addStretch();
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(bar);
    layout->addWidget(m_view, 1);
    layout->addWidget(m_status);

    m_refreshTimer.setInterval(refreshIntervalMs);
    connect(&m_refreshTimer, &QTimer::timeout, this, [this] {
        if (isVisible())
            refresh();
    });
    connect(m_refresh, &QPushButton::clicked, this, &OutputFilesView::refresh);
    connect(m_download, &QPushButton::clicked, this, &OutputFilesView::chooseAndDownload);
    connect(m_cancel, &QPushButton::clicked, this, &OutputFilesView::cancelDownloads);
    connect(m_backend, &Backend::jobFilesListed, this, &OutputFilesView::onListed);
    connect(m_backend, &Backend::downloadProgress, this, [this](int id, qint64 done, qint64 total) {
        if (id != m_current)
            return;
        // Scaled to stay inside int for files over 2 GiB.
        m_progress->setRange(0, 1000);
        m_progress->setValue(total > 0 ? int(done * 1000 / total) : 0);
        m_progress->setFormat(tr("%1 of %2 files: %3 of %4")
                                  .arg(m_succeeded + m_failed + 1)
                                  .arg(m_total)
                                  .arg(formatBytes(done), formatBytes(total)));
    });
    connect(m_backend, &Backend::downloadFinished, this, [this](int id, const QString &error) {
        if (id != m_current)
            return;
        m_current = 0;
        if (error.isEmpty()) {
            ++m_succeeded;
        } else {
            ++m_failed;
            m_status->setText(error);
        }
        startNext();
    });
    connect(m_view->selectionModel(), &QItemSelectionModel::selectionChanged, this, &OutputFilesView::updateButtons);
    updateButtons();
}

void OutputFilesView::setJob(qint64 jobId, bool active)
{
    if (jobId != m_jobId) {
        m_jobId = jobId;
        m_model->setFiles({});
        m_status->clear();
        if (jobId)
            refresh();
    }
    if (active)
        m_refreshTimer.start();
    else
        m_refreshTimer.stop();
    updateButtons();
}

void OutputFilesView::refresh()
{
    if (m_jobId)
        m_backend->listJobFiles(m_jobId);
}

void OutputFilesView::onListed(qint64 jobId, const QList<JobFile> &files, const QString &error)
{
    if (jobId != m_jobId)
        return;
    m_model->setFiles(files);
    if (!error.isEmpty())
        m_status->setText(error);
    else if (!isDownloading())
        m_status->setText(countOf(files.size(), tr("file"), tr("files")));
    updateButtons();
}

void OutputFilesView::chooseAndDownload()
{
    const QString dir = QFileDialog::getExistingDirectory(this, tr("Download to"));
    if (!dir.isEmpty())
        downloadTo(dir);
}

void OutputFilesView::downloadTo(const QString &directory)
{
    QList<int> rows;
    for (const QModelIndex &index : m_view->selectionModel()->selectedRows())
        rows.append(m_proxy->mapToSource(index).row());
    if (rows.isEmpty()) {
        for (int r = 0; r < m_model->rowCount(); ++r)
            rows.append(r);
    }
    for (int row : std::as_const(rows)) {
        const JobFile &f = m_model->fileAt(row);
        m_queue.append({f.remotePath, directory + QLatin1Char('/') + f.directory + QLatin1Char('/') + f.path});
    }
    if (!isDownloading()) {
        m_succeeded = m_failed = 0;
        m_total = int(m_queue.size());
    } else {
        m_total += int(rows.size());
    }
    m_status->clear();
    startNext();
}

void OutputFilesView::startNext()
{
    if (isDownloading())
        return;
    if (m_queue.isEmpty()) {
        m_progress->setVisible(false);
        m_cancel->setVisible(false);
        if (m_total > 0) {
            if (m_failed == 0)
                m_status->setText(tr("Downloaded %1.").arg(countOf(m_succeeded, tr("file"), tr("files"))));
            else
                m_status->setText(tr("Downloaded %1, %2 failed: %3").arg(countOf(m_succeeded, tr("file"), tr("files"))).arg(m_failed).arg(m_status->text()));
            Q_EMIT downloadsFinished(m_succeeded, m_failed);
        }
        m_total = 0;
        updateButtons();
        return;
    }
    const Pending next = m_queue.takeFirst();
    m_progress->setVisible(true);
    m_progress->setRange(0, 0);
    m_cancel->setVisible(true);
    m_current = m_backend->downloadJobFile(m_jobId, next.remotePath, next.localPath);
    updateButtons();
}

void OutputFilesView::cancelDownloads()
{
    m_failed += int(m_queue.size());
    m_queue.clear();
    if (m_current)
        m_backend->cancelDownload(m_current);
}

void OutputFilesView::updateButtons()
{
    m_download->setEnabled(m_jobId != 0 && m_model->rowCount() > 0);
    m_download->setText(m_view->selectionModel()->hasSelection() ? tr("Download selected…") : tr("Download all…"));
}

} // namespace TrainDesk::Ui
