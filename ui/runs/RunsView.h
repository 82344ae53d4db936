#pragma once

#include <QWidget>

class QColor;
class QComboBox;
class QLabel;
class QMenu;
class QLineEdit;
class QToolButton;
class QPushButton;
class QSplitter;
class QTableView;
class QTimer;

namespace TrainDesk {
class Backend;
class RunNotesAccess;
}

namespace TrainDesk::Ui {

class ColumnChooser;
class JobMetricsFeed;
class MetricSeries;
class MetricsChartView;
class RunsFilterModel;
class RunsGroupModel;
class RunsPlotTabs;
class RunsTableModel;

// The runs of an experiment or a workspace side by side: the table (RunsTableModel, sorted
// and filtered by RunsFilterModel), CSV export, and below it (RunsPlotTabs) the charts of
// the chosen rows (the first chosen job drawn as on its own page, the others overlaid on
// it) and their settings against a metric: parallel coordinates and a scatter, over the
// chosen runs, or every run shown when fewer than two are chosen.
class TrialModelDownload;

class RunsView : public QWidget
{
    Q_OBJECT

public:
    explicit RunsView(Backend *backend, QWidget *parent = nullptr);

    // The jobs of `experimentId`, or of every experiment of `workspaceId` when it is 0;
    // (0, 0) shows nothing and stops watching. Call again on every snapshot.
    void showScope(qint64 workspaceId, qint64 experimentId);
    // Chooses these jobs' rows (their charts overlaid), in this order.
    void chooseJobs(const QList<qint64> &jobIds);
    QList<qint64> chosenJobs() const { return m_chosen; }
    // The colour of a run wherever it is drawn, stored with its note (the row's menu's
    // Colour…); an invalid colour: the automatic one again.
    void chooseColor(qint64 jobId, const QColor &color);
    // Writes the table as CSV (in the worker); exported() answers.
    void exportCsv(const QString &path);

    RunsTableModel *model() const { return m_model; }
    RunsFilterModel *filterModel() const { return m_filter; }
    QTableView *table() const { return m_table; }
    // Columns the user hid with the Columns menu (by key, remembered).
    QStringList hiddenColumns() const { return m_hidden; }
    void setColumnShown(const QString &key, bool shown);
    // Setting columns whose value is the same in every run are hidden (remembered).
    void setHideConstantSettings(bool on);
    bool hidesConstantSettings() const { return m_hideConstant; }
    // The Columns button's menu and the chooser in it.
    QToolButton *columnsButton() const { return m_columns; }
    ColumnChooser *columnChooser() const { return m_chooser; }
    // Groups of the shown runs by a column's value, with each metric's mean and spread.
    void setGroupBy(const QString &key);
    RunsGroupModel *groupModel() const { return m_groups; }
    QTableView *groupTable() const { return m_groupTable; }
    QLineEdit *filterEdit() const { return m_filterEdit; }
    MetricsChartView *charts() const { return m_charts; }
    MetricSeries *series() const { return m_series; }
    RunsPlotTabs *plots() const { return m_plots; }
    QString statusText() const;

    // A row's menu (right click, the Menu key): open, compare, clone, tags, download the
    // model, delete, colour. The caller owns it (showRunMenu runs it).
    QMenu *runMenu(qint64 jobId);
    // The job's model (its output directories, checkpoints left out) into its folder below
    // `base` (DownloadPaths::jobFolder); the status line says how it went.
    void downloadModelTo(qint64 jobId, const QString &base);
    TrialModelDownload *modelDownload() const { return m_modelDownload; }

Q_SIGNALS:
    void jobActivated(qint64 jobId);  // double-click, or Open: show the job's own page
    // The menu's Clone… and Delete…: the main window's, which ask as they do from the tree.
    void cloneRequested(qint64 jobId);
    void deleteRequested(qint64 jobId);
    void statusMessage(const QString &text);  // the model download's progress and result
    void exported(const QString &path, const QString &error);

private:
    // The constructor's parts, in the order it calls them.
    void setUpTable();
    void setUpColumnsMenu();
    void setUpGroupsAndHints();
    void layOut();
    void connectTableAndSummaries();
    void connectNotesAndGroups();
    void connectRunMenuAndColours();
    void connectPlots();
    void requestSummaries();
    void updateChosen();
    void updateStatus();
    void applyHiddenColumns();
    void fillColumnsMenu();
    bool isConstantSetting(int column) const;
    void updateGroupChoices();
    void readNotes();
    void updatePlots();
    void showRunMenu(qint64 jobId, const QPoint &globalPos);

    Backend *m_backend;
    TrialModelDownload *m_modelDownload;
    RunsTableModel *m_model;
    RunsFilterModel *m_filter;
    QLineEdit *m_filterEdit;
    QLabel *m_count;
    QPushButton *m_export;
    QTableView *m_table;
    QSplitter *m_splitter;
    QLabel *m_chartHint;
    MetricSeries *m_series;
    MetricsChartView *m_charts;
    QLabel *m_status;
    QTimer *m_summaryTimer;
    qint64 m_workspaceId = 0;
    qint64 m_experimentId = 0;
    int m_summaryRequest = 0;
    int m_exportRequest = 0;
    QString m_exportPath;
    QList<qint64> m_chosen;  // in the table's order; the first is drawn in full
    JobMetricsFeed *m_feed;
    QList<qint64> m_restoring;  // the chosen jobs, chosen again after a model reset
    QToolButton *m_columns;
    QStringList m_hidden;
    bool m_hideConstant = false;
    ColumnChooser *m_chooser = nullptr;
    QComboBox *m_groupBy;
    RunsGroupModel *m_groups;
    QTableView *m_groupTable;
    int m_notesRead = 0;  // the newest read of the notes: older answers are dropped
    RunNotesAccess *m_notes;  // tags, notes and colours, off the GUI thread
    RunsPlotTabs *m_plots;  // one thread: notes are written and read in the order asked
};

} // namespace TrainDesk::Ui
