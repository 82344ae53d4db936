#pragma once

#include "store/Entities.h"

#include <QMessageBox>
#include <QPointer>
#include <QWidget>

class QLabel;

class QProgressBar;
class QPushButton;
class QSortFilterProxyModel;
class QTreeView;

namespace TrainDesk {
class Backend;
class ShareWorker;
struct RemoteFileInfo;
}

namespace TrainDesk::Ui {

class ShareFilesModel;

// The files of a share, of any kind (local, cluster, replicated), one folder at a time:
// names, sizes and dates; open a folder, go up; upload (the button or files dropped on the
// list), download, new folder, delete after a confirmation. Listing, folders, deletes and
// downloads run in a ShareWorker's pool; uploads through the Backend like the Upload
// wizard's. Downloads never replace a file: a name already there gets " (2)".
class ShareBrowser : public QWidget
{
    Q_OBJECT

public:
    ShareBrowser(Backend *backend, const QString &databasePath, QWidget *parent = nullptr);
    ~ShareBrowser() override;

    // Shows `folder` ("" the share's own) of share `shareId`; lists it again when it is
    // another one. Call again on every snapshot (a deleted share empties the view).
    void showShare(qint64 shareId, const QString &folder = {});
    void openFolder(const QString &folder);
    void refresh();
    QString folder() const { return m_folder; }

    // The actions behind the buttons, for the keyboard, tests and drops.
    void makeFolder(const QString &name);
    void upload(const QStringList &localFiles);
    void downloadTo(const QString &localFolder);  // the selected files
    // Asks, then deletes the selected entries (the question stays open: question()).
    void deleteSelected();
    QMessageBox *question() const { return m_question; }

    ShareFilesModel *model() const { return m_model; }
    QTreeView *view() const { return m_view; }
    QString statusText() const;
    bool isBusy() const;

Q_SIGNALS:
    // A listing arrived (error empty) or failed.
    void listed(const QString &error);
    // A folder made, entries deleted, files uploaded or downloaded: the tree may change.
    void changed();

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    // The constructor's steps.
    void setUpWidgets();
    void layOut();
    void connectButtons();
    void connectWorker();
    void connectUploads();
    void showListing(int id, const QList<RemoteFileInfo> &entries, const QString &error);
    void requestFinished(int id, const QString &error);

    const Share *share() const;
    QStringList selectedNames(bool filesOnly) const;
    QString pathOf(const QString &name) const;
    void setStatus(const QString &text);
    void updateButtons();
    void startNextDeletion();
    void startNextDownload();

    Backend *m_backend;
    ShareWorker *m_worker;
    qint64 m_shareId = 0;
    QString m_folder;
    QString m_requested;  // the folder showShare() was given last
    ShareFilesModel *m_model;
    QSortFilterProxyModel *m_proxy;
    QTreeView *m_view;
    QLabel *m_path;
    QPushButton *m_up;
    QPushButton *m_refresh;
    QPushButton *m_newFolder;
    QPushButton *m_upload;
    QPushButton *m_download;
    QPushButton *m_delete;
    QPushButton *m_cancel;
    QPushButton *m_openDownloads;
    QProgressBar *m_progress;
    QLabel *m_status;
    QPointer<QMessageBox> m_question;
    int m_listRequest = 0;
    enum class Kind { None, Folder, Delete, Download };
    int m_request = 0;       // the folder, delete or download running
    Kind m_kind = Kind::None;
    int m_uploadRequest = 0;
    QStringList m_toDelete;  // paths in the share, deleted one after another
    QList<QPair<QString, QString>> m_toDownload;  // (path in the share, local file)
    QStringList m_done;      // what the running batch did, for its message
    QString m_downloadFolder;  // of the last download, for "Open folder"
    QString m_lastError;
    QString m_countText;  // the status when it is the last listing's count
};

} // namespace TrainDesk::Ui
