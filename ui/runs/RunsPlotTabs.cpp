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
        if ((m_stale || m_modelChanged) && tab != ChartsTab)
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
    // The model changed under the plots: made again once its signal has reached everyone.
    m_refresh.setSingleShot(true);
    m_refresh.setInterval(0);
    connect(&m_refresh, &QTimer::timeout, this, [this] {
        if (!m_modelChanged)
            return;
        if (currentIndex() == ChartsTab)
            m_stale = true;  // (m_modelChanged stays: table() and setMetric() make it first)
        else
            rebuild();
    });
    // A run's line or dot clicked: its id, for the runs view to choose it.
    auto clicked = [this](int row) {
        if (row >= 0 && row < m_table.rows.size())
            Q_EMIT runClicked(m_table.rows.at(row).id);
    };
    connect(m_parallel, &ParallelCoordinatesPlot::rowClicked, this, clicked);
    connect(m_scatter, &ParameterScatterPlot::rowClicked, this, clicked);
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
    const bool same = model == m_model && jobIds == m_jobIds && hiddenKeys == m_hidden && !m_modelChanged;
    watch(model);
    m_model = model;
    m_jobIds = jobIds;
    m_hidden = hiddenKeys;
    m_what = what;
    if (same) {
        updateTips();  // the same runs and values (a run chosen, a tag edited): the same plots
        return;
    }
    if (currentIndex() == ChartsTab)
        m_stale = true;
    else
        rebuild();
}

void RunsPlotTabs::watch(const RunsTableModel *model)
{
    if (model == m_model)
        return;
    m_settingsStale = true;
    if (m_model)
        disconnect(m_model, nullptr, this, nullptr);
    if (!model)
        return;
    // Any change but to tags and notes (columns the plots do not read).
    connect(model, &QAbstractItemModel::dataChanged, this, [this](const QModelIndex &from, const QModelIndex &to) {
        if (from.column() >= RunsTableModel::TagsColumn && to.column() <= RunsTableModel::NoteColumn)
            return;
        modelChanged();
    });
    connect(model, &QAbstractItemModel::modelReset, this, &RunsPlotTabs::modelChanged);
    connect(model, &QAbstractItemModel::layoutChanged, this, &RunsPlotTabs::modelChanged);
    connect(model, &QAbstractItemModel::rowsInserted, this, &RunsPlotTabs::modelChanged);
    connect(model, &QAbstractItemModel::rowsRemoved, this, &RunsPlotTabs::modelChanged);
    connect(model, &QAbstractItemModel::columnsInserted, this, &RunsPlotTabs::modelChanged);
    connect(model, &QAbstractItemModel::columnsRemoved, this, &RunsPlotTabs::modelChanged);
}

void RunsPlotTabs::modelChanged()
{
    m_modelChanged = true;
    m_settingsStale = true;
    m_refresh.start();
}

const ParameterTable &RunsPlotTabs::table() const
{
    if (m_stale || m_modelChanged)
        const_cast<RunsPlotTabs *>(this)->rebuild();
    return m_table;
}

void RunsPlotTabs::setMetric(const QString &key)
{
    m_metricKey = key;
    if (m_stale || m_modelChanged || !m_model) {
        rebuild();
        return;
    }
    // The same runs against another metric: their settings and axes are kept.
    const QString metric = chosenMetric();
    {
        const QSignalBlocker block(m_metric);
        m_metric->setCurrentIndex(m_metric->findData(metric));
    }
    RunsParameterTable::setMetric(m_table, *m_model, metric);
    m_parallel->setTable(m_table);
    m_scatter->setTable(m_table);
    updateTips();
}

QString RunsPlotTabs::metric() const
{
    return m_metric->currentData().toString();
}

void RunsPlotTabs::setParameter(const QString &name)
{
    m_parameterName = name;
    if (m_stale || m_modelChanged) {
        rebuild();
        return;
    }
    const QSignalBlocker block(m_parameter);
    m_parameter->setCurrentIndex(std::max(0, int(m_table.parameters.indexOf(m_parameterName))));
    m_scatter->setParameter(std::max(0, m_parameter->currentIndex()));
}

QString RunsPlotTabs::parameter() const
{
    return m_parameter->currentText();
}

// The user's metric while the table has its column, else the default one.
QString RunsPlotTabs::chosenMetric() const
{
    const auto choices = RunsParameterTable::metricChoices(*m_model);
    return std::any_of(choices.cbegin(), choices.cend(), [this](const auto &c) { return c.first == m_metricKey; })
               ? m_metricKey : RunsParameterTable::defaultMetric(*m_model);
}

void RunsPlotTabs::rebuild()
{
    m_stale = false;
    m_modelChanged = false;
    m_refresh.stop();
    if (!m_model)
        return;
    const QString metric = chosenMetric();
    {
        const QSignalBlocker block(m_metric);
        m_metric->clear();
        for (const auto &[key, header] : RunsParameterTable::metricChoices(*m_model))
            m_metric->addItem(header, key);
        m_metric->setCurrentIndex(m_metric->findData(metric));
    }
    if (m_settingsStale || m_settings.rowCount != m_model->rowCount()) {
        m_settings = RunsParameterTable::settingsOf(*m_model);
        m_settingsStale = false;
    }
    m_table = RunsParameterTable::of(*m_model, m_settings, m_jobIds, metric, m_hidden);
    {
        const QSignalBlocker block(m_parameter);
        m_parameter->clear();
        m_parameter->addItems(m_table.parameters);
        m_parameter->setCurrentIndex(std::max(0, int(m_table.parameters.indexOf(m_parameterName))));
    }
    m_parallel->setTable(m_table);
    m_scatter->setTable(m_table);
    m_scatter->setParameter(std::max(0, m_parameter->currentIndex()));
    updateTips();
}

void RunsPlotTabs::updateTips()
{
    const QString tip = tr("The settings that differ between %1 against %2").arg(m_what, m_table.metric);
    setTabToolTip(ParallelTab, tip);
    setTabToolTip(ScatterTab, tip);
}

} // namespace TrainDesk::Ui
