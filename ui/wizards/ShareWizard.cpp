#include "ShareWizard.h"
#include "common/ScreenFit.h"

#include "SharePage.h"
#include "UploadPage.h"
#include "common/Icons.h"
#include "tree/ResourceTreeModel.h"

namespace TrainDesk::Ui {

ShareWizard::ShareWizard(Backend *backend, QWidget *parent)
    : QWizard(parent), m_share(new SharePage(backend, this)), m_upload(new UploadPage(backend, this))
{
    setObjectName(QStringLiteral("shareWizard"));
    setWindowTitle(tr("Share"));
    setWindowIcon(appIcon(QStringLiteral("new-share")));
    setPage(SharePageId, m_share);
    setPage(UploadPageId, m_upload);
    setOption(QWizard::NoBackButtonOnStartPage);
    ScreenFit::resizeWithin(this, {680, 480});
    connect(this, &QWizard::accepted, this, [this] {
        const QString folder = m_upload->uploadedFolder();
        Q_EMIT finishedWith(folder.isEmpty() ? ResourceTreeModel::keyFor(ResourceTreeModel::Kind::Share, m_share->shareId())
                                             : ResourceTreeModel::folderKey(m_share->shareId(), folder));
    });
}

void ShareWizard::startUpload(qint64 shareId, const QString &folder)
{
    m_share->selectShare(shareId);
    m_upload->setFolder(folder);
    setStartId(UploadPageId);
}

void ShareWizard::presetWorkspace(qint64 workspaceId)
{
    m_share->presetWorkspace(workspaceId);
}

void ShareWizard::reject()
{
    // Closing stops a copy under way (the worker removes its partial file).
    m_upload->cancelUpload();
    QWizard::reject();
}

} // namespace TrainDesk::Ui
