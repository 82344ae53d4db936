#include "ResourceInfoView.h"

#include "cluster/ClusterSummary.h"
#include "common/StateStyle.h"

#include <QFormLayout>
#include <QLabel>
#include <QMap>
#include <QVBoxLayout>

namespace TrainDesk::Ui {

namespace {

QString jobCounts(const QList<Job> &jobs)
{
    QMap<int, int> counts;
    for (const Job &j : jobs)
        ++counts[int(j.state)];
    QStringList parts;
    for (auto it = counts.cbegin(); it != counts.cend(); ++it)
        parts << QStringLiteral("%1 %2").arg(it.value()).arg(toString(JobState(it.key())));
    return parts.isEmpty() ? ResourceInfoView::tr("none") : parts.join(QStringLiteral(", "));
}

} // namespace

ResourceInfoView::ResourceInfoView(QWidget *parent) : QTabWidget(parent), m_title(new QLabel), m_form(new QFormLayout)
{
    setDocumentMode(true);
    QFont font = m_title->font();
    font.setPointSizeF(font.pointSizeF() * 1.3);
    font.setBold(true);
    m_title->setFont(font);
    m_form->setLabelAlignment(Qt::AlignRight);
    auto *page = new QWidget;
    auto *layout = new QVBoxLayout(page);
    layout->addWidget(m_title);
    layout->addLayout(m_form);
    layout->addStretch();
    addTab(page, tr("Overview"));
}

void ResourceInfoView::setExtraTab(QWidget *page, const QString &label)
{
    if (page == m_extra) {
        if (page)
            setTabText(indexOf(page), label);
        return;
    }
    if (m_extra)
        removeTab(indexOf(m_extra));
    m_extra = page;
    if (page) {
        insertTab(0, page, label);
        setCurrentIndex(0);
    }
}

void ResourceInfoView::clearRows()
{
    while (m_form->rowCount() > 0)
        m_form->removeRow(0);
}

void ResourceInfoView::addRow(const QString &label, const QString &value)
{
    auto *field = new QLabel(value);
    field->setTextInteractionFlags(Qt::TextSelectableByMouse);
    field->setWordWrap(true);
    m_form->addRow(label + QLatin1Char(':'), field);
}

QStringList ResourceInfoView::rows() const
{
    QStringList result;
    for (int r = 0; r < m_form->rowCount(); ++r) {
        auto *label = qobject_cast<QLabel *>(m_form->itemAt(r, QFormLayout::LabelRole)->widget());
        auto *field = qobject_cast<QLabel *>(m_form->itemAt(r, QFormLayout::FieldRole)->widget());
        if (label && field)
            result << label->text() + QLatin1Char(' ') + field->text();
    }
    return result;
}

void ResourceInfoView::showResource(ResourceTreeModel::Kind kind, qint64 id, const ResourceSnapshot &snapshot,
                                    const QString &name)
{
    using Kind = ResourceTreeModel::Kind;
    clearRows();
    m_title->clear();
    switch (kind) {
    case Kind::Workspace:
    case Kind::ExperimentGroup:
    case Kind::ClusterGroup:
    case Kind::ShareGroup: {
        const ResourceSnapshot::WorkspaceEntry *ws = snapshot.findWorkspace(id);
        if (!ws)
            return;
        QList<Job> jobs;
        for (const auto &exp : ws->experiments)
            jobs += exp.jobs;
        m_title->setText(tr("Workspace %1").arg(ws->workspace.name));
        addRow(tr("Created"), formatTime(ws->workspace.created));
        addRow(tr("Experiments"), QString::number(ws->experiments.size()));
        addRow(tr("Jobs"), jobCounts(jobs));
        QStringList clusters;
        for (const auto &c : ws->clusters) {
            const ClusterSummary s = ClusterSummary::of(c);
            clusters << tr("%1 (%2: %3 idle, %4 running)").arg(s.name, s.state).arg(s.idle).arg(s.running);
        }
        addRow(tr("Clusters"), clusters.isEmpty() ? tr("none") : clusters.join(QStringLiteral("\n")));
        QStringList shares;
        for (const Share &s : ws->shares)
            shares << QStringLiteral("%1 (%2)").arg(s.name, toString(s.kind));
        addRow(tr("Shares"), shares.isEmpty() ? tr("none") : shares.join(QStringLiteral(", ")));
        return;
    }
    case Kind::Experiment: {
        const ResourceSnapshot::ExperimentEntry *exp = snapshot.findExperiment(id);
        if (!exp)
            return;
        m_title->setText(tr("Experiment %1").arg(exp->experiment.name));
        addRow(tr("Created"), formatTime(exp->experiment.created));
        addRow(tr("Jobs"), jobCounts(exp->jobs));
        return;
    }
    case Kind::Node:
        for (const auto &ws : snapshot.workspaces) {
            for (const auto &c : ws.clusters) {
                for (const Node &n : c.nodes) {
                    if (n.id != id)
                        continue;
                    const Job *job = snapshot.activeJobOnNode(c.cluster.id, n.name);
                    m_title->setText(tr("Node %1").arg(n.name));
                    addRow(tr("Cluster"), c.cluster.name);
                    addRow(tr("Role"), n.index == 0 ? tr("head node (rank 0)") : tr("worker %1").arg(n.index));
                    addRow(tr("Host"), n.port > 0 ? QStringLiteral("%1@%2:%3").arg(n.user, n.host).arg(n.port) : n.host);
                    addRow(tr("State"), toString(n.state));
                    if (!n.stateReason.isEmpty())
                        addRow(tr("Reason"), n.stateReason);
                    addRow(tr("MPI slots"), QString::number(n.slotCount));
                    addRow(tr("Current job"), job ? job->name : tr("none"));
                    addRow(tr("Last seen"), formatTime(n.lastSeen));
                    return;
                }
            }
        }
        return;
    case Kind::Share:
        if (const Share *s = snapshot.findShare(id)) {
            m_title->setText(tr("Share %1").arg(s->name));
            addRow(tr("Kind"), toString(s->kind));
            addRow(tr("Path"), s->path);
            addRow(tr("Created"), formatTime(s->created));
            addRow(tr("On the nodes"), tr("$AZ_BATCHAI_JOB_MOUNT_ROOT/%1").arg(s->name));
        }
        return;
    case Kind::ShareFolder:
        if (const Share *s = snapshot.findShare(id)) {
            m_title->setText(tr("Folder %1 of share %2").arg(name, s->name));
            addRow(tr("Share"), s->name);
            addRow(tr("Path"), s->path + QLatin1Char('/') + name);
            addRow(tr("On the nodes"), tr("$AZ_BATCHAI_JOB_MOUNT_ROOT/%1/%2").arg(s->name, name));
            addRow(tr("Upload"), tr("Upload to share… (Ctrl+U) copies files into it"));
        }
        return;
    case Kind::Cluster:
    case Kind::Job:
        return;  // their own views
    }
}

} // namespace TrainDesk::Ui
