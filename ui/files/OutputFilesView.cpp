#include "OutputFilesView.h"

#include "DownloadPaths.h"
#include "common/StateStyle.h"
#include "session/Backend.h"

#include <QCheckBox>
#include <QDesktopServices>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QStyle>
#include <QTreeView>
#include <QUrl>
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
      m_openFolder(new QPushButton(style()->standardIcon(QStyle::SP_DirOpenIcon), tr("Open folder"), this)),
      m_progress(new QProgressBar(this)),
      m_status(new QLabel(this))
{
    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(JobFilesModel::SortRole);
    m_view->setModel(m_proxy);
    m_view->setRootIsDecorated(false);
    // The button says whether checkpoints are left out of "all".
    connect(m_model, &QAbstractItemModel::rowsInserted, this, &OutputFilesView::updateButtons);
    connect(m_model, &QAbstractItemModel::rowsRemoved, this, &OutputFilesView::updateButtons);
    connect(m_model, &QAbstractItemModel::modelReset, this, &OutputFilesView::updateButtons);
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
    // The download message names a full path the user may want to copy.
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_openFolder->setVisible(false);
    m_openFolder->setToolTip(tr("Show the downloaded files in the file manager"));

    auto *bar = new QHBoxLayout;
    bar->addWidget(m_refresh);
    bar->addWidget(m_download);
    bar->addWidget(m_progress, 1);
    bar->addWidget(m_cancel);
    bar->addStretch();
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(bar);
    layout->addWidget(m_view, 1);
    auto *statusRow = new QHBoxLayout;
    statusRow->addWidget(m_status, 1);
    statusRow->addWidget(m_openFolder, 0, Qt::AlignTop);
    layout->addLayout(statusRow);

    m_refreshTimer.setInterval(refreshIntervalMs);
    connect(&m_refreshTimer, &QTimer::timeout, this, [this] {
        if (isVisible())
            refresh();
    });
    connect(m_refresh, &QPushButton::clicked, this, &OutputFilesView::refresh);
    connect(m_download, &QPushButton::clicked, this, &OutputFilesView::chooseAndDownload);
    connect(m_cancel, &QPushButton::clicked, this, &OutputFilesView::cancelDownloads);
    connect(m_openFolder, &QPushButton::clicked, this, [this] {
        QDesktopServices::openUrl(QUrl::fromLocalFile(m_batchFolder));
    });
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
            m_lastError = error;
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
        m_showingResult = false;
        m_openFolder->setVisible(false);
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
    else if (!isDownloading() && !m_showingResult)
        m_status->setText(countOf(files.size(), tr("file"), tr("files")));
    updateButtons();
}

QString OutputFilesView::statusText() const
{
    return m_status->text();
}

void OutputFilesView::chooseAndDownload()
{
    const QString base = QFileDialog::getExistingDirectory(
        this, tr("Download to (a folder per job is made inside)"), DownloadPaths::dialogFolder());
    if (base.isEmpty())
        return;
    DownloadPaths::setBaseFolder(base);
    downloadTo(base);
}

void OutputFilesView::downloadTo(const QString &base)
{
    const ResourceSnapshot &snapshot = m_backend->snapshot();
    const Job *job = snapshot.findJob(m_jobId);
    if (!job)
        return;
    const auto *experiment = snapshot.findExperiment(job->experimentId);
    const auto *workspace = experiment ? snapshot.findWorkspace(experiment->experiment.workspaceId) : nullptr;
    if (!experiment || !workspace)
        return;
    const QString folder = DownloadPaths::jobFolder(base, workspace->workspace.name, experiment->experiment.name, job->name);

    QList<int> rows;
    for (const QModelIndex &index : m_view->selectionModel()->selectedRows())
        rows.append(m_proxy->mapToSource(index).row());
    // Nothing selected: everything but the checkpoints (each as big as the model, one an
    // epoch); selected, they come too.
    if (rows.isEmpty()) {
        for (int r = 0; r < m_model->rowCount(); ++r) {
            if (!m_model->isCheckpointAt(r))
                rows.append(r);
        }
    }
    if (!isDownloading()) {
        m_succeeded = m_failed = m_skipped = 0;
        m_total = 0;
        m_renamed.clear();
        m_lastError.clear();
        m_rule = Conflict::Ask;
    }
    m_batchFolder = folder;
    for (int row : std::as_const(rows)) {
        const JobFile &f = m_model->fileAt(row);
        m_queue.append({f.remotePath, folder + QLatin1Char('/') + f.directory + QLatin1Char('/') + f.path, f.size, f.modified});
    }
    m_total += int(rows.size());
    m_status->clear();
    m_showingResult = false;
    m_openFolder->setVisible(false);
    startNext();
}

void OutputFilesView::startNext()
{
    if (isDownloading())
        return;
    if (m_queue.isEmpty()) {
        finishBatch();
        return;
    }
    const Pending next = m_queue.takeFirst();
    m_progress->setVisible(true);
    m_progress->setRange(0, 0);
    m_cancel->setVisible(true);
    if (QFileInfo::exists(next.localPath)) {
        if (m_rule == Conflict::Ask)
            askAbout(next);
        else
            resolve(next, m_rule);
        return;
    }
    resolve(next, Conflict::Replace);
}

void OutputFilesView::askAbout(const Pending &pending)
{
    const QFileInfo there(pending.localPath);
    auto *box = new QMessageBox(QMessageBox::Question, tr("File already downloaded"),
                                tr("%1 already exists.").arg(QDir::toNativeSeparators(pending.localPath)), QMessageBox::NoButton, this);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->setInformativeText(tr("There: %1, %2.\nFrom the job: %3, %4.")
                                .arg(formatBytes(there.size()), formatTime(there.lastModified()),
                                     formatBytes(pending.size), formatTime(pending.modified)));
    QPushButton *keep = box->addButton(tr("&Keep both"), QMessageBox::AcceptRole);
    keep->setToolTip(tr("Save the job's file under a new name beside it"));
    QPushButton *replace = box->addButton(tr("&Replace"), QMessageBox::DestructiveRole);
    QPushButton *skip = box->addButton(tr("&Skip"), QMessageBox::RejectRole);
    box->setDefaultButton(keep);
    box->setEscapeButton(skip);
    if (!m_queue.isEmpty())
        box->setCheckBox(new QCheckBox(m_queue.size() == 1 ? tr("Do the same for the other file")
                                                           : tr("Do the same for the other %1 files").arg(m_queue.size()),
                                       box));
    connect(box, &QMessageBox::finished, this, [this, box, pending, keep, replace] {
        const QAbstractButton *clicked = box->clickedButton();
        const Conflict choice = clicked == keep ? Conflict::KeepBoth : clicked == replace ? Conflict::Replace : Conflict::Skip;
        if (box->checkBox() && box->checkBox()->isChecked())
            m_rule = choice;
        m_question.clear();
        resolve(pending, choice);
    });
    m_question = box;
    box->open();
}

void OutputFilesView::resolve(Pending pending, Conflict choice)
{
    if (choice == Conflict::Skip) {
        ++m_skipped;
        startNext();
        return;
    }
    if (choice == Conflict::KeepBoth && QFileInfo::exists(pending.localPath)) {
        const QString renamed = DownloadPaths::freePathFor(pending.localPath);
        m_renamed << tr("%1 as %2").arg(QFileInfo(pending.localPath).fileName(), QFileInfo(renamed).fileName());
        pending.localPath = renamed;
    }
    m_current = m_backend->downloadJobFile(m_jobId, pending.remotePath, pending.localPath);
    updateButtons();
}

void OutputFilesView::finishBatch()
{
    m_progress->setVisible(false);
    m_cancel->setVisible(false);
    if (m_total > 0) {
        const QString folder = QDir::toNativeSeparators(m_batchFolder);
        QStringList text;
        text << tr("Downloaded %1 to %2.").arg(countOf(m_succeeded, tr("file"), tr("files")), folder);
        if (!m_renamed.isEmpty())
            text << tr("Already there, so kept both: saved %1.").arg(m_renamed.join(QStringLiteral(", ")));
        if (m_skipped > 0)
            text << tr("Skipped %1 already there.").arg(countOf(m_skipped, tr("file"), tr("files")));
        if (m_failed > 0)
            text << tr("%1 failed: %2").arg(m_failed).arg(m_lastError);
        m_status->setText(text.join(QLatin1Char(' ')));
        m_showingResult = true;
        m_openFolder->setVisible(m_succeeded > 0 && QFileInfo::exists(m_batchFolder));
        Q_EMIT downloadsFinished(m_succeeded, m_failed);
    }
    m_total = 0;
    updateButtons();
}

void OutputFilesView::cancelDownloads()
{
    m_failed += int(m_queue.size());
    m_queue.clear();
    if (m_question) {
        // The file the question was about is neither replaced nor kept: it was not fetched.
        m_question->disconnect(this);
        m_question->close();
        m_question.clear();
        ++m_failed;
        m_lastError = tr("cancelled");
        startNext();
        return;
    }
    if (m_current)
        m_backend->cancelDownload(m_current);
}

void OutputFilesView::updateButtons()
{
    m_download->setEnabled(m_jobId != 0 && m_model->rowCount() > 0);
    const int checkpoints = m_model->checkpointCount();
    m_download->setText(m_view->selectionModel()->hasSelection() ? tr("Download selected…")
                        : checkpoints                             ? tr("Download all but checkpoints…")
                                                                  : tr("Download all…"));
    m_download->setToolTip(checkpoints && !m_view->selectionModel()->hasSelection()
                               ? tr("The model, the other outputs and the logs; the %1 checkpoints only when you select "
                                    "them").arg(checkpoints)
                               : QString());
}

} // namespace TrainDesk::Ui
