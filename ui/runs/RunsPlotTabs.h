#pragma once

#include "RunsParameterTable.h"
#include "charts/ParameterTable.h"

#include <QPointer>
#include <QTabWidget>
#include <QTimer>

class QComboBox;
class QLabel;

namespace TrainDesk::Ui {

class ParallelCoordinatesPlot;
class ParameterScatterPlot;
class RunsTableModel;

// Below the runs table: the chosen runs' charts, and the settings of a set of runs against a
// metric, as parallel coordinates and as a scatter of one setting. The metric (and the
// scatter's setting) are chosen beside the tabs, so the plots take no height of their own.
class RunsPlotTabs : public QTabWidget
{
    Q_OBJECT

public:
    enum Tab { ChartsTab, ParallelTab, ScatterTab };

    RunsPlotTabs(QWidget *chartsPage, QWidget *parent = nullptr);

    // Draws the runs `jobIds` of `model` (in this order) with the setting columns not in
    // `hiddenKeys`. `what` says which runs they are ("3 chosen runs").
    void setRuns(const RunsTableModel *model, const QList<qint64> &jobIds, const QStringList &hiddenKeys,
                 const QString &what);
    // The metric column the plots use, by key ("best_val_acc"); the scatter's setting by name.
    void setMetric(const QString &key);
    QString metric() const;
    void setParameter(const QString &name);
    QString parameter() const;
    // (Made now when the runs changed while the Charts tab was shown.)
    const ParameterTable &table() const;
    QList<qint64> drawnJobs() const { return m_jobIds; }
    ParallelCoordinatesPlot *parallel() const { return m_parallel; }
    ParameterScatterPlot *scatter() const { return m_scatter; }
    QComboBox *metricBox() const { return m_metric; }
    QComboBox *parameterBox() const { return m_parameter; }

Q_SIGNALS:
    // A run's line or dot was clicked in a plot.
    void runClicked(qint64 jobId);

private:
    void rebuild();
    void updateCorner();
    void updateTips();
    QString chosenMetric() const;
    void watch(const RunsTableModel *model);
    void modelChanged();

    QPointer<const RunsTableModel> m_model;
    QList<qint64> m_jobIds;
    QStringList m_hidden;
    QString m_what;
    QString m_metricKey;     // the user's choice, kept while the columns come and go
    QString m_parameterName;
    // The runs changed while the Charts tab was shown: the plots are made when one of theirs
    // is (10,000 runs: a second of the GUI thread's time per change otherwise).
    bool m_stale = false;
    // The model's settings, metrics, colours or columns changed since the table was made. A
    // setRuns() of the same runs (a run chosen, a tag edited) keeps the table; this makes it
    // again (at m_refresh, the model's signal reaches the runs view and here in either order).
    bool m_modelChanged = false;
    QTimer m_refresh;
    // Every run's settings, read from the model once per change of it (m_settingsStale):
    // another filter or choice of runs picks rows from them.
    RunsParameterTable::Settings m_settings;
    bool m_settingsStale = true;
    ParameterTable m_table;
    ParallelCoordinatesPlot *m_parallel;
    ParameterScatterPlot *m_scatter;
    QWidget *m_corner;
    QComboBox *m_metric;
    QLabel *m_parameterLabel;
    QComboBox *m_parameter;
};

} // namespace TrainDesk::Ui
