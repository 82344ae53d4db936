#pragma once

#include "session/ResourceSnapshot.h"
#include "tree/ResourceTreeModel.h"

#include <QTabWidget>

class QFormLayout;
class QLabel;

namespace TrainDesk::Ui {

// The facts of a workspace, experiment, node, share or group folder as label/value rows.
class ResourceInfoView : public QTabWidget
{
    Q_OBJECT

public:
    explicit ResourceInfoView(QWidget *parent = nullptr);

    // `name`: the folder's, for a share folder (its id is its share's).
    void showResource(ResourceTreeModel::Kind kind, qint64 id, const ResourceSnapshot &snapshot,
                      const QString &name = {});
    // A page of the resource's besides the facts (the runs table, a share's files), shown
    // first; nullptr removes it. The page stays its owner's.
    void setExtraTab(QWidget *page, const QString &label);
    QWidget *extraTab() const { return m_extra; }
    // The rows shown, as "label: value" lines (for tests and copy).
    QStringList rows() const;

private:
    void addRow(const QString &label, const QString &value);
    void clearRows();

    QLabel *m_title;
    QFormLayout *m_form;
    QWidget *m_extra = nullptr;
};

} // namespace TrainDesk::Ui
