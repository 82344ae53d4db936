#pragma once

#include "jobspec/RunParameters.h"
#include "metrics/RunSummary.h"
#include "session/ResourceSnapshot.h"
#include "store/RunNote.h"

#include <QAbstractTableModel>
#include <QTimer>

#include <optional>

namespace TrainDesk::Ui {

// The runs table: one row per job of an experiment (or of every experiment of a workspace)
// with its state, cluster, nodes x processes, start and duration, the last and best value
// of each metric and its settings (the trainer's info record, else the command line's
// `--name value` pairs). Widget-free: sorting (SortRole), filtering (RunsFilterModel)
// and CSV are tested without a window.
class RunsTableModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Column { JobColumn, ExperimentColumn, StateColumn, ClusterColumn, ShapeColumn, StartedColumn,
                  DurationColumn, TagsColumn, NoteColumn, FixedColumns };
    enum Role { SortRole = Qt::UserRole + 1, JobIdRole, KeyRole };

    explicit RunsTableModel(QObject *parent = nullptr);

    // The jobs of `experimentId`, or of every experiment of `workspaceId` when it is 0.
    void setScope(qint64 workspaceId, qint64 experimentId);
    void setSnapshot(const ResourceSnapshot &snapshot);
    void setSummaries(const RunSummaries &summaries);
    // The user's tags and notes (store/RunNotes), by job id; edited in the Tags and Note
    // cells, which ask for the change with noteEdited().
    void setNotes(const QHash<qint64, RunNote> &notes);
    RunNote noteOf(qint64 jobId) const { return m_notes.value(jobId); }
    // The run drawn in full below the table: its swatch is the shown run's blue, the others'
    // their own colour (ChartLines::runColor), as the charts draw them.
    void setMainJob(qint64 jobId);
    // The colour a run is drawn in here: the swatch beside its name, the plots' line or dot.
    QColor colorOf(qint64 jobId) const;
    // The user chose a colour for a run (invalid: back to the automatic one): every view draws
    // it so at once (RunColors), and noteEdited() asks the owner to store it.
    void setColorOf(qint64 jobId, const QColor &color);
    QList<qint64> jobIds() const;
    int rowOf(qint64 jobId) const;
    // The column a filter names: "state", "epochs", "val_acc" (last), "best_val_acc"; -1.
    int columnOfKey(const QString &key) const;
    QString keyOf(int column) const;
    // A metric's last or best value (not a setting nor a fixed column).
    bool isMetricColumn(int column) const;
    // Every cell's text of the row (as shown), case-folded and joined by '\x1f': what the
    // filter's text-anywhere terms look in. Made once per change of the row (a snapshot, the
    // summaries, a tag or note), not for every cell at every keystroke (370,000 data() calls
    // for 10,000 runs). (A running job's duration in it is that of the last change.)
    const QString &searchTextOf(int row) const;
    // Whether every row's search text is made (they are made while the GUI is idle).
    bool searchTextsMade() const;
    // Every row and column as CSV (RFC 4180 quoting), header first.
    QByteArray toCsv() const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    Qt::ItemFlags flags(const QModelIndex &index) const override;
    bool setData(const QModelIndex &index, const QVariant &value, int role = Qt::EditRole) override;

Q_SIGNALS:
    // The user changed a run's tags or note: the owner stores it, then setNotes() again.
    void noteEdited(qint64 jobId, const TrainDesk::RunNote &note);

private:
    struct Row
    {
        Job job;
        QString experiment;
        QString cluster;
        QMap<QString, QString> parameters;  // from the command line; the info record wins
        RunParameters::Shape shape;         // read once: sorting asks for it often
        bool imported = false;              // from a TensorBoard folder: no cluster, no nodes
    };
    struct ExtraColumn
    {
        enum Kind { Parameter, Last, Best } kind;
        QString name;
    };
    void rebuild();
    // Whether a row's search text stays what it was (the same job fields and summary).
    bool sameText(const Row &before, const Row &after) const;
    void makeSearchTextsWhenIdle();
    QVariant cell(const Row &row, int column, bool forSort) const;
    QString parameter(const Row &row, const QString &name) const;

    ResourceSnapshot m_snapshot;
    RunSummaries m_summaries;
    QHash<qint64, RunNote> m_notes;
    qint64 m_mainJob = 0;
    qint64 m_workspaceId = 0;
    qint64 m_experimentId = 0;
    QList<Row> m_rows;
    QHash<qint64, int> m_rowOfJob;  // rowOf() in constant time: the plots and chooseJobs ask per run
    // Each job's settings and shape as read from its spec (the same bytes: not parsed again at
    // each snapshot and summary read; 10,000 specs are 20,000 JSON parses).
    struct ParsedSpec
    {
        QByteArray spec;
        QMap<QString, QString> parameters;
        RunParameters::Shape shape;
    };
    QHash<qint64, ParsedSpec> m_parsed;
    QList<ExtraColumn> m_extra;
    mutable QList<QString> m_searchText;  // by row; a null string: to make (searchTextOf)
    QTimer m_searchTimer;  // makes the search texts while idle, from row m_searchMade on
    int m_searchMade = 0;
    std::optional<RunSummaries> m_previousSummaries;  // during setSummaries' rebuild: those before

public:
    // Row `row` as the plots read it, without data(): 10,000 rows x every setting as text
    // through QVariants took 440 ms. A setting is `summary->info`'s, else `commandLine`'s,
    // as its column shows it; `summary` is null for a run without one.
    struct RowView
    {
        const Job *job;
        const RunSummary *summary;
        const QMap<QString, QString> *commandLine;
    };
    RowView rowView(int row) const
    {
        const Row &r = m_rows.at(row);
        const auto summary = m_summaries.constFind(r.job.id);
        return {&r.job, summary == m_summaries.cend() ? nullptr : &*summary, &r.parameters};
    }
};

} // namespace TrainDesk::Ui
