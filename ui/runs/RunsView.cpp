#include "RunsView.h"
#include "files/DownloadPaths.h"
#include "sweeps/TrialModelDownload.h"

#include "common/ErrorText.h"
#include "ColumnChooser.h"
#include "RunsFilterModel.h"
#include "RunsGroupModel.h"
#include "RunsPlotTabs.h"
#include "RunsTableModel.h"
#include "charts/ChartLines.h"
#include "charts/CompareJobsButton.h"
#include "charts/JobMetricsFeed.h"
#include "charts/MetricSeries.h"
#include "charts/MetricsChartView.h"
#include "charts/RunColors.h"
#include "common/DataPaths.h"
#include "session/RunNotesAccess.h"
#include "common/StateStyle.h"
#include "session/Backend.h"

#include <QColorDialog>
#include <QComboBox>
#include <QFileDialog>
#include <QMenu>
#include <QSettings>
#include <QToolButton>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSplitter>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>
#include <QWidgetAction>

#include <memory>

namespace TrainDesk::Ui {

namespace {
// Summaries are read again at most this often while jobs report (the worker reads only
// the records stored since).
constexpr int summaryIntervalMs = 2000;
} // namespace

RunsView::RunsView(Backend *backend, QWidget *parent)
    : QWidget(parent),
      m_backend(backend),
      m_modelDownload(new TrialModelDownload(backend, this)),
      m_model(new RunsTableModel(this)),
      m_filter(new RunsFilterModel(m_model, this)),
      m_filterEdit(new QLineEdit(this)),
      m_count(new QLabel(this)),
      m_export(new QPushButton(tr("Export &CSV…"), this)),
      m_table(new QTableView(this)),
      m_splitter(new QSplitter(Qt::Vertical, this)),
      m_chartHint(new QLabel(this)),
      m_series(new MetricSeries(this)),
      m_charts(new MetricsChartView(m_series, this)),
      m_status(new QLabel(this)),
      m_summaryTimer(new QTimer(this)),
      m_feed(new JobMetricsFeed(backend, m_series, m_charts, this)),
      m_columns(new QToolButton(this)),
      m_hidden(QSettings().value(QStringLiteral("Runs/hiddenColumns")).toStringList()),
      m_hideConstant(QSettings().value(QStringLiteral("Runs/hideConstantSettings"), false).toBool()),
      m_groupBy(new QComboBox(this)),
      m_groups(new RunsGroupModel(m_model, m_filter, this)),
      m_groupTable(new QTableView(this)),
      m_notes(new RunNotesAccess(DataPaths::databasePath(), this))
{
    setUpTable();
    setUpColumnsMenu();
    setUpGroupsAndHints();
    layOut();
    connectTableAndSummaries();
    connectNotesAndGroups();
    connectRunMenuAndColours();
    updateGroupChoices();
    applyHiddenColumns();
    connectPlots();
    updateStatus();
}

// The table, its filter field and the export button.
void RunsView::setUpTable()
{
    m_table->setObjectName(QStringLiteral("runsTable"));
    m_filterEdit->setObjectName(QStringLiteral("runsFilter"));
    m_filterEdit->setPlaceholderText(tr("Filter: text, state:failed, epochs=5, val_acc>0.7, best_loss<0.5"));
    m_filterEdit->setClearButtonEnabled(true);
    m_filterEdit->setToolTip(tr("Every term must hold: text anywhere in a row, or a column's key (in its header's "
                                "tooltip) with :text, =value, >number, <number, >=number or <=number"));
    m_export->setToolTip(tr("Save the table (every row and column) as a CSV file"));
    m_table->setModel(m_filter);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(RunsTableModel::StartedColumn, Qt::DescendingOrder);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_table->setAlternatingRowColors(true);
    // Tags and notes are edited in place (F2, or a click on a chosen cell); a double click
    // opens the job.
    m_table->setEditTriggers(QAbstractItemView::EditKeyPressed | QAbstractItemView::SelectedClicked);
    m_table->setWordWrap(false);
    // The job's name is the vertical header: it stays in view however far the metric and
    // setting columns scroll (the Job column itself is hidden).
    m_table->verticalHeader()->setVisible(true);
    m_table->verticalHeader()->setDefaultAlignment(Qt::AlignLeft | Qt::AlignVCenter);
    m_table->verticalHeader()->setMaximumWidth(280);
    m_table->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    m_table->verticalHeader()->setObjectName(QStringLiteral("runsJobHeader"));
    m_table->setColumnHidden(RunsTableModel::JobColumn, true);
}

// The Columns button: a chooser of the columns shown, in its menu.
void RunsView::setUpColumnsMenu()
{
    m_columns->setText(tr("C&olumns"));
    m_columns->setObjectName(QStringLiteral("runsColumns"));
    m_columns->setPopupMode(QToolButton::InstantPopup);
    m_columns->setToolTip(tr("Choose the columns: any setting, any metric's last or best value (the job stays at the left)"));
    // The chooser lives in the menu as a widget: ticking a column leaves the menu open (a
    // menu of actions closed after each of ~30 toggles).
    m_columns->setMenu(new QMenu(m_columns));
    m_chooser = new ColumnChooser(m_columns->menu());
    m_chooser->setHideConstant(m_hideConstant);
    m_columns->menu()->addAction(tr("Show all"), this, [this] {
        m_hidden.clear();
        QSettings().remove(QStringLiteral("Runs/hiddenColumns"));
        setHideConstantSettings(false);
        fillColumnsMenu();
    });
    m_columns->menu()->addSeparator();
    auto *chooserAction = new QWidgetAction(m_columns->menu());
    chooserAction->setDefaultWidget(m_chooser);
    m_columns->menu()->addAction(chooserAction);
    connect(m_columns->menu(), &QMenu::aboutToShow, this, &RunsView::fillColumnsMenu);
    connect(m_columns->menu(), &QMenu::aboutToShow, m_chooser->search(), qOverload<>(&QWidget::setFocus));
    connect(m_chooser, &ColumnChooser::columnToggled, this, &RunsView::setColumnShown);
    connect(m_chooser, &ColumnChooser::hideConstantToggled, this, &RunsView::setHideConstantSettings);
}

// The Group by box and the groups' table, the table's header, the hint below it.
void RunsView::setUpGroupsAndHints()
{
    m_groupBy->setObjectName(QStringLiteral("runsGroupBy"));
    // The bar fits a 1024-pixel window beside the tree: the box as wide as a short setting.
    m_groupBy->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_groupBy->setMinimumContentsLength(9);
    m_filterEdit->setMinimumWidth(160);
    m_groupBy->setToolTip(tr("Group the runs shown by a setting or column: each metric's mean ± spread per group"));
    m_groupTable->setObjectName(QStringLiteral("runsGroups"));
    m_groupTable->setModel(m_groups);
    m_groupTable->verticalHeader()->setVisible(false);
    m_groupTable->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_groupTable->setVisible(false);
    m_groupTable->setMaximumHeight(160);
    // Widths measured when the columns come (a reset) or are shown again, from the rows in
    // view and 100 more (not 1,000 per column, Qt's default): not at each sort and filter,
    // as ResizeToContents did (39 columns x 130 rows measured at every keystroke). The user
    // may drag them wider.
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    m_table->horizontalHeader()->setResizeContentsPrecision(100);
    m_table->horizontalHeader()->setHighlightSections(false);
    m_chartHint->setText(tr("Choose jobs in the table (Ctrl or Shift + click for several) to overlay their charts."));
    m_chartHint->setAlignment(Qt::AlignCenter);
    m_chartHint->setEnabled(false);
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
}

// The bar above the table, the table, and the plots below it in a splitter.
void RunsView::layOut()
{
    auto *bar = new QHBoxLayout;
    auto *filterLabel = new QLabel(tr("&Filter:"), this);
    filterLabel->setBuddy(m_filterEdit);
    bar->addWidget(filterLabel);
    bar->addWidget(m_filterEdit, 1);
    bar->addWidget(m_count);
    auto *groupLabel = new QLabel(tr("&Group by:"), this);
    groupLabel->setBuddy(m_groupBy);
    bar->addWidget(groupLabel);
    bar->addWidget(m_groupBy);
    bar->addWidget(m_columns);
    bar->addWidget(m_export);
    auto *top = new QWidget(this);
    auto *topLayout = new QVBoxLayout(top);
    topLayout->setContentsMargins(0, 0, 0, 0);
    topLayout->addLayout(bar);
    topLayout->addWidget(m_groupTable);
    topLayout->addWidget(m_table, 1);
    topLayout->addWidget(m_status);
    auto *bottom = new QWidget(this);
    auto *bottomLayout = new QVBoxLayout(bottom);
    bottomLayout->setContentsMargins(0, 0, 0, 0);
    bottomLayout->addWidget(m_chartHint, 1);
    bottomLayout->addWidget(m_charts, 1);
    m_charts->setVisible(false);
    // Under the tab bar, the charts need no side margins of their own: their row of controls
    // (with "Compare (1)") then fits a 1024-pixel screen beside the tree.
    if (QLayout *chartsLayout = m_charts->layout()) {
        const QMargins m = chartsLayout->contentsMargins();
        chartsLayout->setContentsMargins(0, m.top(), 0, m.bottom());
    }
    m_plots = new RunsPlotTabs(bottom, this);
    m_splitter->addWidget(top);
    m_splitter->addWidget(m_plots);
    m_splitter->setStretchFactor(0, 1);
    m_splitter->setStretchFactor(1, 2);
    m_splitter->setChildrenCollapsible(false);
    // The charts need the height: a few rows of jobs are read at a glance, a chart is not.
    m_charts->setMinimumHeight(300);
    m_table->setMinimumHeight(120);
    m_splitter->setSizes({1, 2});
    auto *layout = new QVBoxLayout(this);
    // No side margins: the charts' row of controls fits a 1024-pixel screen beside the tree,
    // as on a job's Charts tab.
    layout->setContentsMargins(0, layout->contentsMargins().top() / 2, 0, 0);
    layout->addWidget(m_splitter);
}

// The summaries read while jobs report, the filter, export, opening a run, choosing runs.
void RunsView::connectTableAndSummaries()
{
    m_summaryTimer->setSingleShot(true);
    m_summaryTimer->setInterval(summaryIntervalMs);
    connect(m_summaryTimer, &QTimer::timeout, this, &RunsView::requestSummaries);
    connect(m_backend, &Backend::runSummariesRead, this, [this](int id, const RunSummaries &summaries) {
        if (id != m_summaryRequest)
            return;
        m_summaryRequest = 0;
        m_model->setSummaries(summaries);
    });
    connect(m_filterEdit, &QLineEdit::textChanged, this, [this](const QString &text) {
        m_filter->setFilterText(text);
        updateStatus();
    });
    connect(m_export, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getSaveFileName(this, tr("Export runs"), tr("runs.csv"), tr("CSV files (*.csv)"));
        if (!path.isEmpty())
            exportCsv(path);
    });
    connect(m_backend, &Backend::fileWritten, this, [this](int id, const QString &error) {
        if (id != m_exportRequest)
            return;
        m_exportRequest = 0;
        m_status->setText(error.isEmpty() ? tr("Saved %1").arg(m_exportPath) : error);
        Q_EMIT exported(m_exportPath, error);
    });
    connect(m_table, &QTableView::doubleClicked, this, [this](const QModelIndex &index) {
        if (const qint64 id = index.data(RunsTableModel::JobIdRole).toLongLong())
            Q_EMIT jobActivated(id);
    });
    connect(m_table->selectionModel(), &QItemSelectionModel::selectionChanged, this, &RunsView::updateChosen);
    // A reset (a job or a metric column came or went) clears the selection: choose again.
    connect(m_model, &QAbstractItemModel::modelAboutToBeReset, this, [this] { m_restoring = m_chosen; });
    connect(m_model, &QAbstractItemModel::modelReset, this, [this] {
        const QList<qint64> chosen = m_restoring;
        m_restoring.clear();
        chooseJobs(chosen);
        applyHiddenColumns();
        m_table->resizeColumnsToContents();
        updateGroupChoices();
        updateStatus();
    });
}

// Tags and notes edited in the table, stored off the GUI thread; the Group by box.
void RunsView::connectNotesAndGroups()
{
    connect(m_model, &RunsTableModel::noteEdited, this, [this](qint64 jobId, const RunNote &note) {
        // Off the GUI thread, as every database access of the window. A read started before
        // this edit would bring back the old words: its answer is dropped.
        ++m_notesRead;
        m_notes->write(jobId, note)
            .then(this, [this](const VoidResult &written) {
                if (!written)
                    m_status->setText(written.error());
                readNotes();
            });
    });
    connect(m_groupBy, &QComboBox::activated, this, [this] { setGroupBy(m_groupBy->currentData().toString()); });
}

// A run's menu, its model's download, and the runs' colours.
void RunsView::connectRunMenuAndColours()
{
    // A run's colour: chosen from its row's menu (right click, or the menu key), kept with its
    // note, drawn so in every view (RunColors). The colours of all runs come at the start.
    m_table->setContextMenuPolicy(Qt::CustomContextMenu);
    m_table->verticalHeader()->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_modelDownload, &TrialModelDownload::progress, this, &RunsView::statusMessage);
    connect(m_modelDownload, &TrialModelDownload::finished, this, [this](const QString &folder, int files, const QString &error) {
        Q_EMIT statusMessage(error.isEmpty() ? tr("Downloaded %1 to %2").arg(countOf(files, tr("file"), tr("files")), folder)
                                             : tr("Download failed: %1").arg(error));
    });
    connect(m_table, &QWidget::customContextMenuRequested, this, [this](const QPoint &at) {
        const QModelIndex index = m_table->indexAt(at).isValid() ? m_table->indexAt(at) : m_table->currentIndex();
        showRunMenu(index.data(RunsTableModel::JobIdRole).toLongLong(), m_table->viewport()->mapToGlobal(at));
    });
    connect(m_table->verticalHeader(), &QWidget::customContextMenuRequested, this, [this](const QPoint &at) {
        const int row = m_table->verticalHeader()->logicalIndexAt(at);
        showRunMenu(m_filter->index(row, 0).data(RunsTableModel::JobIdRole).toLongLong(),
                    m_table->verticalHeader()->mapToGlobal(at));
    });
    connect(RunColors::instance(), &RunColors::changed, this, [this] {
        m_charts->setMainColor(ChartLines::runColor(m_chosen.value(0)));
        updatePlots();
    });
    m_notes->readColors()
        .then(this, [](const QHash<qint64, QString> &colors) { RunColors::instance()->setStored(colors); });
}

// The count and the plots follow the rows shown.
void RunsView::connectPlots()
{
    connect(m_filter, &QAbstractItemModel::rowsInserted, this, &RunsView::updateStatus);
    connect(m_filter, &QAbstractItemModel::rowsRemoved, this, &RunsView::updateStatus);
    // A run's line or dot clicked in a plot chooses it, as a click on its row does.
    connect(m_plots, &RunsPlotTabs::runClicked, this, [this](qint64 jobId) { chooseJobs({jobId}); });
    // The plots follow the chosen runs, the filter, the columns shown and the values read.
    connect(m_filter, &QAbstractItemModel::rowsInserted, this, &RunsView::updatePlots);
    connect(m_filter, &QAbstractItemModel::rowsRemoved, this, &RunsView::updatePlots);
    connect(m_filter, &QAbstractItemModel::layoutChanged, this,
            [this](const QList<QPersistentModelIndex> &, QAbstractItemModel::LayoutChangeHint hint) {
                // A sort changes the order of the runs, not which runs or their values.
                if (hint != QAbstractItemModel::VerticalSortHint)
                    updatePlots();
            });
    connect(m_filter, &QAbstractItemModel::modelReset, this, &RunsView::updatePlots);
    connect(m_model, &QAbstractItemModel::dataChanged, this, &RunsView::updatePlots);
}

void RunsView::showScope(qint64 workspaceId, qint64 experimentId)
{
    const bool switched = workspaceId != m_workspaceId || experimentId != m_experimentId;
    m_workspaceId = workspaceId;
    m_experimentId = experimentId;
    if (switched) {
        m_table->clearSelection();
        m_model->setSummaries({});
        m_status->clear();
    }
    m_model->setScope(workspaceId, experimentId);
    m_model->setSnapshot(m_backend->snapshot());
    // One experiment's table needs no experiment column.
    applyHiddenColumns();
    if (switched)
        requestSummaries();
    else if (!m_summaryTimer->isActive())
        m_summaryTimer->start();
    updateStatus();
}

bool RunsView::isConstantSetting(int column) const
{
    if (column < RunsTableModel::FixedColumns || m_model->isMetricColumn(column) || m_model->rowCount() < 2)
        return false;
    const QVariant first = m_model->index(0, column).data();
    for (int r = 1; r < m_model->rowCount(); ++r) {
        if (m_model->index(r, column).data() != first)
            return false;
    }
    return true;
}

void RunsView::applyHiddenColumns()
{
    for (int c = 0; c < m_model->columnCount(); ++c) {
        if (c == RunsTableModel::JobColumn)
            continue;  // the vertical header shows it
        const bool hidden = m_hidden.contains(m_model->keyOf(c), Qt::CaseInsensitive)
            || (c == RunsTableModel::ExperimentColumn && m_experimentId != 0)  // one experiment: no need
            || (m_hideConstant && isConstantSetting(c));
        if (!hidden && m_table->isColumnHidden(c)) {
            m_table->setColumnHidden(c, false);
            m_table->resizeColumnToContents(c);  // shown again: its width for what it holds now
        } else {
            m_table->setColumnHidden(c, hidden);
        }
    }
}

void RunsView::setHideConstantSettings(bool on)
{
    m_hideConstant = on;
    m_chooser->setHideConstant(on);
    QSettings().setValue(QStringLiteral("Runs/hideConstantSettings"), on);
    applyHiddenColumns();
    updatePlots();
}

void RunsView::setColumnShown(const QString &key, bool shown)
{
    m_hidden.removeAll(key);
    if (!shown)
        m_hidden.append(key);
    QSettings().setValue(QStringLiteral("Runs/hiddenColumns"), m_hidden);
    applyHiddenColumns();
    updatePlots();
}

void RunsView::fillColumnsMenu()
{
    QList<ColumnChooser::Column> columns;
    for (int c = 0; c < m_model->columnCount(); ++c) {
        if (c == RunsTableModel::JobColumn || (c == RunsTableModel::ExperimentColumn && m_experimentId != 0))
            continue;
        const QString key = m_model->keyOf(c);
        columns.append({key, m_model->headerData(c, Qt::Horizontal).toString(), !m_hidden.contains(key, Qt::CaseInsensitive)});
    }
    m_chooser->setColumns(columns);
}

void RunsView::updateGroupChoices()
{
    // The columns runs can share a value in: the settings, the tags, the state, the cluster.
    const QString current = m_groups->groupKey();
    m_groupBy->clear();
    m_groupBy->addItem(tr("(nothing)"), QString());
    for (int c = 0; c < m_model->columnCount(); ++c) {
        if (c == RunsTableModel::JobColumn || c == RunsTableModel::StartedColumn || c == RunsTableModel::DurationColumn
            || c == RunsTableModel::NoteColumn || m_model->isMetricColumn(c))
            continue;
        m_groupBy->addItem(m_model->headerData(c, Qt::Horizontal).toString(), m_model->keyOf(c));
    }
    m_groupBy->setCurrentIndex(std::max(0, m_groupBy->findData(current)));
}

void RunsView::setGroupBy(const QString &key)
{
    m_groups->setGroupKey(key);
    m_groupBy->setCurrentIndex(std::max(0, m_groupBy->findData(key)));
    m_groupTable->setVisible(!key.isEmpty());
}

void RunsView::readNotes()
{
    const int request = ++m_notesRead;
    const QList<qint64> ids = m_model->jobIds();
    m_notes->read(ids)
        .then(this, [this, request, ids](const QHash<qint64, RunNote> &notes) {
            if (request != m_notesRead)
                return;
            m_model->setNotes(notes);
            QHash<qint64, QString> colors;
            for (auto it = notes.cbegin(); it != notes.cend(); ++it)
                colors.insert(it.key(), it->color);
            RunColors::instance()->setStored(colors, ids);
        });
}

void RunsView::requestSummaries()
{
    m_summaryTimer->stop();
    if (!m_workspaceId)
        return;
    readNotes();
    m_summaryRequest = m_backend->readRunSummaries(m_model->jobIds());
    // Metrics arrive without a new snapshot while jobs run: look again while one does.
    const ResourceSnapshot &snapshot = m_backend->snapshot();
    for (qint64 id : m_model->jobIds()) {
        if (const Job *job = snapshot.findJob(id); job && isActive(job->state)) {
            m_summaryTimer->start();
            break;
        }
    }
}

void RunsView::chooseJobs(const QList<qint64> &jobIds)
{
    QItemSelection selection;
    for (qint64 id : jobIds) {
        const int row = m_model->rowOf(id);
        if (row < 0)
            continue;
        const QModelIndex index = m_filter->mapFromSource(m_model->index(row, 0));
        if (index.isValid())
            selection.select(index, index.siblingAtColumn(m_filter->columnCount() - 1));
    }
    m_table->selectionModel()->select(selection, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    updateChosen();
}

void RunsView::updateChosen()
{
    if (!m_restoring.isEmpty())
        return;  // between a reset's start and end
    QList<int> rows;
    for (const QModelIndex &index : m_table->selectionModel()->selectedRows())
        rows.append(index.row());
    std::sort(rows.begin(), rows.end());
    QList<qint64> chosen;
    for (int row : std::as_const(rows))
        chosen.append(m_filter->index(row, 0).data(RunsTableModel::JobIdRole).toLongLong());
    if (chosen == m_chosen)
        return;
    m_chosen = chosen;

    const qint64 main = chosen.value(0);
    m_feed->setMainJob(main);  // drawn in full; the others overlaid below
    m_model->setMainJob(main);
    QList<QPair<qint64, QString>> others;
    const ResourceSnapshot &snapshot = m_backend->snapshot();
    const Job *mainJob = snapshot.findJob(main);
    m_charts->setRunName(mainJob ? mainJob->name : QString());
    m_charts->setMainColor(ChartLines::runColor(main));
    for (qint64 id : chosen.mid(1)) {
        const Job *job = snapshot.findJob(id);
        others.append({id, job ? job->name : QString::number(id)});
    }
    m_charts->setComparisonCandidates(others);  // drops the overlays no longer chosen
    for (const auto &[id, name] : std::as_const(others))
        m_charts->compareButton()->setChecked(id, true);
    m_charts->setVisible(main != 0);
    m_chartHint->setVisible(main == 0);
    updateStatus();
    updatePlots();
}

void RunsView::updatePlots()
{
    if (!m_restoring.isEmpty())
        return;  // between a reset's start and end: the chosen runs come back after it
    if (m_chosen.size() >= 2) {
        m_plots->setRuns(m_model, m_chosen, m_hidden, countOf(int(m_chosen.size()), tr("chosen run"), tr("chosen runs")));
        return;
    }
    QList<qint64> shown;
    for (int row = 0; row < m_filter->rowCount(); ++row)
        shown.append(m_filter->index(row, 0).data(RunsTableModel::JobIdRole).toLongLong());
    const QString what = shown.size() == m_model->rowCount() ? countOf(int(shown.size()), tr("run"), tr("runs"))
                                                             : tr("the %1 shown").arg(countOf(int(shown.size()), tr("run"), tr("runs")));
    m_plots->setRuns(m_model, shown, m_hidden, what);
}

void RunsView::showRunMenu(qint64 jobId, const QPoint &globalPos)
{
    if (!jobId)
        return;
    std::unique_ptr<QMenu> menu(runMenu(jobId));
    menu->exec(globalPos);
}

QMenu *RunsView::runMenu(qint64 jobId)
{
    const int row = m_model->rowOf(jobId);
    const QString name = m_model->index(row, RunsTableModel::JobColumn).data().toString();
    const Job *job = m_backend->snapshot().findJob(jobId);
    auto *menu = new QMenu(this);
    menu->setObjectName(QStringLiteral("runMenu"));
    const auto add = [menu](const QString &key, const QString &text, auto slot) {
        QAction *action = menu->addAction(text);
        action->setObjectName(key);
        QObject::connect(action, &QAction::triggered, menu->parent(), slot);
        return action;
    };
    QAction *open = add(QStringLiteral("openRun"), tr("&Open"), [this, jobId] { Q_EMIT jobActivated(jobId); });
    menu->setDefaultAction(open);
    // Compare: the run joins the chosen ones (their charts overlaid below), or leaves them.
    const bool chosen = m_chosen.contains(jobId);
    add(QStringLiteral("compareRun"), chosen ? tr("Remove from the co&mparison") : tr("Co&mpare with the chosen runs"),
        [this, jobId, chosen] {
            QList<qint64> ids = m_chosen;
            chosen ? void(ids.removeAll(jobId)) : ids.append(jobId);
            chooseJobs(ids);
        });
    add(QStringLiteral("cloneRun"), tr("C&lone…"), [this, jobId] { Q_EMIT cloneRequested(jobId); });
    add(QStringLiteral("tagRun"), tr("&Tags…"), [this, jobId] {
        // Edited in its cell, as a double click there does (shown first if hidden).
        setColumnShown(QStringLiteral("tags"), true);
        const QModelIndex cell = m_filter->mapFromSource(m_model->index(m_model->rowOf(jobId), RunsTableModel::TagsColumn));
        m_table->setCurrentIndex(cell);
        m_table->scrollTo(cell);
        m_table->edit(cell);
    });
    QAction *download = add(QStringLiteral("downloadRunModel"), tr("&Download model…"), [this, jobId] {
        const QString base = QFileDialog::getExistingDirectory(this, tr("Download the model to"), DownloadPaths::dialogFolder());
        if (base.isEmpty())
            return;
        DownloadPaths::setBaseFolder(base);
        downloadModelTo(jobId, base);
    });
    download->setEnabled(job && !job->jobDir.isEmpty() && !m_modelDownload->busy());
    download->setToolTip(tr("The files of its output directories, without checkpoints"));
    menu->addSeparator();
    QAction *remove = add(QStringLiteral("deleteRun"), tr("D&elete…"), [this, jobId] { Q_EMIT deleteRequested(jobId); });
    remove->setEnabled(job && job->state != JobState::Queued && !isActive(job->state));
    menu->addSeparator();
    add(QStringLiteral("colourRun"), tr("&Colour…"), [this, jobId, name] {
        const QColor color = QColorDialog::getColor(m_model->colorOf(jobId), this, tr("Colour of %1").arg(name));
        if (color.isValid())
            chooseColor(jobId, color);
    });
    QAction *automatic = add(QStringLiteral("automaticColourRun"), tr("&Automatic colour"), [this, jobId] { chooseColor(jobId, QColor()); });
    automatic->setEnabled(RunColors::instance()->chosen(jobId).isValid());
    menu->setToolTipsVisible(true);
    return menu;
}

void RunsView::downloadModelTo(qint64 jobId, const QString &base)
{
    const Job *job = m_backend->snapshot().findJob(jobId);
    const auto *experiment = job ? m_backend->snapshot().findExperiment(job->experimentId) : nullptr;
    const auto *workspace = experiment ? m_backend->snapshot().findWorkspace(experiment->experiment.workspaceId) : nullptr;
    if (!workspace || m_modelDownload->busy())
        return;
    m_modelDownload->start(jobId, DownloadPaths::jobFolder(base, workspace->workspace.name, experiment->experiment.name, job->name));
}

void RunsView::chooseColor(qint64 jobId, const QColor &color)
{
    m_model->setColorOf(jobId, color);
}

void RunsView::exportCsv(const QString &path)
{
    m_exportPath = path;
    m_exportRequest = m_backend->writeFile(path, m_model->toCsv());
}

void RunsView::updateStatus()
{
    const int shown = m_filter->rowCount();
    const int all = m_model->rowCount();
    m_count->setText(shown == all ? countOf(all, tr("job"), tr("jobs")) : tr("%1 of %2 jobs").arg(shown).arg(all));
    const QStringList unknown = m_filter->unknownKeys();
    unknown.isEmpty() ? ErrorText::clear(m_filterEdit) : ErrorText::mark(m_filterEdit);
    if (!unknown.isEmpty())
        m_status->setText(tr("No column is called %1.").arg(unknown.join(QStringLiteral(", "))));
    else if (m_status->text().startsWith(tr("No column")))
        m_status->clear();
}

QString RunsView::statusText() const
{
    return m_status->text();
}

} // namespace TrainDesk::Ui
