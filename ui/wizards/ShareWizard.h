#pragma once

#include <QWizard>

namespace TrainDesk {
class Backend;
}

namespace TrainDesk::Ui {

class SharePage;
class UploadPage;

// New share / Upload: a local share (a folder of this machine that every job sees at
// $AZ_BATCHAI_JOB_MOUNT_ROOT/<name>) made or chosen, then files copied into a folder of
// it with progress and Cancel. Both happen in the Backend's worker.
class ShareWizard : public QWizard
{
    Q_OBJECT

public:
    enum PageId { SharePageId, UploadPageId };

    explicit ShareWizard(Backend *backend, QWidget *parent = nullptr);

    // Upload into a share that exists: starts on the upload page.
    void startUpload(qint64 shareId, const QString &folder = {});
    void presetWorkspace(qint64 workspaceId);

    SharePage *sharePage() const { return m_share; }
    UploadPage *uploadPage() const { return m_upload; }

    void reject() override;

Q_SIGNALS:
    // The tree key of what to show: the share, or the folder uploaded into.
    void finishedWith(const QString &treeKey);

private:
    SharePage *m_share;
    UploadPage *m_upload;
};

} // namespace TrainDesk::Ui
