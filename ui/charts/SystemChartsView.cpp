#include "SystemChartsView.h"

#include "ChartPanel.h"
#include "SystemSeries.h"

#include <QChart>
#include <QLabel>
#include <QLegend>
#include <QSplitter>
#include <QVBoxLayout>

namespace TrainDesk::Ui {

SystemChartsView::SystemChartsView(SystemSeries *series, QWidget *parent)
    : QWidget(parent),
      m_series(series),
      m_usage(new ChartPanel(tr("CPU and GPU use"), tr("%"), this)),
      m_memory(new ChartPanel(tr("Memory"), tr("GiB"), this)),
      m_network(new ChartPanel(tr("Network"), tr("MB/s"), this)),
      m_summary(new QLabel(this))
{
    setObjectName(QStringLiteral("systemCharts"));
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_summary->setWordWrap(true);
    auto *splitter = new QSplitter(Qt::Horizontal, this);
    for (ChartPanel *panel : {m_usage, m_memory, m_network}) {
        panel->setLinesOnly();
        panel->setXTitle(QString());  // its labels say h:mm:ss: the room goes to the plot
        panel->setXTimeLabels(true);
        // Short charts side by side: the legend small, so the plot keeps its height.
        QFont legendFont = panel->chart()->legend()->font();
        legendFont.setPointSizeF(legendFont.pointSizeF() * 0.85);
        panel->chart()->legend()->setFont(legendFont);
        splitter->addWidget(panel);
    }
    m_usage->setYLimits(0, 100);
    m_memory->setYLimits(0, 1e9);
    m_network->setYLimits(0, 1e9);
    // Use in percent on its whole scale; amounts from zero, so a small change looks small.
    m_usage->setYIncludes(0, 100);
    m_memory->setYIncludes(0, 0);
    m_network->setYIncludes(0, 0);
    splitter->setChildrenCollapsible(false);
    // Short charts cut their labels to "...": they keep this much of a small window.
    setMinimumHeight(fontMetrics().height() * 16);
    auto *layout = new QVBoxLayout(this);  // the margins of the charts above it
    layout->addWidget(m_summary);
    layout->addWidget(splitter, 1);
    connect(m_series, &SystemSeries::changed, this, &SystemChartsView::redraw);
    redraw();
}

QString SystemChartsView::summary() const
{
    return m_summary->text();
}

void SystemChartsView::redraw()
{
    m_usage->setData({}, {}, {}, false, m_series->usageLines());
    m_memory->setData({}, {}, {}, false, m_series->memoryLines());
    m_network->setData({}, {}, {}, false, m_series->networkLines());
    const QStringList nodes = m_series->nodes();
    m_summary->setText(nodes.isEmpty()
                           ? tr("No system metrics yet: while the job runs, its nodes are sampled every few seconds.")
                       : nodes.size() == 1 ? tr("System metrics of node %1").arg(nodes.first())
                                           : tr("System metrics of %1 nodes: %2").arg(nodes.size()).arg(nodes.join(QStringLiteral(", "))));
}

} // namespace TrainDesk::Ui
