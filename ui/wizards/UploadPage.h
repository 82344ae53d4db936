#pragma once

#include <QWizardPage>

class QComboBox;
class QLabel;
class QListWidget;
class QProgressBar;
class QPushButton;

namespace TrainDesk {
class Backend;
}

namespace TrainDesk::Ui {

// Files of this machine copied into a folder of the share, in the Backend's worker, with
// a progress bar and Cancel. Optional: Finish with no files keeps just the share; Finish
// with files listed but not yet copied copies them first and closes when they arrived
// (an error keeps the wizard open, with the files, to try again).
class UploadPage : public QWizardPage
{
    Q_OBJECT

public:
    explicit UploadPage(Backend *backend, QWidget *parent = nullptr);

    void initializePage() override;
    bool isComplete() const override;
    bool validatePage() override;
    void cleanupPage() override;

    void setFolder(const QString &folder);
    QString folder() const;
    void addFiles(const QStringList &files);
    QStringList files() const;
    void startUpload();
    void cancelUpload();
    bool isUploading() const { return m_request != 0; }
    int progressValue() const;  // per mille
    // The folder of the last upload that succeeded ("" before one).
    QString uploadedFolder() const { return m_uploadedFolder; }
    QString statusText() const;

    QComboBox *folderCombo() const { return m_folder; }
    QListWidget *fileList() const { return m_files; }
    QPushButton *uploadButton() const { return m_upload; }
    QPushButton *cancelButton() const { return m_cancel; }

Q_SIGNALS:
    void uploadFinished(int filesCopied, const QString &error);

private:
    // The constructor's steps.
    void setUpWidgets();
    void layOut();
    void connectButtons();
    void showUploaded(int id, int copied, const QString &error);

    qint64 shareId() const;
    void updateButtons();

    Backend *m_backend;
    QComboBox *m_folder;
    QListWidget *m_files;
    QPushButton *m_add;
    QPushButton *m_remove;
    QPushButton *m_upload;
    QPushButton *m_cancel;
    QProgressBar *m_progress;
    QLabel *m_status;
    int m_request = 0;
    bool m_finishAfterUpload = false;  // Finish was pressed with files still to copy
    QString m_uploadedFolder;
};

} // namespace TrainDesk::Ui
