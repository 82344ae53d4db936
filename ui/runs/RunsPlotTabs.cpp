#include "RunsPlotTabs.h"

#include "RunsParameterTable.h"
#include "RunsTableModel.h"
#include "charts/ParallelCoordinatesPlot.h"
#include "charts/ParameterScatterPlot.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSignalBlocker>

namespace TrainDesk::Ui {

RunsPlotTabs::RunsPlotTabs(QWidget *chartsPage, QWidget *parent)
    : QTabWidget(parent),
      m_parallel(new ParallelCoordinatesPlot(this)),
      m_scatter(new ParameterScatterPlot(this)),
      m_corner(new QWidget(this)),
      m_metric(new QComboBox(m_corner)),
      m_parameterLabel(new QLabel(tr("Se&tting:"), m_corner)),
      m_parameter(new QComboBox(m_corner))
{
    setObjectName(QStringLiteral("runsPlotTabs"));
    setDocumentMode(true);
    m_parallel->setObjectName(QStringLiteral("runsParallel"));
    m_scatter->setObjectName(QStringLiteral("runsScatter"));
    m_metric->setObjectName(QStringLiteral("runsPlotMetric"));
    m_parameter->setObjectName(QStringLiteral("runsPlotParameter"));
    addTab(chartsPage, tr("Charts"));
    addTab(m_parallel, tr("Parallel coordinates"));
    addTab(m_scatter, tr("Setting vs metric"));
    setTabToolTip(ChartsTab, tr("The chosen runs' charts: the first in full, the others overlaid"));
    // Beside the tabs, not above the plots: the bottom keeps the charts' height.
    for (QComboBox *box : {m_metric, m_parameter}) {
        box->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        box->setMinimumContentsLength(10);
    }
    m_metric->setToolTip(tr("The metric the plots compare the runs by (a column of the table)"));
    m_parameter->setToolTip(tr("The setting along the scatter's horizontal axis"));
    auto *metricLabel = new QLabel(tr("&Metric:"), m_corner);
    metricLabel->setBuddy(m_metric);
    m_parameterLabel->setBuddy(m_parameter);
    auto *corner = new QHBoxLayout(m_corner);
    corner->setContentsMargins(4, 0, 0, 2);
    corner->addWidget(metricLabel);
    corner->addWidget(m_metric);
    corner->addWidget(m_parameterLabel);
    corner->addWidget(m_parameter);
    setCornerWidget(m_corner, Qt::TopRightCorner);
    connect(this, &QTabWidget::currentChanged, this, &RunsPlotTabs::updateCorner);
    connect(this, &QTabWidget::currentChanged, this, [this](int tab) {
        if (m_stale && tab != ChartsTab)
            rebuild();
    });
    // (rebuild() fills them with their signals blocked.)
    connect(m_metric, &QComboBox::currentIndexChanged, this, [this](int i) {
        if (i >= 0)
            setMetric(m_metric->itemData(i).toString());
    });
    connect(m_parameter, &QComboBox::currentIndexChanged, this, [this](int i) {
        if (i >= 0)
            setParameter(m_parameter->itemText(i));
    });
    updateCorner();
}

void RunsPlotTabs::updateCorner()
{
    m_corner->setVisible(currentIndex() != ChartsTab);
    m_parameterLabel->setVisible(currentIndex() == ScatterTab);
    m_parameter->setVisible(currentIndex() == ScatterTab);
}

void RunsPlotTabs::setRuns(const RunsTableModel *model, const QList<qint64> &jobIds, const QStringList &hiddenKeys,
                           const QString &what)
{
    m_model = model;
    m_jobIds = jobIds;
    m_hidden = hiddenKeys;
    m_what = what;
    if (currentIndex() == ChartsTab)
        m_stale = true;
    else
        rebuild();
}

const ParameterTable &RunsPlotTabs::table() const
{
    if (m_stale)
        const_cast<RunsPlotTabs *>(this)->rebuild();
    return m_table;
}

void RunsPlotTabs::setMetric(const QString &key)
{
    m_metricKey = key;
    rebuild();
}

QString RunsPlotTabs::metric() const
{
    return m_metric->currentData().toString();
}

void RunsPlotTabs::setParameter(const QString &name)
{
    m_parameterName = name;
    rebuild();
}

QString RunsPlotTabs::parameter() const
{
    return m_parameter->currentText();
}

void RunsPlotTabs::rebuild()
{
    m_stale = false;
    if (!m_model)
        return;
    const auto choices = RunsParameterTable::metricChoices(*m_model);
    const QString metric = std::any_of(choices.cbegin(), choices.cend(), [this](const auto &c) { return c.first == m_metricKey; })
                               ? m_metricKey : RunsParameterTable::defaultMetric(*m_model);
    {
        const QSignalBlocker block(m_metric);
        m_metric->clear();
        for (const auto &[key, header] : choices)
            m_metric->addItem(header, key);
        m_metric->setCurrentIndex(m_metric->findData(metric));
    }
    m_table = RunsParameterTable::of(*m_model, m_jobIds, metric, m_hidden);
    {
        const QSignalBlocker block(m_parameter);
        m_parameter->clear();
        m_parameter->addItems(m_table.parameters);
        m_parameter->setCurrentIndex(std::max(0, int(m_table.parameters.indexOf(m_parameterName))));
    }
    m_parallel->setTable(m_table);
    m_scatter->setTable(m_table);
    m_scatter->setParameter(std::max(0, m_parameter->currentIndex()));
    const QString tip = tr("The settings that differ between %1 against %2").arg(m_what, m_table.metric);
    setTabToolTip(ParallelTab, tip);
    setTabToolTip(ScatterTab, tip);
}

} // namespace TrainDesk::Ui
