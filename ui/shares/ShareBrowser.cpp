#include "ShareBrowser.h"

#include "ShareFilesModel.h"
#include "common/StateStyle.h"
#include "files/DownloadPaths.h"
#include "session/Backend.h"
#include "session/ShareWorker.h"

#include <QDesktopServices>
#include <QDir>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QInputDialog>
#include <QLabel>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressBar>
#include <QPushButton>
#include <QShortcut>
#include <QSortFilterProxyModel>
#include <QStyle>
#include <QTreeView>
#include <QUrl>
#include <QVBoxLayout>

namespace TrainDesk::Ui {

namespace {

// Local files of a drop, or nothing when something else is dropped.
QStringList localFilesOf(const QMimeData *mime)
{
    QStringList files;
    if (!mime || !mime->hasUrls())
        return files;
    for (const QUrl &url : mime->urls()) {
        if (!url.isLocalFile())
            return {};
        files << url.toLocalFile();
    }
    return files;
}

} // namespace

ShareBrowser::ShareBrowser(Backend *backend, const QString &databasePath, QWidget *parent)
    : QWidget(parent),
      m_backend(backend),
      m_worker(new ShareWorker(databasePath, this)),
      m_model(new ShareFilesModel(this)),
      m_proxy(new QSortFilterProxyModel(this)),
      m_view(new QTreeView(this)),
      m_path(new QLabel(this)),
      m_up(new QPushButton(style()->standardIcon(QStyle::SP_FileDialogToParent), tr("&Up"), this)),
      m_refresh(new QPushButton(style()->standardIcon(QStyle::SP_BrowserReload), tr("Re&fresh"), this)),
      m_newFolder(new QPushButton(style()->standardIcon(QStyle::SP_FileDialogNewFolder), tr("New f&older…"), this)),
      m_upload(new QPushButton(tr("U&pload…"), this)),
      m_download(new QPushButton(style()->standardIcon(QStyle::SP_DialogSaveButton), tr("Do&wnload…"), this)),
      m_delete(new QPushButton(style()->standardIcon(QStyle::SP_TrashIcon), tr("De&lete…"), this)),
      m_cancel(new QPushButton(tr("Cancel"), this)),
      m_openDownloads(new QPushButton(style()->standardIcon(QStyle::SP_DirOpenIcon), tr("Open folder"), this)),
      m_progress(new QProgressBar(this)),
      m_status(new QLabel(this))
{
    setUpWidgets();
    layOut();
    connectButtons();
    connectWorker();
    connectUploads();
    updateButtons();
}

void ShareBrowser::setUpWidgets()
{
    m_view->setObjectName(QStringLiteral("shareFiles"));
    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(ShareFilesModel::SortRole);
    m_view->setModel(m_proxy);
    m_view->setRootIsDecorated(false);
    m_view->setSortingEnabled(true);
    m_view->sortByColumn(ShareFilesModel::NameColumn, Qt::AscendingOrder);
    m_view->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_view->setAlternatingRowColors(true);
    m_view->header()->setStretchLastSection(false);
    m_view->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_view->header()->setSectionResizeMode(ShareFilesModel::NameColumn, QHeaderView::Stretch);
    m_view->viewport()->setAcceptDrops(true);
    m_view->viewport()->installEventFilter(this);
    m_view->setToolTip(tr("Double-click a folder to open it; drop files here to upload them into this folder"));
    m_path->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_path->setWordWrap(true);
    QFont bold = m_path->font();
    bold.setBold(true);
    m_path->setFont(bold);
    m_upload->setIcon(QIcon(QStringLiteral(":/traindesk/ui/icons/upload.svg")));
    m_up->setToolTip(tr("The folder that holds this one"));
    m_newFolder->setToolTip(tr("Make a folder here (on every node of a replicated share)"));
    m_upload->setToolTip(tr("Copy files of this computer into this folder (or drop them on the list)"));
    m_download->setToolTip(tr("Copy the selected files to a folder of this computer"));
    m_delete->setToolTip(tr("Delete the selected files and folders from the share (asks first) (Del)"));
    m_progress->setVisible(false);
    m_cancel->setVisible(false);
    m_openDownloads->setVisible(false);
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
}

void ShareBrowser::layOut()
{
    auto *bar = new QHBoxLayout;
    for (QPushButton *b : {m_up, m_refresh, m_newFolder, m_upload, m_download, m_delete})
        bar->addWidget(b);
    bar->addStretch();
    auto *progressRow = new QHBoxLayout;
    progressRow->addWidget(m_progress, 1);
    progressRow->addWidget(m_cancel);
    auto *statusRow = new QHBoxLayout;
    statusRow->addWidget(m_status, 1);
    statusRow->addWidget(m_openDownloads, 0, Qt::AlignTop);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_path);
    layout->addLayout(bar);
    layout->addWidget(m_view, 1);
    layout->addLayout(progressRow);
    layout->addLayout(statusRow);
}

void ShareBrowser::connectButtons()
{
    // Backspace: the folder above, as file managers do.
    auto *upKey = new QShortcut(QKeySequence(Qt::Key_Backspace), m_view, nullptr, nullptr, Qt::WidgetShortcut);
    connect(upKey, &QShortcut::activated, m_up, &QPushButton::click);
    auto *deleteKey = new QShortcut(QKeySequence::Delete, m_view, nullptr, nullptr, Qt::WidgetShortcut);
    connect(deleteKey, &QShortcut::activated, this, &ShareBrowser::deleteSelected);
    connect(m_up, &QPushButton::clicked, this, [this] {
        const qsizetype slash = m_folder.lastIndexOf(QLatin1Char('/'));
        openFolder(slash < 0 ? QString() : m_folder.left(slash));
    });
    connect(m_refresh, &QPushButton::clicked, this, &ShareBrowser::refresh);
    connect(m_newFolder, &QPushButton::clicked, this, [this] {
        bool ok = false;
        const QString name = QInputDialog::getText(this, tr("New folder"), tr("Folder name:"), QLineEdit::Normal, {}, &ok);
        if (ok && !name.trimmed().isEmpty())
            makeFolder(name.trimmed());
    });
    connect(m_upload, &QPushButton::clicked, this, [this] {
        const QStringList files = QFileDialog::getOpenFileNames(this, tr("Upload to %1").arg(m_path->text()));
        if (!files.isEmpty())
            upload(files);
    });
    connect(m_download, &QPushButton::clicked, this, [this] {
        const QString folder = QFileDialog::getExistingDirectory(this, tr("Download to"), DownloadPaths::dialogFolder());
        if (folder.isEmpty())
            return;
        DownloadPaths::setBaseFolder(folder);
        downloadTo(folder);
    });
    connect(m_delete, &QPushButton::clicked, this, &ShareBrowser::deleteSelected);
    connect(m_cancel, &QPushButton::clicked, this, [this] {
        if (m_uploadRequest)
            m_backend->cancelUpload(m_uploadRequest);
        m_toDownload.clear();
        if (m_request)
            m_worker->cancel(m_request);
    });
    connect(m_openDownloads, &QPushButton::clicked, this, [this] {
        QDesktopServices::openUrl(QUrl::fromLocalFile(m_downloadFolder));
    });
    // Activated: a double click, or Enter from the keyboard.
    connect(m_view, &QTreeView::activated, this, [this](const QModelIndex &index) {
        if (index.data(ShareFilesModel::IsFolderRole).toBool())
            openFolder(pathOf(index.siblingAtColumn(ShareFilesModel::NameColumn).data().toString()));
    });
    connect(m_view->selectionModel(), &QItemSelectionModel::selectionChanged, this, &ShareBrowser::updateButtons);
}

void ShareBrowser::connectWorker()
{
    connect(m_worker, &ShareWorker::listed, this, &ShareBrowser::showListing);
    connect(m_worker, &ShareWorker::downloadProgress, this, [this](int id, qint64 done, qint64 total) {
        if (id != m_request)
            return;
        m_progress->setRange(0, 1000);
        m_progress->setValue(total > 0 ? int(done * 1000 / total) : 0);
        m_progress->setFormat(tr("%1 of %2").arg(formatBytes(done), formatBytes(total)));
    });
    connect(m_worker, &ShareWorker::finished, this, &ShareBrowser::requestFinished);
}

// Uploads run through the Backend (as the Upload wizard's), not the worker.
void ShareBrowser::connectUploads()
{
    connect(m_backend, &Backend::uploadProgress, this, [this](int id, qint64 done, qint64 total, const QString &file) {
        if (id != m_uploadRequest)
            return;
        m_progress->setRange(0, 1000);
        m_progress->setValue(total > 0 ? int(done * 1000 / total) : 0);
        m_progress->setFormat(tr("%1: %2 of %3").arg(file, formatBytes(done), formatBytes(total)));
    });
    connect(m_backend, &Backend::uploadFinished, this, [this](int id, int copied, const QString &error) {
        if (id != m_uploadRequest)
            return;
        m_uploadRequest = 0;
        setStatus(error.isEmpty() ? tr("Uploaded %1 to %2.").arg(countOf(copied, tr("file"), tr("files")), m_path->text())
                                  : tr("Uploaded %1; %2").arg(countOf(copied, tr("file"), tr("files")), error));
        refresh();
        updateButtons();
        Q_EMIT changed();
    });
}

void ShareBrowser::showListing(int id, const QList<RemoteFileInfo> &entries, const QString &error)
{
    if (id != m_listRequest)
        return;
    m_listRequest = 0;
    m_model->setEntries(error.isEmpty() ? entries : QList<RemoteFileInfo>());
    if (!error.isEmpty())
        setStatus(error);
    else if (!isBusy() && (m_status->text().isEmpty() || m_status->text() == m_countText)) {
        // The count of the folder shown now, not of the one before (a message of the
        // user's last action stays).
        m_countText = countOf(entries.size(), tr("entry"), tr("entries"));
        setStatus(m_countText);
    }
    updateButtons();
    Q_EMIT listed(error);
}

// A folder made, or one entry of a delete or download batch done: the batch goes on.
void ShareBrowser::requestFinished(int id, const QString &error)
{
    if (id != m_request)
        return;
    m_request = 0;
    const Kind kind = m_kind;
    m_kind = Kind::None;
    if (!error.isEmpty()) {
        m_lastError = error;
        if (kind != Kind::Folder && !m_done.isEmpty())
            m_done.removeLast();  // it was not done
    }
    switch (kind) {
    case Kind::Delete:
        startNextDeletion();
        break;
    case Kind::Download:
        startNextDownload();
        break;
    default:
        setStatus(error.isEmpty() ? m_done.value(0) : error);
        m_done.clear();
        m_lastError.clear();
        refresh();
        Q_EMIT changed();
        break;
    }
    updateButtons();
}

ShareBrowser::~ShareBrowser()
{
    if (m_uploadRequest)
        m_backend->cancelUpload(m_uploadRequest);
}

const Share *ShareBrowser::share() const
{
    return m_backend->snapshot().findShare(m_shareId);
}

void ShareBrowser::showShare(qint64 shareId, const QString &folder)
{
    if (!share() || shareId != m_shareId) {
        m_status->clear();
        m_openDownloads->setVisible(false);
    }
    // Only a new share or folder from outside moves the view: the user's own way through
    // the folders stays while snapshots come.
    const bool switched = shareId != m_shareId || folder != m_requested;
    m_shareId = shareId;
    m_requested = folder;
    if (!share()) {
        m_model->setEntries({});
        m_path->clear();
        updateButtons();
        return;
    }
    if (switched)
        openFolder(folder);
}

void ShareBrowser::openFolder(const QString &folder)
{
    m_folder = QDir::cleanPath(folder);
    if (m_folder == QLatin1String("."))
        m_folder.clear();
    const Share *s = share();
    m_path->setText(s ? (m_folder.isEmpty() ? tr("Share %1").arg(s->name) : tr("Share %1 / %2").arg(s->name, m_folder))
                      : QString());
    m_model->setEntries({});
    refresh();
}

void ShareBrowser::refresh()
{
    if (const Share *s = share())
        m_listRequest = m_worker->list(*s, m_folder);
    updateButtons();
}

QString ShareBrowser::pathOf(const QString &name) const
{
    return m_folder.isEmpty() ? name : m_folder + QLatin1Char('/') + name;
}

QStringList ShareBrowser::selectedNames(bool filesOnly) const
{
    QStringList names;
    for (const QModelIndex &index : m_view->selectionModel()->selectedRows()) {
        if (filesOnly && index.data(ShareFilesModel::IsFolderRole).toBool())
            continue;
        names << index.siblingAtColumn(ShareFilesModel::NameColumn).data().toString();
    }
    return names;
}

void ShareBrowser::setStatus(const QString &text)
{
    m_status->setText(text);
}

QString ShareBrowser::statusText() const
{
    return m_status->text();
}

bool ShareBrowser::isBusy() const
{
    return m_request || m_uploadRequest || !m_question.isNull();
}

void ShareBrowser::updateButtons()
{
    const bool ready = share() && !isBusy();
    const bool selected = m_view->selectionModel()->hasSelection();
    m_up->setEnabled(!m_folder.isEmpty());
    m_refresh->setEnabled(share());
    m_newFolder->setEnabled(ready);
    m_upload->setEnabled(ready);
    m_download->setEnabled(ready && !selectedNames(true).isEmpty());
    m_delete->setEnabled(ready && selected);
    m_progress->setVisible(m_request || m_uploadRequest);
    m_cancel->setVisible(m_uploadRequest || m_kind == Kind::Download);
}

void ShareBrowser::makeFolder(const QString &name)
{
    const Share *s = share();
    if (!s || isBusy())
        return;
    m_lastError.clear();
    m_done = QStringList{tr("Made folder %1.").arg(name)};  // the message when it succeeds
    m_kind = Kind::Folder;
    m_request = m_worker->makeFolder(*s, pathOf(name));
    m_progress->setRange(0, 0);
    setStatus(tr("Making folder %1…").arg(name));
    updateButtons();
}

void ShareBrowser::upload(const QStringList &localFiles)
{
    if (!share() || isBusy() || localFiles.isEmpty())
        return;
    m_uploadRequest = m_backend->uploadToShare(m_shareId, m_folder, localFiles);
    m_progress->setRange(0, 0);
    setStatus(tr("Uploading %1…").arg(countOf(localFiles.size(), tr("file"), tr("files"))));
    m_openDownloads->setVisible(false);
    updateButtons();
}

void ShareBrowser::deleteSelected()
{
    const Share *s = share();
    const QStringList names = selectedNames(false);
    if (!s || names.isEmpty() || isBusy())
        return;
    auto *box = new QMessageBox(QMessageBox::Warning, tr("Delete from share"),
                                names.size() == 1 ? tr("Delete %1 from share %2?").arg(names.first(), s->name)
                                                  : tr("Delete %1 entries from share %2?").arg(names.size()).arg(s->name),
                                QMessageBox::NoButton, this);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->setInformativeText((s->kind == ShareKind::Replicated ? tr("It is deleted on every node of the cluster. ")
                                                              : QString())
                            + tr("A folder goes with everything in it. This cannot be undone."));
    box->setDetailedText(names.join(QLatin1Char('\n')));
    QPushButton *remove = box->addButton(tr("&Delete"), QMessageBox::DestructiveRole);
    QPushButton *keep = box->addButton(QMessageBox::Cancel);
    box->setDefaultButton(keep);
    box->setEscapeButton(keep);
    connect(box, &QMessageBox::finished, this, [this, box, remove, names] {
        const bool confirmed = box->clickedButton() == remove;
        m_question.clear();
        if (confirmed) {
            m_toDelete.clear();
            for (const QString &name : names)
                m_toDelete << pathOf(name);
            m_done.clear();
            m_lastError.clear();
            startNextDeletion();
        }
        updateButtons();
    });
    m_question = box;
    box->open();
    updateButtons();
}

void ShareBrowser::startNextDeletion()
{
    const Share *s = share();
    if (m_toDelete.isEmpty() || !s) {
        QString text = m_done.isEmpty() ? QString() : tr("Deleted %1.").arg(m_done.join(QStringLiteral(", ")));
        if (!m_lastError.isEmpty())
            text += (text.isEmpty() ? QString() : QStringLiteral(" ")) + m_lastError;
        m_done.clear();
        m_toDelete.clear();
        m_lastError.clear();
        setStatus(text);
        refresh();
        Q_EMIT changed();
        return;
    }
    const QString next = m_toDelete.takeFirst();
    m_done << QFileInfo(next).fileName();
    m_progress->setRange(0, 0);
    m_kind = Kind::Delete;
    m_request = m_worker->deletePath(*s, next);
}

void ShareBrowser::downloadTo(const QString &localFolder)
{
    const Share *s = share();
    const QStringList names = selectedNames(true);
    if (!s || names.isEmpty() || isBusy())
        return;
    m_toDownload.clear();
    m_done.clear();
    m_lastError.clear();
    for (const QString &name : names) {
        const QString local = QDir(localFolder).filePath(name);
        m_toDownload.append({pathOf(name), QFileInfo::exists(local) ? DownloadPaths::freePathFor(local) : local});
    }
    m_downloadFolder = localFolder;
    m_openDownloads->setVisible(false);
    startNextDownload();
}

void ShareBrowser::startNextDownload()
{
    const Share *s = share();
    if (m_toDownload.isEmpty() || !s) {
        QString text = m_done.isEmpty() ? QString()
                                        : tr("Downloaded %1 to %2.").arg(m_done.join(QStringLiteral(", ")),
                                                                          QDir::toNativeSeparators(m_downloadFolder));
        if (!m_lastError.isEmpty())
            text += (text.isEmpty() ? QString() : QStringLiteral(" ")) + m_lastError;
        setStatus(text);
        m_openDownloads->setVisible(!m_done.isEmpty());
        m_toDownload.clear();
        m_done.clear();
        m_lastError.clear();
        updateButtons();
        return;
    }
    const auto [remote, local] = m_toDownload.takeFirst();
    const QString name = QFileInfo(remote).fileName();
    // A file already there is kept: this one gets a free name beside it, and the message says so.
    m_done << (QFileInfo(local).fileName() == name ? name : tr("%1 as %2").arg(name, QFileInfo(local).fileName()));
    m_progress->setRange(0, 0);
    m_kind = Kind::Download;
    m_request = m_worker->download(*s, remote, local);
    updateButtons();
}

bool ShareBrowser::eventFilter(QObject *watched, QEvent *event)
{
    if (watched != m_view->viewport())
        return QWidget::eventFilter(watched, event);
    switch (event->type()) {
    case QEvent::DragEnter:
    case QEvent::DragMove: {
        auto *drag = static_cast<QDropEvent *>(event);
        if (share() && !isBusy() && !localFilesOf(drag->mimeData()).isEmpty()) {
            drag->setDropAction(Qt::CopyAction);
            drag->accept();
        } else {
            drag->ignore();
        }
        return true;
    }
    case QEvent::Drop: {
        auto *drop = static_cast<QDropEvent *>(event);
        const QStringList files = localFilesOf(drop->mimeData());
        if (files.isEmpty())
            return false;
        drop->acceptProposedAction();
        upload(files);
        return true;
    }
    default:
        return QWidget::eventFilter(watched, event);
    }
}

} // namespace TrainDesk::Ui
