#pragma once

#include <QDialog>

class QComboBox;
class QDialogButtonBox;
class QLabel;
class QLineEdit;

namespace TrainDesk {
struct ResourceSnapshot;
}

namespace TrainDesk::Ui {

// File > Open TensorBoard folder on a cluster…: where a folder of event files is that is not on
// this machine, a node of one of the workspace's clusters or a cluster's share, and its path
// there. The folder is then read over SFTP where it is (Backend::openTensorBoardFolder), as
// `traindesk runs import --cluster C --node N DIR` / `--share S PATH` reads it.
class NodeFolderDialog : public QDialog
{
    Q_OBJECT

public:
    // The places of workspace `workspace` in `snapshot`: every node of its clusters that are
    // reached over SSH, and its cluster and replicated shares.
    NodeFolderDialog(const ResourceSnapshot &snapshot, const QString &workspace, QWidget *parent);

    struct Choice
    {
        QString cluster;
        QString node;
        QString share;   // set: `folder` is a path in this share
        QString folder;
    };
    Choice choice() const;

private:
    void update();

    QComboBox *m_place;
    QLineEdit *m_folder;
    QLabel *m_hint;
    QDialogButtonBox *m_buttons;
};

} // namespace TrainDesk::Ui
