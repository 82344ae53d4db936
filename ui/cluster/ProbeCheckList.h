#pragma once

#include "ProbeHints.h"

#include <QTreeWidget>

namespace TrainDesk::Ui {

// The checks of a connection test or a probe as they arrive: result, node, check, and the
// details with the GUI's hint, wrapped so that nothing is cut at the list's width. Also the
// host keys answered during the test, and plain lines (a setup task's steps).
class ProbeCheckList : public QTreeWidget
{
    Q_OBJECT

public:
    enum Column { ResultColumn, NodeColumn, CheckColumn, DetailsColumn };
    static constexpr int IdRole = Qt::UserRole;  // on CheckColumn: the check's id

    explicit ProbeCheckList(ProbePlace place, QWidget *parent = nullptr);

    QTreeWidgetItem *addCheck(const ProbeCheck &check);
    QTreeWidgetItem *addHostKey(const QString &nodes, const QString &keyType, const QString &fingerprint, bool accepted);
    QTreeWidgetItem *addLine(const QString &line);

private:
    ProbePlace m_place;
};

} // namespace TrainDesk::Ui
