#include "ResourceTreeModel.h"

#include "cluster/ClusterSummary.h"
#include "common/StateStyle.h"

#include <QApplication>
#include <QHash>
#include <QStyle>

#include <algorithm>
#include <functional>

namespace TrainDesk::Ui {

namespace {

QIcon standardIcon(QStyle::StandardPixmap pixmap)
{
    // The tree is built without a QApplication style in some tests (QCoreApplication).
    if (!qobject_cast<QApplication *>(QCoreApplication::instance()))
        return {};
    // Cached: a new QIcon each time would look like a change on every update.
    static QHash<int, QIcon> cache;
    auto it = cache.find(int(pixmap));
    if (it == cache.end())
        it = cache.insert(int(pixmap), QApplication::style()->standardIcon(pixmap));
    return *it;
}

} // namespace

int ResourceTreeModel::Item::row() const
{
    if (!parent)
        return 0;
    for (size_t i = 0; i < parent->children.size(); ++i) {
        if (parent->children[i].get() == this)
            return int(i);
    }
    return 0;
}

ResourceTreeModel::ResourceTreeModel(QObject *parent) : QAbstractItemModel(parent) {}

ResourceTreeModel::~ResourceTreeModel() = default;

QString ResourceTreeModel::keyFor(Kind kind, qint64 id)
{
    static const char *const prefixes[] = {"ws", "experiments", "exp", "job", "clusters", "cluster", "node", "shares", "share", "folder", "sweep"};
    return QStringLiteral("%1:%2").arg(QLatin1String(prefixes[int(kind)])).arg(id);
}

QString ResourceTreeModel::folderKey(qint64 shareId, const QString &folder)
{
    return keyFor(Kind::ShareFolder, shareId) + QLatin1Char('/') + folder;
}

std::vector<ResourceTreeModel::Spec> ResourceTreeModel::specsFrom(const ResourceSnapshot &snapshot)
{
    const QIcon folder = standardIcon(QStyle::SP_DirIcon);
    const QIcon computer = standardIcon(QStyle::SP_ComputerIcon);
    const QIcon drive = standardIcon(QStyle::SP_DriveNetIcon);
    std::vector<Spec> result;
    for (const ResourceSnapshot::WorkspaceEntry &ws : snapshot.workspaces) {
        Spec wsSpec{{Kind::Workspace, ws.workspace.id, keyFor(Kind::Workspace, ws.workspace.id), ws.workspace.name, {},
                     tr("Workspace %1").arg(ws.workspace.name), standardIcon(QStyle::SP_DirHomeIcon)}, {}};

        Spec experiments{{Kind::ExperimentGroup, ws.workspace.id, keyFor(Kind::ExperimentGroup, ws.workspace.id),
                          tr("Experiments"), QString::number(ws.experiments.size()), {}, folder}, {}};
        for (const ResourceSnapshot::ExperimentEntry &exp : ws.experiments) {
            int active = 0;
            for (const Job &j : exp.jobs)
                active += isActive(j.state) ? 1 : 0;
            Spec expSpec{{Kind::Experiment, exp.experiment.id, keyFor(Kind::Experiment, exp.experiment.id),
                          exp.experiment.name,
                          active ? tr("%1 running").arg(active) : countOf(exp.jobs.size(), tr("job"), tr("jobs")),
                          tr("Experiment %1").arg(exp.experiment.name), folder}, {}};
            // A sweep holds its trials' jobs; the experiment lists the others.
            QHash<qint64, int> trialOf;  // job id -> index in expSpec.children of its sweep
            for (const SweepSummary &sw : exp.sweeps) {
                const int done = sw.countIn({QStringLiteral("succeeded"), QStringLiteral("failed"), QStringLiteral("refused"),
                                             QStringLiteral("skipped"), QStringLiteral("deleted")});
                const QString state = sw.sweep.active() ? tr("%1/%2 trials").arg(done).arg(sw.trials.size())
                                                        : toString(sw.sweep.state);
                QString tip = tr("Sweep %1: %2, %3 trials").arg(sw.sweep.name, toString(sw.sweep.state)).arg(sw.trials.size());
                if (const TrialRow *best = sw.bestTrial())
                    tip += tr("\nBest: %1 (%2 %3)").arg(best->job, sw.sweep.metric).arg(*best->best, 0, 'g', 4);
                for (const TrialRow &t : sw.trials) {
                    if (t.jobId)
                        trialOf.insert(t.jobId, int(expSpec.children.size()));
                }
                expSpec.children.push_back({{Kind::Sweep, sw.sweep.id, keyFor(Kind::Sweep, sw.sweep.id), sw.sweep.name, state,
                                             tip, standardIcon(QStyle::SP_FileDialogDetailedView)}, {}});
            }
            for (const Job &j : exp.jobs) {
                QString tip = tr("Job %1: %2").arg(j.name, jobStateText(j));
                if (j.exitCode)
                    tip += tr(", exit code %1").arg(*j.exitCode);
                for (const JobError &e : j.errors)
                    tip += QStringLiteral("\n%1: %2").arg(e.code, e.message);
                // A retried job says which attempt it is on; a silent one says so first.
                const ResourceSnapshot::JobReliability r = snapshot.reliability.value(j.id);
                QString state = jobStateText(j);
                if (!r.attempts.isEmpty())
                    state = tr("%1, attempt %2").arg(state).arg(r.attempts.size() + 1);
                if (!r.silence.isEmpty()) {
                    state = tr("%1, silent").arg(state);
                    tip += QStringLiteral("\n") + r.silence;
                }
                Spec jobSpec{{Kind::Job, j.id, keyFor(Kind::Job, j.id), j.name, state, tip,
                              stateIcon(jobStateColor(j))}, {}};
                if (trialOf.contains(j.id))
                    expSpec.children[trialOf.value(j.id)].children.push_back(std::move(jobSpec));
                else
                    expSpec.children.push_back(std::move(jobSpec));
            }
            experiments.children.push_back(std::move(expSpec));
        }
        wsSpec.children.push_back(std::move(experiments));

        Spec clusters{{Kind::ClusterGroup, ws.workspace.id, keyFor(Kind::ClusterGroup, ws.workspace.id),
                       tr("Clusters"), QString::number(ws.clusters.size()), {}, folder}, {}};
        for (const ResourceSnapshot::ClusterEntry &c : ws.clusters) {
            const ClusterSummary summary = ClusterSummary::of(c);
            Spec cSpec{{Kind::Cluster, c.cluster.id, keyFor(Kind::Cluster, c.cluster.id), c.cluster.name, summary.state,
                        tr("Cluster %1: %2 idle, %3 running, %4 unusable")
                            .arg(c.cluster.name).arg(summary.idle).arg(summary.running).arg(summary.unusable),
                        computer}, {}};
            for (const Node &n : c.nodes) {
                QString tip = tr("Node %1 (%2): %3").arg(n.name, n.host, toString(n.state));
                if (!n.stateReason.isEmpty())
                    tip += QStringLiteral("\n") + n.stateReason;
                cSpec.children.push_back({{Kind::Node, n.id, keyFor(Kind::Node, n.id), n.name, toString(n.state), tip,
                                           stateIcon(stateColor(n.state))}, {}});
            }
            clusters.children.push_back(std::move(cSpec));
        }
        wsSpec.children.push_back(std::move(clusters));

        Spec shares{{Kind::ShareGroup, ws.workspace.id, keyFor(Kind::ShareGroup, ws.workspace.id), tr("Shares"),
                     QString::number(ws.shares.size()), {}, folder}, {}};
        for (const Share &s : ws.shares) {
            Spec shareSpec{{Kind::Share, s.id, keyFor(Kind::Share, s.id), s.name, toString(s.kind),
                            tr("Share %1 (%2): %3").arg(s.name, toString(s.kind), s.path), drive}, {}};
            for (const QString &folderName : snapshot.shareFolders.value(s.id)) {
                shareSpec.children.push_back({{Kind::ShareFolder, s.id, folderKey(s.id, folderName), folderName, {},
                                               tr("Folder %1 of share %2\nJobs see it at $AZ_BATCHAI_JOB_MOUNT_ROOT/%2/%1")
                                                   .arg(folderName, s.name),
                                               folder}, {}});
            }
            shares.children.push_back(std::move(shareSpec));
        }
        wsSpec.children.push_back(std::move(shares));
        result.push_back(std::move(wsSpec));
    }
    return result;
}

void ResourceTreeModel::setSnapshot(const ResourceSnapshot &snapshot)
{
    sync(&m_root, specsFrom(snapshot));
}

void ResourceTreeModel::sync(Item *parent, const std::vector<Spec> &specs)
{
    const QModelIndex parentIndex = indexOf(parent);
    // Rows that are gone first, then moves and inserts in order, then the fields: the
    // rows that stay keep their identity, so selection and expansion survive.
    for (int i = int(parent->children.size()) - 1; i >= 0; --i) {
        const QString &key = parent->children[i]->fields.key;
        const bool wanted = std::any_of(specs.begin(), specs.end(), [&](const Spec &s) { return s.fields.key == key; });
        if (!wanted) {
            beginRemoveRows(parentIndex, i, i);
            parent->children.erase(parent->children.begin() + i);
            endRemoveRows();
        }
    }
    for (int i = 0; i < int(specs.size()); ++i) {
        const Spec &spec = specs[i];
        auto &children = parent->children;
        if (i < int(children.size()) && children[i]->fields.key == spec.fields.key) {
            if (!(children[i]->fields == spec.fields)) {
                children[i]->fields = spec.fields;
                Q_EMIT dataChanged(index(i, 0, parentIndex), index(i, ColumnCount - 1, parentIndex));
            }
        } else {
            int found = -1;
            for (int j = i + 1; j < int(children.size()); ++j) {
                if (children[j]->fields.key == spec.fields.key) {
                    found = j;
                    break;
                }
            }
            if (found >= 0) {
                beginMoveRows(parentIndex, found, found, parentIndex, i);
                std::unique_ptr<Item> moved = std::move(children[found]);
                children.erase(children.begin() + found);
                children.insert(children.begin() + i, std::move(moved));
                endMoveRows();
                if (!(children[i]->fields == spec.fields)) {
                    children[i]->fields = spec.fields;
                    Q_EMIT dataChanged(index(i, 0, parentIndex), index(i, ColumnCount - 1, parentIndex));
                }
            } else {
                beginInsertRows(parentIndex, i, i);
                auto item = std::make_unique<Item>();
                item->fields = spec.fields;
                item->parent = parent;
                children.insert(children.begin() + i, std::move(item));
                endInsertRows();
            }
        }
        sync(children[i].get(), spec.children);
    }
}

QModelIndex ResourceTreeModel::indexOf(const Item *item, int column) const
{
    if (!item || item == &m_root)
        return {};
    return createIndex(item->row(), column, const_cast<Item *>(item));
}

ResourceTreeModel::Item *ResourceTreeModel::itemAt(const QModelIndex &index) const
{
    return index.isValid() ? static_cast<Item *>(index.internalPointer()) : const_cast<Item *>(&m_root);
}

QModelIndex ResourceTreeModel::indexForKey(const QString &key) const
{
    std::function<const Item *(const Item *)> find = [&](const Item *item) -> const Item * {
        for (const auto &child : item->children) {
            if (child->fields.key == key)
                return child.get();
            if (const Item *found = find(child.get()))
                return found;
        }
        return nullptr;
    };
    return indexOf(find(&m_root));
}

QModelIndex ResourceTreeModel::index(int row, int column, const QModelIndex &parent) const
{
    if (!hasIndex(row, column, parent))
        return {};
    const Item *p = itemAt(parent);
    return createIndex(row, column, p->children[row].get());
}

QModelIndex ResourceTreeModel::parent(const QModelIndex &child) const
{
    if (!child.isValid())
        return {};
    return indexOf(itemAt(child)->parent);
}

int ResourceTreeModel::rowCount(const QModelIndex &parent) const
{
    if (parent.column() > 0)
        return 0;
    return int(itemAt(parent)->children.size());
}

int ResourceTreeModel::columnCount(const QModelIndex &) const
{
    return ColumnCount;
}

QVariant ResourceTreeModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const Fields &f = itemAt(index)->fields;
    switch (role) {
    case Qt::DisplayRole:
        return index.column() == NameColumn ? f.name : f.state;
    case Qt::DecorationRole:
        return index.column() == NameColumn && !f.icon.isNull() ? QVariant(f.icon) : QVariant();
    case Qt::ToolTipRole:
        return f.toolTip.isEmpty() ? QVariant() : QVariant(f.toolTip);
    case KindRole:
        return QVariant::fromValue(f.kind);
    case IdRole:
        return f.id;
    case KeyRole:
        return f.key;
    default:
        return {};
    }
}

QVariant ResourceTreeModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    return section == NameColumn ? tr("Name") : tr("State");
}

} // namespace TrainDesk::Ui
