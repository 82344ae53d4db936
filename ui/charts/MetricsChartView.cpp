#include "MetricsChartView.h"

#include "RunColors.h"
#include "common/FileDialogs.h"
#include "metrics/MetricCsv.h"

#include "ChartPanel.h"
#include "CompareJobsButton.h"
#include "SeriesPicker.h"

#include <QBuffer>
#include <QChart>
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QGraphicsLayout>
#include <QChart>
#include <QHBoxLayout>
#include <QImage>
#include <QLabel>
#include <QMenu>
#include <QMessageBox>
#include <QPainter>
#include <QPushButton>
#include <QSaveFile>
#include <QSlider>
#include <QSplitter>
#include <QSvgGenerator>
#include <QToolButton>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include <cmath>

namespace TrainDesk::Ui {

namespace {

// The chart's x axis as the named series' index reads it.
ScalarSeriesIndex::X indexAxis(MetricSeries::XAxis x)
{
    switch (x) {
    case MetricSeries::XAxis::Step: return ScalarSeriesIndex::X::Step;
    case MetricSeries::XAxis::Epoch: return ScalarSeriesIndex::X::Epoch;
    case MetricSeries::XAxis::Time: return ScalarSeriesIndex::X::Time;
    }
    return ScalarSeriesIndex::X::Step;
}

} // namespace

MetricsChartView::MetricsChartView(MetricSeries *series, QWidget *parent)
    : QWidget(parent),
      m_series(series),
      m_loss(new ChartPanel(tr("Loss"), tr("loss"), this)),
      m_accuracy(new ChartPanel(tr("Accuracy"), tr("accuracy"), this)),
      m_xAxisCombo(new QComboBox(this)),
      m_smoothingSlider(new QSlider(Qt::Horizontal, this)),
      m_smoothingLabel(new QLabel(this)),
      m_logCheck(new QCheckBox(tr("Log scale (loss)"), this)),
      m_perRankCheck(new QCheckBox(tr("Per rank"), this)),
      m_compare(new CompareJobsButton(this)),
      m_lossPicker(new SeriesPicker(tr("Loss"), QStringLiteral("loss"), this)),
      m_accuracyPicker(new SeriesPicker(tr("Accuracy"), QStringLiteral("acc"), this)),
      m_resetZoom(new QPushButton(tr("Reset zoom"), this)),
      m_summary(new QLabel(this))
{
    setUpControls();
    QToolButton *exportButton = makeExportButton();
    layOut(makeChartRows(), exportButton);
    connectControls();
    setSmoothing(m_smoothing);
    updatePerRankCheck();
    redraw();
}

void MetricsChartView::setUpControls()
{
    m_accuracy->setYLimits(0, 1);
    m_perRankCheck->setObjectName(QStringLiteral("perRankCheck"));
    m_compare->setObjectName(QStringLiteral("compareButton"));
    m_lossPicker->setObjectName(QStringLiteral("lossPicker"));
    m_accuracyPicker->setObjectName(QStringLiteral("accuracyPicker"));
    m_xAxisCombo->addItem(tr("Step"), int(MetricSeries::XAxis::Step));
    m_xAxisCombo->addItem(tr("Epoch"), int(MetricSeries::XAxis::Epoch));
    m_xAxisCombo->addItem(tr("Time"), int(MetricSeries::XAxis::Time));
    m_smoothingSlider->setRange(0, 99);
    m_smoothingSlider->setValue(int(std::lround(m_smoothing * 100)));
    m_smoothingSlider->setMaximumWidth(160);
    // A slider squeezed to its knob cannot be read or dragged (a 1024-pixel window).
    m_smoothingSlider->setMinimumWidth(90);
    m_smoothingSlider->setToolTip(tr("Exponential moving average of the training series; the raw values stay faint behind"));
    m_smoothingLabel->setMinimumWidth(32);
    m_resetZoom->setEnabled(false);
    m_resetZoom->setToolTip(tr("Fit both charts to the data again (or double-click a chart). "
                               "Drag to zoom, Shift+drag or middle button to pan, wheel to zoom."));
    m_summary->setObjectName(QStringLiteral("chartSummary"));
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
}

QToolButton *MetricsChartView::makeExportButton()
{
    auto *exportButton = new QToolButton(this);
    exportButton->setText(tr("Export"));
    exportButton->setPopupMode(QToolButton::InstantPopup);
    exportButton->setToolButtonStyle(Qt::ToolButtonTextOnly);
    auto *exportMenu = new QMenu(exportButton);
    exportMenu->addAction(tr("Charts as PNG…"), this, [this] {
        chooseExport(tr("Export charts"), QStringLiteral("charts.png"), tr("PNG images (*.png)"), &MetricsChartView::exportPng);
    });
    exportMenu->addAction(tr("Charts as SVG…"), this, [this] {
        chooseExport(tr("Export charts"), QStringLiteral("charts.svg"), tr("SVG images (*.svg)"), &MetricsChartView::exportSvg);
    });
    exportMenu->addAction(tr("Metrics as CSV…"), this, [this] {
        chooseExport(tr("Export metrics"), QStringLiteral("metrics.csv"), tr("CSV files (*.csv)"), &MetricsChartView::exportCsv);
    });
    exportButton->setMenu(exportMenu);
    return exportButton;
}

QSplitter *MetricsChartView::makeChartRows()
{
    // Loss and accuracy side by side; the charts added below them, side by side too.
    auto *splitter = m_chartsSplitter = new QSplitter(Qt::Vertical, this);
    splitter->setObjectName(QStringLiteral("chartsSplitter"));
    m_topRow = new QSplitter(Qt::Horizontal, splitter);
    m_topRow->setObjectName(QStringLiteral("chartsTopRow"));
    m_topRow->addWidget(m_loss);
    m_topRow->addWidget(m_accuracy);
    m_topRow->setChildrenCollapsible(false);
    m_extraRow = new QSplitter(Qt::Horizontal, splitter);
    m_extraRow->setObjectName(QStringLiteral("chartsExtraRow"));
    m_extraRow->setChildrenCollapsible(false);
    m_extraRow->hide();
    splitter->setChildrenCollapsible(false);
    m_addChart = new QToolButton(this);
    m_addChart->setObjectName(QStringLiteral("addChartButton"));
    m_addChart->setText(tr("Add chart"));
    m_addChart->setToolTip(tr("Another chart below these, of any series the job stored (learning rate, images/s, "
                              "TensorBoard tags); at most %1").arg(maxExtraCharts));
    connect(m_addChart, &QToolButton::clicked, this, [this] { addChart(); });
    return splitter;
}

void MetricsChartView::layOut(QSplitter *charts, QToolButton *exportButton)
{
    auto *controls = new QHBoxLayout;
    controls->addWidget(new QLabel(tr("X axis:"), this));
    controls->addWidget(m_xAxisCombo);
    controls->addSpacing(12);
    controls->addWidget(new QLabel(tr("Smoothing:"), this));
    controls->addWidget(m_smoothingSlider);
    controls->addWidget(m_smoothingLabel);
    controls->addSpacing(12);
    controls->addWidget(m_logCheck);
    controls->addWidget(m_perRankCheck);
    controls->addWidget(m_compare);
    controls->addStretch();

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(controls);
    // The series pickers, Reset zoom and Export share the summary's line: the controls above
    // fill a 1024-pixel window already (in a sweep's tab they made it 1041 wide), and the
    // summary gives up its width (its tooltip keeps the whole text).
    auto *summaryRow = new QHBoxLayout;
    m_summary->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    summaryRow->addWidget(m_summary, 1);
    summaryRow->addWidget(m_lossPicker);
    summaryRow->addWidget(m_accuracyPicker);
    summaryRow->addWidget(m_addChart);
    summaryRow->addWidget(m_resetZoom);
    summaryRow->addWidget(exportButton);
    layout->addLayout(summaryRow);
    layout->addWidget(charts, 1);
}

void MetricsChartView::connectControls()
{
    m_redrawTimer.setSingleShot(true);
    m_redrawTimer.setInterval(redrawIntervalMs);
    connect(&m_redrawTimer, &QTimer::timeout, this, &MetricsChartView::redraw);
    connect(m_series, &MetricSeries::changed, this, &MetricsChartView::scheduleRedraw);
    // A run's colour chosen in the runs table: the overlaid lines take it.
    connect(RunColors::instance(), &RunColors::changed, this, &MetricsChartView::scheduleRedraw);
    connect(this, &MetricsChartView::exported, this, &MetricsChartView::confirmExport);
    connect(m_xAxisCombo, &QComboBox::currentIndexChanged, this, [this] {
        setXAxis(MetricSeries::XAxis(m_xAxisCombo->currentData().toInt()));
    });
    connect(m_smoothingSlider, &QSlider::valueChanged, this, [this](int value) { setSmoothing(value / 100.0); });
    connect(m_logCheck, &QCheckBox::toggled, this, &MetricsChartView::setLogScale);
    connect(m_perRankCheck, &QCheckBox::toggled, this, &MetricsChartView::setPerRank);
    connect(m_compare, &CompareJobsButton::jobToggled, this, &MetricsChartView::comparisonToggled);
    for (SeriesPicker *picker : {m_lossPicker, m_accuracyPicker})
        connect(picker, &QComboBox::currentIndexChanged, this, &MetricsChartView::scheduleRedraw);
    connect(m_series, &MetricSeries::changed, this, &MetricsChartView::updatePerRankCheck);
    connect(m_resetZoom, &QPushButton::clicked, this, [this] {
        m_loss->resetZoom();
        m_accuracy->resetZoom();
        for (const ExtraChart &extra : std::as_const(m_extra))
            extra.panel->resetZoom();
    });
    for (ChartPanel *panel : {m_loss, m_accuracy})
        watchZoom(panel);
}

void MetricsChartView::watchZoom(ChartPanel *panel)
{
    connect(panel, &ChartPanel::autoFitChanged, this, [this](bool autoFit) {
        bool zoomed = !m_loss->isAutoFit() || !m_accuracy->isAutoFit();
        for (const ExtraChart &extra : std::as_const(m_extra))
            zoomed = zoomed || !extra.panel->isAutoFit();
        m_resetZoom->setEnabled(zoomed);
    });
    // A zoom or pan needs no redraw here: the panel holds the whole series and reduces
    // them to the range shown itself.
}

ChartPanel *MetricsChartView::addChart()
{
    if (m_extra.size() >= maxExtraCharts)
        return nullptr;
    ExtraChart extra;
    extra.box = new QWidget(m_extraRow);
    extra.panel = new ChartPanel(tr("Loss"), tr("loss"), extra.box);
    extra.panel->setObjectName(QStringLiteral("extraChart%1").arg(m_extra.size() + 1));
    extra.picker = new SeriesPicker(tr("Loss"), QString(), extra.box);
    extra.picker->setObjectName(QStringLiteral("extraPicker%1").arg(m_extra.size() + 1));
    auto *close = new QToolButton(extra.box);
    close->setObjectName(QStringLiteral("removeChartButton"));
    close->setText(QStringLiteral("\u2715"));
    close->setAutoRaise(true);
    close->setToolTip(tr("Remove this chart"));
    close->setAccessibleName(tr("Remove this chart"));
    auto *row = new QHBoxLayout;
    row->setContentsMargins(0, 0, 0, 0);
    row->addWidget(extra.picker, 1);
    row->addWidget(close);
    auto *layout = new QVBoxLayout(extra.box);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(row);
    layout->addWidget(extra.panel, 1);
    extra.panel->setRunName(m_runName);
    extra.panel->setTrainColor(m_mainColor);
    extra.panel->setLogScale(false);
    m_extraRow->addWidget(extra.box);
    m_extraRow->show();
    // It starts at the first series no chart draws: the learning rate, then images/s, ...
    m_scalars.update(m_series->records());
    extra.picker->refresh(m_scalars, true);
    QStringList shown{m_lossPicker->chosenKey(), m_accuracyPicker->chosenKey()};
    for (const ExtraChart &other : std::as_const(m_extra))
        shown << other.picker->chosenKey();
    for (const QString &key : m_scalars.keys()) {
        if (!shown.contains(key)) {
            extra.picker->choose(key);
            break;
        }
    }
    connect(extra.picker, &QComboBox::currentIndexChanged, this, &MetricsChartView::scheduleRedraw);
    ChartPanel *panel = extra.panel;
    connect(close, &QToolButton::clicked, this, [this, panel] { removeChart(panel); });
    watchZoom(panel);
    m_extra.append(extra);
    m_addChart->setEnabled(m_extra.size() < maxExtraCharts);
    redrawNow();
    return panel;
}

void MetricsChartView::removeChart(ChartPanel *panel)
{
    for (qsizetype i = 0; i < m_extra.size(); ++i) {
        if (m_extra.at(i).panel != panel)
            continue;
        m_extra.takeAt(i).box->deleteLater();
        m_extraRow->setVisible(!m_extra.isEmpty());
        m_addChart->setEnabled(true);
        return;
    }
}

QList<ChartPanel *> MetricsChartView::extraPanels() const
{
    QList<ChartPanel *> panels;
    for (const ExtraChart &extra : m_extra)
        panels << extra.panel;
    return panels;
}

SeriesPicker *MetricsChartView::pickerOf(ChartPanel *panel) const
{
    if (panel == m_loss)
        return m_lossPicker;
    if (panel == m_accuracy)
        return m_accuracyPicker;
    for (const ExtraChart &extra : m_extra) {
        if (extra.panel == panel)
            return extra.picker;
    }
    return nullptr;
}

void MetricsChartView::setPerRank(bool on)
{
    if (m_perRankCheck->isChecked() != on)
        m_perRankCheck->setChecked(on);
    if (on == m_perRank)
        return;
    m_perRank = on;
    redrawNow();
}

void MetricsChartView::updatePerRankCheck()
{
    const int ranks = int(m_series->ranks().size());
    m_perRankCheck->setEnabled(ranks > 1);
    m_perRankCheck->setToolTip(ranks > 1 ? tr("Draw each of the %1 ranks' own training values").arg(ranks)
                                         : tr("This job has no per-rank values (one rank, or a script that "
                                              "prints progress on rank 0 only)"));
}

void MetricsChartView::setComparisonCandidates(const QList<QPair<qint64, QString>> &jobs)
{
    m_compare->setCandidates(jobs);
}

void MetricsChartView::setMainColor(const QColor &color)
{
    m_mainColor = color;
    m_loss->setTrainColor(color);
    m_accuracy->setTrainColor(color);
    for (const ExtraChart &extra : std::as_const(m_extra))
        extra.panel->setTrainColor(color);
    scheduleRedraw();
}

void MetricsChartView::setRunName(const QString &name)
{
    m_runName = name;
    m_loss->setRunName(name);
    m_accuracy->setRunName(name);
    for (const ExtraChart &extra : std::as_const(m_extra))
        extra.panel->setRunName(name);
}

QByteArray MetricsChartView::csv() const
{
    // One table: the run's rows, then each compared run's, told apart by the first column.
    // Without compared runs, the bytes `traindesk job metrics --csv` prints (MetricCsv).
    QByteArray out = MetricCsv::header();
    out += m_series->csvRows(m_runName);
    for (const ComparedJob &job : m_compared)
        out += job.series->csvRows(job.name);
    return out;
}

QString MetricsChartView::exportDescription() const
{
    QStringList charts;
    for (ChartPanel *panel : {m_loss, m_accuracy}) {
        QStringList series = panel->drawOrder();
        series.removeAll(QString());
        charts << QStringLiteral("%1: %2").arg(panel->chart()->title(), series.join(QStringLiteral(", ")));
    }
    QStringList runs{m_runName.isEmpty() ? tr("(unnamed run)") : m_runName};
    for (const ComparedJob &job : m_compared)
        runs << job.name;
    return tr("Runs: %1. %2.").arg(runs.join(QStringLiteral(", ")), charts.join(QStringLiteral(". ")));
}

void MetricsChartView::addComparison(const ComparedJob &job)
{
    removeComparison(job.jobId);
    m_compared.append(job);
    connect(job.series, &MetricSeries::changed, this, &MetricsChartView::scheduleRedraw);
    m_compare->setChecked(job.jobId, true);
    scheduleRedraw();
}

void MetricsChartView::removeComparison(qint64 jobId)
{
    for (qsizetype i = 0; i < m_compared.size(); ++i) {
        if (m_compared.at(i).jobId != jobId)
            continue;
        disconnect(m_compared.at(i).series, nullptr, this, nullptr);
        m_compared.removeAt(i);
        m_compare->setChecked(jobId, false);
        scheduleRedraw();
        return;
    }
}

void MetricsChartView::setSmoothing(double weight)
{
    m_smoothing = std::clamp(weight, 0.0, 0.99);
    m_smoothingLabel->setText(QString::number(m_smoothing, 'f', 2));
    const int value = int(std::lround(m_smoothing * 100));
    if (m_smoothingSlider->value() != value)
        m_smoothingSlider->setValue(value);
    scheduleRedraw();
}

void MetricsChartView::setLogScale(bool on)
{
    if (m_logCheck->isChecked() != on)
        m_logCheck->setChecked(on);
    m_loss->setLogScale(on);
}

void MetricsChartView::setXAxis(MetricSeries::XAxis axis)
{
    if (axis == m_xAxis)
        return;
    m_xAxis = axis;
    const int index = m_xAxisCombo->findData(int(axis));
    if (m_xAxisCombo->currentIndex() != index)
        m_xAxisCombo->setCurrentIndex(index);
    // Another unit: an old zoom means nothing there.
    m_loss->resetZoom();
    m_accuracy->resetZoom();
    redraw();
}

void MetricsChartView::scheduleRedraw()
{
    // Behind another tab of a window on screen: drawn when shown, not meanwhile.
    if (window()->isVisible() && !isVisible()) {
        m_stale = true;
        return;
    }
    if (!m_redrawTimer.isActive())
        m_redrawTimer.start();
}

void MetricsChartView::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    if (m_stale) {
        m_stale = false;
        redrawNow();
    }
}

void MetricsChartView::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);  // (each panel reduces its points to its new width itself)
}

void MetricsChartView::redrawNow()
{
    m_redrawTimer.stop();
    redraw();
}

void MetricsChartView::redraw()
{
    ++m_redraws;
    using Metric = MetricSeries::Metric;
    const QString xTitle = m_xAxis == MetricSeries::XAxis::Step ? tr("step")
        : m_xAxis == MetricSeries::XAxis::Epoch                 ? tr("epoch")
                                                                : tr("time (h:mm:ss)");
    const bool smoothing = m_smoothing > 0;
    // The named series the job's script wrote, for the pickers.
    m_scalars.update(m_series->records());
    const double startTime = m_series->records().isEmpty() ? 0.0 : m_series->records().first().time;
    m_lossPicker->refresh(m_scalars, !m_series->points(Metric::TrainLoss).isEmpty());
    m_accuracyPicker->refresh(m_scalars, !m_series->points(Metric::TrainAcc).isEmpty());
    for (ExtraChart &extra : m_extra)
        extra.picker->refresh(m_scalars, !m_series->points(Metric::TrainLoss).isEmpty());
    auto draw = [&](ChartPanel *panel, Metric train, Metric val) {
        SeriesPicker *picker = pickerOf(panel);
        const QString key = picker->chosenKey();
        QString *drawn = panel == m_loss ? &m_lossKey : panel == m_accuracy ? &m_accuracyKey : nullptr;
        for (ExtraChart &extra : m_extra) {
            if (extra.panel == panel)
                drawn = &extra.drawnKey;
        }
        QString &drawnKey = *drawn;
        if (key != drawnKey) {
            // Another series: its own title and range (a named series is not a 0-1 accuracy).
            drawnKey = key;
            panel->chart()->setTitle(key.isEmpty() ? picker->itemText(0) : m_scalars.label(key));
            panel->setSeriesName(m_scalars.name(key));
            if (panel == m_accuracy)
                key.isEmpty() ? panel->setYLimits(0, 1) : panel->setYLimits(-INFINITY, INFINITY);
            panel->resetZoom();
        }
        if (!key.isEmpty()) {
            drawNamed(panel, key, startTime, xTitle);
            return;
        }
        // The whole series (shared, not copied): the panel draws of them what its pixels
        // show, and again at each zoom or pan, so a million points keep their detail.
        const QList<QPointF> raw = m_series->points(train, m_xAxis);
        const QList<QPointF> smooth = smoothing ? m_series->smoothedPoints(train, m_xAxis, m_smoothing) : QList<QPointF>();
        panel->setXTitle(xTitle);
        panel->setXTimeLabels(m_xAxis == MetricSeries::XAxis::Time);
        QList<ChartLine> lines;
        if (m_perRank)
            lines += ChartLines::ranks(*m_series, train, m_xAxis, m_smoothing);
        lines += ChartLines::compared(m_compared, train, val, m_xAxis, m_smoothing);
        panel->setData(raw, smooth, m_series->points(val, m_xAxis), smoothing, lines);
    };
    draw(m_loss, Metric::TrainLoss, Metric::ValLoss);
    draw(m_accuracy, Metric::TrainAcc, Metric::ValAcc);
    for (const ExtraChart &extra : std::as_const(m_extra))
        draw(extra.panel, Metric::TrainLoss, Metric::ValLoss);  // its own series: the loss
    updateSummary();
}

void MetricsChartView::drawNamed(ChartPanel *panel, const QString &key, double startTime, const QString &xTitle)
{
    const QList<QPointF> raw = m_scalars.points(key, indexAxis(m_xAxis), startTime);
    const QList<QPointF> smooth = m_smoothing > 0 ? MetricSeries::smoothed(raw, m_smoothing) : QList<QPointF>();
    panel->setXTitle(xTitle);
    panel->setData(raw, smooth, {}, m_smoothing > 0);
}

void MetricsChartView::updateSummary()
{
    const QList<MetricRecord> &records = m_series->records();
    if (records.isEmpty()) {
        m_summary->setText(tr("No metrics yet: they appear here as the trainer writes metrics.jsonl."));
        return;
    }
    const MetricRecord *lastTrain = nullptr;
    const MetricRecord *lastVal = nullptr;
    for (auto it = records.crbegin(); it != records.crend() && (!lastTrain || !lastVal); ++it) {
        if (!lastTrain && it->kind == QLatin1String("train"))
            lastTrain = &*it;
        if (!lastVal && it->kind == QLatin1String("val"))
            lastVal = &*it;
    }
    QStringList parts;
    if (lastTrain) {
        parts << tr("epoch %1, step %2").arg(lastTrain->epoch).arg(lastTrain->globalStep)
              << tr("loss %1").arg(lastTrain->loss, 0, 'f', 4) << tr("acc %1").arg(lastTrain->acc, 0, 'f', 4);
        if (!std::isnan(lastTrain->imagesPerSec))
            parts << tr("%1 img/s").arg(lastTrain->imagesPerSec, 0, 'f', 0);
    }
    if (lastVal)
        parts << tr("val_loss %1").arg(lastVal->valLoss, 0, 'f', 4) << tr("val_acc %1").arg(lastVal->valAcc, 0, 'f', 4);
    if (m_series->finished())
        parts << tr("done");
    m_summary->setText(parts.join(QStringLiteral("  ·  ")));
    m_summary->setToolTip(m_summary->text());
}

MetricsChartView::ExportTitles::ExportTitles(MetricsChartView *view) : m_view(view)
{
    // The image is read away from the app: each chart's title says the run, the legend
    // says which series (and which compared runs).
    for (ChartPanel *panel : {view->m_loss, view->m_accuracy}) {
        m_titles << panel->chart()->title();
        if (!view->m_runName.isEmpty())
            panel->chart()->setTitle(QStringLiteral("%1 · %2").arg(panel->chart()->title(), view->m_runName));
        panel->chart()->layout()->activate();  // laid out now: the grab is made before any event
    }
    view->redraw();
}

MetricsChartView::ExportTitles::~ExportTitles()
{
    m_view->m_loss->chart()->setTitle(m_titles.value(0));
    m_view->m_accuracy->chart()->setTitle(m_titles.value(1));
    for (ChartPanel *panel : {m_view->m_loss, m_view->m_accuracy})
        panel->chart()->layout()->activate();
}

void MetricsChartView::exportPng(const QString &path)
{
    QImage image;
    {
        const ExportTitles titled(this);
        image = m_chartsSplitter->grab().toImage();
    }
    // PNG text chunks: the runs and series by name, whatever the legend had room for.
    image.setText(QStringLiteral("Title"), m_runName.isEmpty() ? tr("Training metrics") : tr("Training metrics of %1").arg(m_runName));
    image.setText(QStringLiteral("Description"), exportDescription());
    // Encoding and writing happen off the GUI thread.
    auto future = QtConcurrent::run([image, path] {
        return image.save(path, "PNG") ? QString() : tr("cannot write %1").arg(path);
    });
    future.then(this, [this, path](const QString &error) { Q_EMIT exported(path, error); });
}

void MetricsChartView::exportSvg(const QString &path)
{
    const ExportTitles titled(this);
    // Painting must happen here; the SVG text goes to memory and is written in a worker.
    QBuffer buffer;
    buffer.open(QIODevice::WriteOnly);
    QSvgGenerator generator;
    generator.setOutputDevice(&buffer);
    generator.setSize(m_chartsSplitter->size());
    generator.setViewBox(m_chartsSplitter->rect());
    generator.setTitle(m_runName.isEmpty() ? tr("Training metrics") : tr("Training metrics of %1").arg(m_runName));
    generator.setDescription(exportDescription());
    QPainter painter(&generator);
    m_chartsSplitter->render(&painter);
    painter.end();
    writeAsync(path, buffer.data());
}

void MetricsChartView::exportCsv(const QString &path)
{
    writeAsync(path, csv());
}

void MetricsChartView::writeAsync(const QString &path, const QByteArray &data)
{
    auto future = QtConcurrent::run([data, path] {
        QSaveFile file(path);
        if (!file.open(QIODevice::WriteOnly) || file.write(data) != data.size() || !file.commit())
            return tr("cannot write %1: %2").arg(path, file.errorString());
        return QString();
    });
    future.then(this, [this, path](const QString &error) { Q_EMIT exported(path, error); });
}

void MetricsChartView::confirmExport(const QString &path, const QString &error)
{
    // Window-modal and not waited for: the export already happened.
    auto *box = new QMessageBox(error.isEmpty() ? QMessageBox::Information : QMessageBox::Warning,
                                error.isEmpty() ? tr("Exported") : tr("Export failed"),
                                error.isEmpty() ? tr("Saved %1").arg(QDir::toNativeSeparators(path)) : error,
                                QMessageBox::Ok, this);
    box->setObjectName(QStringLiteral("exportConfirmation"));
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->setTextInteractionFlags(Qt::TextSelectableByMouse);
    box->open();
}

void MetricsChartView::chooseExport(const QString &title, const QString &fileName, const QString &filter,
                                    void (MetricsChartView::*write)(const QString &))
{
    const QString path = FileDialogs::saveFileName(this, QStringLiteral("export-charts"), title, fileName, filter);
    if (!path.isEmpty())
        (this->*write)(path);
}

} // namespace TrainDesk::Ui
