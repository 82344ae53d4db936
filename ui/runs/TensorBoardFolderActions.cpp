#include "TensorBoardFolderActions.h"

#include "NodeFolderDialog.h"

#include "common/FileDialogs.h"
#include "session/Backend.h"

#include <QAction>
#include <QMainWindow>
#include <QMenu>
#include <QMessageBox>
#include <QStatusBar>

namespace TrainDesk::Ui {

TensorBoardFolderActions::TensorBoardFolderActions(Backend *backend, QWidget *window, std::function<QString()> workspace)
    : QObject(window), m_backend(backend), m_window(window), m_workspace(std::move(workspace))
{
    m_open = new QAction(tr("Open &TensorBoard folder…"), this);
    m_open->setObjectName(QStringLiteral("openTensorBoardFolderAction"));
    m_open->setToolTip(tr("Show the runs of a folder of TensorBoard event files as runs of an experiment, read in place"));
    connect(m_open, &QAction::triggered, this, &TensorBoardFolderActions::open);
    m_openOnNode = new QAction(tr("Open TensorBoard folder on a c&luster…"), this);
    m_openOnNode->setObjectName(QStringLiteral("openTensorBoardFolderOnNodeAction"));
    m_openOnNode->setToolTip(tr("The same for a folder on a cluster's node or share, read there over SFTP"));
    connect(m_openOnNode, &QAction::triggered, this, &TensorBoardFolderActions::openOnNode);
    m_follow = new QAction(tr("&Follow TensorBoard folders"), this);
    m_follow->setObjectName(QStringLiteral("followTensorBoardFoldersAction"));
    m_follow->setCheckable(true);
    m_follow->setChecked(true);
    m_follow->setToolTip(tr("Read what the opened folders' event files grow by, every 2 seconds"));
    connect(m_follow, &QAction::toggled, this, [this](bool on) {
        if (!on)
            m_backend->stopFollowingTensorBoardFolders();
    });
    connect(m_backend, &Backend::requestFinished, this, [this](int id, qint64, const QString &error) {
        if (id != m_pending)
            return;
        m_pending = 0;
        if (!error.isEmpty())
            QMessageBox::warning(m_window, tr("Open TensorBoard folder"), error);
    });
    connect(m_backend, &Backend::tensorBoardFolderRead, this,
            [this](const QString &, const QString &summary, const QStringList &problems) {
        if (auto *main = qobject_cast<QMainWindow *>(m_window))
            main->statusBar()->showMessage(summary, 10000);
        if (problems.isEmpty())
            return;
        // Damaged records, folders that could not be read: each named with its file.
        QStringList shown = problems.mid(0, 20);
        if (problems.size() > shown.size())
            shown << tr("… and %n more", nullptr, int(problems.size() - shown.size()));
        QMessageBox::warning(m_window, tr("Open TensorBoard folder"), summary + QStringLiteral("\n\n") + shown.join(QLatin1Char('\n')));
    });
}

void TensorBoardFolderActions::addTo(QMenu *menu)
{
    menu->addAction(m_open);
    menu->addAction(m_openOnNode);
    menu->addAction(m_follow);
}

void TensorBoardFolderActions::open()
{
    const QString folder = FileDialogs::existingDirectory(m_window, QStringLiteral("tensorboard-folder"),
                                                          tr("Open TensorBoard folder"));
    if (folder.isEmpty())
        return;
    m_pending = m_backend->openTensorBoardFolder(m_workspace(), folder, m_follow->isChecked());
}

void TensorBoardFolderActions::openOnNode()
{
    const QString workspace = m_workspace();
    auto *dialog = new NodeFolderDialog(m_backend->snapshot(), workspace, m_window);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::accepted, this, [this, dialog, workspace] {
        const NodeFolderDialog::Choice c = dialog->choice();
        // The login and the reading happen in the worker: a node that does not answer holds
        // neither the menu nor the window (its failure comes back as the request's error).
        if (auto *main = qobject_cast<QMainWindow *>(m_window))
            main->statusBar()->showMessage(tr("Opening %1 over SFTP…").arg(c.folder.isEmpty() ? c.share : c.folder));
        m_pending = m_backend->openTensorBoardFolder(workspace, c.folder, m_follow->isChecked(), c.cluster, c.node, c.share);
    });
    dialog->open();
}

} // namespace TrainDesk::Ui

