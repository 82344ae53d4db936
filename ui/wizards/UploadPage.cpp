#include "UploadPage.h"
#include "common/FileDialogs.h"

#include "SharePage.h"
#include "ShareWizard.h"
#include "common/Icons.h"
#include "common/StateStyle.h"
#include "session/Backend.h"

#include <QAction>
#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QProgressBar>
#include <QPushButton>
#include <QVBoxLayout>
#include <QWizard>

#include <utility>

namespace TrainDesk::Ui {

UploadPage::UploadPage(Backend *backend, QWidget *parent)
    : QWizardPage(parent),
      m_backend(backend),
      m_folder(new QComboBox(this)),
      m_files(new QListWidget(this)),
      m_add(new QPushButton(tr("&Add files…"), this)),
      m_remove(new QPushButton(tr("&Remove"), this)),
      m_upload(new QPushButton(appIcon(QStringLiteral("upload")), tr("&Upload"), this)),
      m_cancel(new QPushButton(tr("S&top"), this)),
      m_progress(new QProgressBar(this)),
      m_status(new QLabel(this))
{
    setUpWidgets();
    layOut();
    connectButtons();
    connect(m_backend, &Backend::uploadProgress, this, [this](int id, qint64 done, qint64 total, const QString &file) {
        if (id != m_request)
            return;
        m_progress->setValue(total > 0 ? int(done * 1000 / total) : 1000);
        m_progress->setFormat(tr("%1: %2 of %3").arg(file, formatBytes(done), formatBytes(total)));
    });
    connect(m_backend, &Backend::uploadFinished, this, &UploadPage::showUploaded);
    updateButtons();
}

void UploadPage::setUpWidgets()
{
    setTitle(tr("Upload"));
    setSubTitle(tr("Copy files into a folder of the share, e.g. the training script into cifar. "
                   "Jobs find them at $AZ_BATCHAI_JOB_MOUNT_ROOT/<share>/<folder>."));
    m_folder->setEditable(true);
    m_folder->setObjectName(QStringLiteral("folderCombo"));
    m_folder->setToolTip(tr("A folder of the share (made when missing); empty: the share's top"));
    m_folder->lineEdit()->setPlaceholderText(tr("e.g. cifar"));
    m_files->setObjectName(QStringLiteral("fileList"));
    m_upload->setObjectName(QStringLiteral("uploadButton"));
    m_cancel->setObjectName(QStringLiteral("stopUploadButton"));
    m_files->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_files->setToolTip(tr("The files to copy; Delete removes the selected ones"));
    m_add->setToolTip(tr("Choose files of this computer to copy"));
    m_upload->setToolTip(tr("Copy the files into the folder now"));
    m_cancel->setToolTip(tr("Stop the copy: the file being copied is removed, those done stay"));
    m_progress->setRange(0, 1000);
    m_progress->setValue(0);
    m_progress->setTextVisible(true);
    m_status->setWordWrap(true);
    m_status->setObjectName(QStringLiteral("uploadStatus"));
}

void UploadPage::layOut()
{
    auto *folderLabel = new QLabel(tr("F&older:"), this);
    folderLabel->setBuddy(m_folder);
    auto *filesLabel = new QLabel(tr("F&iles:"), this);
    filesLabel->setBuddy(m_files);
    auto *fileButtons = new QVBoxLayout;
    fileButtons->addWidget(m_add);
    fileButtons->addWidget(m_remove);
    fileButtons->addStretch();
    auto *filesRow = new QHBoxLayout;
    filesRow->addWidget(m_files, 1);
    filesRow->addLayout(fileButtons);
    auto *form = new QFormLayout;
    form->addRow(folderLabel, m_folder);
    form->addRow(filesLabel, filesRow);
    auto *progressRow = new QHBoxLayout;
    progressRow->addWidget(m_upload);
    progressRow->addWidget(m_progress, 1);
    progressRow->addWidget(m_cancel);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form, 1);
    layout->addLayout(progressRow);
    layout->addWidget(m_status);
    setTabOrder(m_folder, m_files);
    setTabOrder(m_files, m_add);
    setTabOrder(m_add, m_remove);
    setTabOrder(m_remove, m_upload);
    setTabOrder(m_upload, m_cancel);
}

// Add and remove files (Delete too), upload, stop.
void UploadPage::connectButtons()
{
    connect(m_add, &QPushButton::clicked, this, [this] {
        addFiles(FileDialogs::openFileNames(this, QStringLiteral("upload"), tr("Files to upload")));
    });
    const auto removeSelected = [this] {
        qDeleteAll(m_files->selectedItems());
        updateButtons();
    };
    connect(m_remove, &QPushButton::clicked, this, removeSelected);
    auto *deleteAction = new QAction(this);
    deleteAction->setShortcut(QKeySequence::Delete);
    deleteAction->setShortcutContext(Qt::WidgetShortcut);
    m_files->addAction(deleteAction);
    connect(deleteAction, &QAction::triggered, this, removeSelected);
    connect(m_files, &QListWidget::itemSelectionChanged, this, &UploadPage::updateButtons);
    connect(m_upload, &QPushButton::clicked, this, &UploadPage::startUpload);
    connect(m_cancel, &QPushButton::clicked, this, &UploadPage::cancelUpload);
}

void UploadPage::showUploaded(int id, int copied, const QString &error)
{
    if (id != m_request)
        return;
    m_request = 0;
    const bool finish = std::exchange(m_finishAfterUpload, false);
    if (error.isEmpty()) {
        m_progress->setValue(1000);
        m_progress->setFormat(tr("done"));
        m_status->setText(tr("Copied %1 into %2.").arg(countOf(copied, tr("file"), tr("files")),
                                                        folder().isEmpty() ? tr("the share") : folder()));
        m_files->clear();
        m_uploadedFolder = folder();
    } else {
        m_status->setText(error);
    }
    updateButtons();
    Q_EMIT completeChanged();
    Q_EMIT uploadFinished(copied, error);
    if (finish && error.isEmpty() && wizard())
        wizard()->accept();
}

qint64 UploadPage::shareId() const
{
    auto *w = qobject_cast<ShareWizard *>(wizard());
    return w ? w->sharePage()->shareId() : 0;
}

void UploadPage::initializePage()
{
    const QString current = folder();
    m_folder->clear();
    m_folder->addItems(m_backend->snapshot().shareFolders.value(shareId()));
    m_folder->setEditText(current);
    m_progress->setValue(0);
    m_progress->setFormat(QStringLiteral("%p%"));
    updateButtons();
}

void UploadPage::cleanupPage()
{
    cancelUpload();
    QWizardPage::cleanupPage();
}

bool UploadPage::isComplete() const
{
    return !isUploading();
}

bool UploadPage::validatePage()
{
    // Files listed but not copied are what the user asked for: Finish copies them first.
    if (m_files->count() == 0)
        return true;
    if (!isUploading()) {
        m_finishAfterUpload = true;
        startUpload();
    }
    return false;
}

void UploadPage::setFolder(const QString &folder)
{
    m_folder->setEditText(folder);
}

QString UploadPage::folder() const
{
    return m_folder->currentText().trimmed();
}

void UploadPage::addFiles(const QStringList &files)
{
    for (const QString &file : files) {
        if (file.isEmpty() || !m_files->findItems(file, Qt::MatchExactly).isEmpty())
            continue;
        auto *item = new QListWidgetItem(file, m_files);
        item->setToolTip(file);
    }
    updateButtons();
}

QStringList UploadPage::files() const
{
    QStringList list;
    for (int i = 0; i < m_files->count(); ++i)
        list << m_files->item(i)->text();
    return list;
}

void UploadPage::startUpload()
{
    if (isUploading() || m_files->count() == 0 || !shareId())
        return;
    m_status->setText(tr("Copying…"));
    m_progress->setValue(0);
    m_request = m_backend->uploadToShare(shareId(), folder(), files());
    updateButtons();
    Q_EMIT completeChanged();
}

void UploadPage::cancelUpload()
{
    if (isUploading())
        m_backend->cancelUpload(m_request);
}

int UploadPage::progressValue() const
{
    return m_progress->value();
}

QString UploadPage::statusText() const
{
    return m_status->text();
}

void UploadPage::updateButtons()
{
    const bool busy = isUploading();
    m_folder->setEnabled(!busy);
    m_files->setEnabled(!busy);
    m_add->setEnabled(!busy);
    m_remove->setEnabled(!busy && !m_files->selectedItems().isEmpty());
    m_upload->setEnabled(!busy && m_files->count() > 0);
    m_cancel->setEnabled(busy);
}

} // namespace TrainDesk::Ui
