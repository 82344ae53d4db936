#pragma once

#include <QObject>
#include <QString>

#include <functional>

class QAction;
class QMenu;
class QWidget;

namespace TrainDesk {
class Backend;
}

namespace TrainDesk::Ui {

// File > Open TensorBoard folder... and File > Follow TensorBoard folders: a thin front over
// the core's TensorBoardImport (the same as `traindesk runs import DIR --watch`), through
// Backend::openTensorBoardFolder in the worker. The runs become runs of an experiment named
// after the folder, in the workspace chosen in the tree, and show in its Runs tab; while
// Follow is ticked, what the files grow by is read every 2 s and reaches the open charts.
// "Open TensorBoard folder on a cluster…" does the same for a folder on a node or a cluster's
// share (NodeFolderDialog), read there over SFTP by the worker, never on the GUI thread.
class TensorBoardFolderActions : public QObject
{
    Q_OBJECT

public:
    // `workspace` gives the name of the workspace the runs go to (the one chosen in the tree).
    TensorBoardFolderActions(Backend *backend, QWidget *window, std::function<QString()> workspace);

    void addTo(QMenu *menu);
    QAction *openAction() const { return m_open; }
    QAction *openOnNodeAction() const { return m_openOnNode; }
    QAction *followAction() const { return m_follow; }

private:
    void open();
    void openOnNode();

    Backend *m_backend;
    QWidget *m_window;
    std::function<QString()> m_workspace;
    QAction *m_open;
    QAction *m_openOnNode;
    QAction *m_follow;
    int m_pending = 0;
};

} // namespace TrainDesk::Ui
