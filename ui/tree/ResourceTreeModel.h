#pragma once

#include "session/ResourceSnapshot.h"

#include <QAbstractItemModel>
#include <QIcon>

#include <memory>
#include <vector>

namespace TrainDesk::Ui {

// Workspaces > (Experiments > (Sweeps > their trials' jobs, Jobs), Clusters > Nodes, Shares),
// built from a snapshot.
// setSnapshot() updates rows in place by a stable key (e.g. "job:12"), so views keep their
// selection and expanded branches while jobs change state.
class ResourceTreeModel : public QAbstractItemModel
{
    Q_OBJECT

public:
    enum class Kind { Workspace, ExperimentGroup, Experiment, Job, ClusterGroup, Cluster, Node, ShareGroup, Share, ShareFolder, Sweep };
    Q_ENUM(Kind)
    enum Role { KindRole = Qt::UserRole + 1, IdRole, KeyRole };
    enum Column { NameColumn, StateColumn, ColumnCount };

    explicit ResourceTreeModel(QObject *parent = nullptr);
    ~ResourceTreeModel() override;

    void setSnapshot(const ResourceSnapshot &snapshot);

    QModelIndex indexForKey(const QString &key) const;
    static QString keyFor(Kind kind, qint64 id);
    // A folder of a share has no id of its own: its share's id (IdRole) and its name.
    static QString folderKey(qint64 shareId, const QString &folder);

    QModelIndex index(int row, int column, const QModelIndex &parent = {}) const override;
    QModelIndex parent(const QModelIndex &child) const override;
    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    struct Fields
    {
        Kind kind = Kind::Workspace;
        qint64 id = 0;
        QString key;
        QString name;
        QString state;
        QString toolTip;
        QIcon icon;
        bool operator==(const Fields &o) const
        {
            return kind == o.kind && id == o.id && key == o.key && name == o.name && state == o.state
                && toolTip == o.toolTip && icon.cacheKey() == o.icon.cacheKey();
        }
    };
    struct Spec
    {
        Fields fields;
        std::vector<Spec> children;
    };
    struct Item
    {
        Fields fields;
        Item *parent = nullptr;
        std::vector<std::unique_ptr<Item>> children;
        int row() const;
    };

    static std::vector<Spec> specsFrom(const ResourceSnapshot &snapshot);
    void sync(Item *parent, const std::vector<Spec> &specs);
    QModelIndex indexOf(const Item *item, int column = 0) const;
    Item *itemAt(const QModelIndex &index) const;

    Item m_root;
};

} // namespace TrainDesk::Ui
