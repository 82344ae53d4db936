#include "RunsTableModel.h"

#include "charts/ChartLines.h"
#include "charts/RunColors.h"
#include "common/StateStyle.h"
#include "common/CsvField.h"

#include <QIcon>
#include <QPixmap>
#include <QSet>

#include <algorithm>

namespace TrainDesk::Ui {

namespace {

qint64 durationOf(const Job &job)
{
    if (!job.started.isValid())
        return -1;
    const QDateTime end = job.ended.isValid() ? job.ended : QDateTime::currentDateTimeUtc();
    return job.started.secsTo(end);
}

QString metricText(double value)
{
    return QString::number(value, 'g', 5);
}

} // namespace

RunsTableModel::RunsTableModel(QObject *parent) : QAbstractTableModel(parent)
{
    // The rows' search texts are made while the GUI is idle, a few hundred rows at a time,
    // so that the first text filter after a change finds them made.
    m_searchTimer.setSingleShot(true);
    connect(&m_searchTimer, &QTimer::timeout, this, [this] {
        constexpr int rowsAtATime = 250;
        int made = 0;
        for (int r = m_searchMade; r < m_rows.size() && made < rowsAtATime; ++r, ++m_searchMade) {
            if (m_searchText.size() != m_rows.size() || m_searchText.at(r).isNull()) {
                searchTextOf(r);
                ++made;
            }
        }
        if (m_searchMade < m_rows.size())
            m_searchTimer.start(0);
    });
    // A colour chosen (here or in another table): the swatches again.
    connect(RunColors::instance(), &RunColors::changed, this, [this] {
        if (!m_rows.isEmpty()) {
            Q_EMIT headerDataChanged(Qt::Vertical, 0, rowCount() - 1);
            Q_EMIT dataChanged(index(0, JobColumn), index(rowCount() - 1, JobColumn), {Qt::DecorationRole});
        }
    });
}

void RunsTableModel::setColorOf(qint64 jobId, const QColor &color)
{
    if (rowOf(jobId) < 0)
        return;
    RunNote note = m_notes.value(jobId);
    note.color = color.isValid() ? color.name(QColor::HexRgb) : QString();
    m_notes.insert(jobId, note);
    RunColors::instance()->setChosen(jobId, color);  // drawn so at once; the owner stores it
    Q_EMIT noteEdited(jobId, note);
}

void RunsTableModel::setScope(qint64 workspaceId, qint64 experimentId)
{
    m_workspaceId = workspaceId;
    m_experimentId = experimentId;
    rebuild();
}

void RunsTableModel::setSnapshot(const ResourceSnapshot &snapshot)
{
    m_snapshot = snapshot;
    rebuild();
}

void RunsTableModel::setSummaries(const RunSummaries &summaries)
{
    m_previousSummaries = std::exchange(m_summaries, summaries);
    rebuild();
    m_previousSummaries.reset();
}

void RunsTableModel::setNotes(const QHash<qint64, RunNote> &notes)
{
    if (notes == m_notes)
        return;
    m_notes = notes;
    m_searchText.clear();
    makeSearchTextsWhenIdle();
    if (!m_rows.isEmpty())
        Q_EMIT dataChanged(index(0, TagsColumn), index(rowCount() - 1, NoteColumn));
}

void RunsTableModel::setMainJob(qint64 jobId)
{
    if (jobId == m_mainJob)
        return;
    m_mainJob = jobId;
    if (!m_rows.isEmpty())
        Q_EMIT headerDataChanged(Qt::Vertical, 0, rowCount() - 1);
}

QColor RunsTableModel::colorOf(qint64 jobId) const
{
    // The same colour whether or not the run is the one drawn in full (it changed when a run
    // became the first chosen).
    return ChartLines::runColor(jobId);
}

Qt::ItemFlags RunsTableModel::flags(const QModelIndex &index) const
{
    Qt::ItemFlags f = QAbstractTableModel::flags(index);
    if (index.isValid() && (index.column() == TagsColumn || index.column() == NoteColumn))
        f |= Qt::ItemIsEditable;
    return f;
}

bool RunsTableModel::setData(const QModelIndex &index, const QVariant &value, int role)
{
    if (!index.isValid() || role != Qt::EditRole || index.row() >= m_rows.size()
        || (index.column() != TagsColumn && index.column() != NoteColumn))
        return false;
    const qint64 id = m_rows.at(index.row()).job.id;
    RunNote note = m_notes.value(id);
    if (index.column() == TagsColumn)
        note.tags = RunNotes::parseTags(value.toString());
    else
        note.note = value.toString().trimmed();
    m_notes.insert(id, note);  // shown at once; the owner stores it
    if (index.row() < m_searchText.size())
        m_searchText[index.row()] = QString();
    makeSearchTextsWhenIdle();
    Q_EMIT dataChanged(index, index);
    Q_EMIT noteEdited(id, note);
    return true;
}

void RunsTableModel::rebuild()
{
    QList<Row> rows;
    QHash<qint64, ParsedSpec> parsed;
    const ResourceSnapshot::WorkspaceEntry *ws = m_snapshot.findWorkspace(m_workspaceId);
    if (ws) {
        for (const auto &exp : ws->experiments) {
            if (m_experimentId && exp.experiment.id != m_experimentId)
                continue;
            for (const Job &job : exp.jobs) {
                const auto *cluster = m_snapshot.findCluster(job.clusterId);
                const bool imported = m_snapshot.importedRuns.contains(job.id);
                auto known = m_parsed.constFind(job.id);
                ParsedSpec spec = known != m_parsed.constEnd() && known->spec == job.spec
                                      ? *known
                                      : ParsedSpec{job.spec, RunParameters::fromCommandLine(RunParameters::commandLineOf(job.spec)),
                                                   RunParameters::shapeOf(job.spec)};
                rows.append({job, exp.experiment.name, cluster && !imported ? cluster->cluster.name : QString(),
                             spec.parameters, spec.shape, imported});
                parsed.insert(job.id, spec);
            }
        }
    }
    m_parsed = parsed;
    // Each metric's last and best value first (what runs are compared by), then the
    // settings, each group by name.
    QSet<QString> parameterNames;
    QSet<QString> metricNames;
    for (const Row &row : std::as_const(rows)) {
        for (auto it = row.parameters.cbegin(); it != row.parameters.cend(); ++it)
            parameterNames.insert(it.key());
        const RunSummary summary = m_summaries.value(row.job.id);
        for (auto it = summary.info.cbegin(); it != summary.info.cend(); ++it)
            parameterNames.insert(it.key());
        for (auto it = summary.metrics.cbegin(); it != summary.metrics.cend(); ++it)
            metricNames.insert(it.key());
    }
    QStringList parameters(parameterNames.cbegin(), parameterNames.cend());
    QStringList metrics(metricNames.cbegin(), metricNames.cend());
    parameters.sort();
    metrics.sort();
    QList<ExtraColumn> extra;
    for (const QString &name : std::as_const(metrics)) {
        extra.append({ExtraColumn::Last, name});
        extra.append({ExtraColumn::Best, name});
    }
    for (const QString &name : std::as_const(parameters))
        extra.append({ExtraColumn::Parameter, name});

    bool sameShape = rows.size() == m_rows.size() && extra.size() == m_extra.size();
    for (qsizetype i = 0; sameShape && i < rows.size(); ++i)
        sameShape = rows.at(i).job.id == m_rows.at(i).job.id;
    for (qsizetype i = 0; sameShape && i < extra.size(); ++i)
        sameShape = extra.at(i).kind == m_extra.at(i).kind && extra.at(i).name == m_extra.at(i).name;
    QHash<qint64, int> rowOfJob;
    rowOfJob.reserve(rows.size());
    for (qsizetype i = 0; i < rows.size(); ++i)
        rowOfJob.insert(rows.at(i).job.id, int(i));
    if (sameShape) {
        // In place: the view keeps its selection, sort and scroll position, and the search
        // texts of the rows that did not change (summaries re-read every 2 s while a job runs).
        QList<QString> texts(rows.size());
        for (qsizetype i = 0; i < rows.size() && m_searchText.size() == m_rows.size(); ++i) {
            if (sameText(m_rows.at(i), rows.at(i)))
                texts[i] = m_searchText.at(i);
        }
        m_searchText = texts;
        m_rows = rows;
        m_rowOfJob = rowOfJob;
        makeSearchTextsWhenIdle();
        if (!m_rows.isEmpty())
            Q_EMIT dataChanged(index(0, 0), index(rowCount() - 1, columnCount() - 1));
        return;
    }
    m_searchText.clear();
    beginResetModel();
    m_rows = rows;
    m_rowOfJob = rowOfJob;
    m_extra = extra;
    endResetModel();
    makeSearchTextsWhenIdle();
}

bool RunsTableModel::sameText(const Row &before, const Row &after) const
{
    const Job &a = before.job;
    const Job &b = after.job;
    // A running job's duration moves on; its values too.
    if (isActive(b.state) || a.state != b.state || a.name != b.name || a.started != b.started || a.ended != b.ended
        || a.exitCode != b.exitCode || a.errors.size() != b.errors.size() || a.spec != b.spec
        || before.experiment != after.experiment || before.cluster != after.cluster || before.imported != after.imported)
        return false;
    // The summary read again and unchanged is the same shared data (RunSummaryReader keeps it).
    const RunSummary old = m_previousSummaries ? m_previousSummaries->value(b.id) : m_summaries.value(b.id);
    const RunSummary now = m_summaries.value(b.id);
    return old.metrics.isSharedWith(now.metrics) && old.info.isSharedWith(now.info);
}

QList<qint64> RunsTableModel::jobIds() const
{
    QList<qint64> ids;
    for (const Row &row : m_rows)
        ids.append(row.job.id);
    return ids;
}

int RunsTableModel::rowOf(qint64 jobId) const
{
    return m_rowOfJob.value(jobId, -1);
}

QString RunsTableModel::keyOf(int column) const
{
    static const char *const fixed[] = {"job", "experiment", "state", "cluster", "nodes", "started", "duration", "tag", "note"};
    if (column >= 0 && column < FixedColumns)
        return QLatin1String(fixed[column]);
    const int extra = column - FixedColumns;
    if (extra < 0 || extra >= m_extra.size())
        return {};
    const ExtraColumn &c = m_extra.at(extra);
    return c.kind == ExtraColumn::Best ? QStringLiteral("best_") + c.name : c.name;
}

bool RunsTableModel::isMetricColumn(int column) const
{
    const int extra = column - FixedColumns;
    return extra >= 0 && extra < m_extra.size() && m_extra.at(extra).kind != ExtraColumn::Parameter;
}

int RunsTableModel::columnOfKey(const QString &key) const
{
    for (int c = 0; c < columnCount(); ++c) {
        if (keyOf(c).compare(key, Qt::CaseInsensitive) == 0)
            return c;
    }
    return -1;
}

int RunsTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int RunsTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : FixedColumns + int(m_extra.size());
}

QString RunsTableModel::parameter(const Row &row, const QString &name) const
{
    if (const auto summary = m_summaries.constFind(row.job.id); summary != m_summaries.cend()) {
        if (const auto it = summary->info.constFind(name); it != summary->info.cend())
            return *it;
    }
    return row.parameters.value(name);
}

QVariant RunsTableModel::cell(const Row &row, int column, bool forSort) const
{
    const Job &job = row.job;
    switch (column) {
    case JobColumn: return job.name;
    case ExperimentColumn: return row.experiment;
    case StateColumn: return row.imported ? tr("imported") : jobStateText(job);  // as `job list` says it
    case ClusterColumn: return row.cluster;
    case ShapeColumn: {
        if (row.imported)
            return forSort ? QVariant(0) : QVariant(QString());
        const RunParameters::Shape &shape = row.shape;
        if (forSort)
            return shape.processes * 1000 + shape.nodes;
        return QStringLiteral("%1 × %2").arg(shape.nodes).arg(shape.processes / shape.nodes);
    }
    case StartedColumn:
        if (forSort)
            return job.started.isValid() ? job.started.toMSecsSinceEpoch() : qint64(-1);
        return job.started.isValid() ? formatTime(job.started) : QString();
    case DurationColumn: {
        const qint64 seconds = durationOf(job);
        if (forSort)
            return seconds;
        return seconds < 0 ? QString() : formatDuration(seconds);
    }
    case TagsColumn: return m_notes.value(job.id).tags.join(QStringLiteral(", "));
    case NoteColumn: return m_notes.value(job.id).note;
    default: break;
    }
    const ExtraColumn &extra = m_extra.at(column - FixedColumns);
    if (extra.kind == ExtraColumn::Parameter) {
        const QString text = parameter(row, extra.name);
        bool number = false;
        const double value = text.toDouble(&number);
        return forSort && number ? QVariant(value) : QVariant(text);
    }
    const auto summary = m_summaries.constFind(job.id);
    if (summary == m_summaries.cend() || !summary->metrics.contains(extra.name))
        return forSort ? QVariant() : QVariant(QString());
    const RunSummary::Value value = summary->metrics.value(extra.name);
    const double v = extra.kind == ExtraColumn::Last ? value.last : value.best;
    return forSort ? QVariant(v) : QVariant(metricText(v));
}

QVariant RunsTableModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= m_rows.size() || index.column() >= columnCount())
        return {};
    const Row &row = m_rows.at(index.row());
    switch (role) {
    case Qt::DisplayRole:
    case Qt::EditRole: return cell(row, index.column(), false);
    case SortRole: return cell(row, index.column(), true);
    case JobIdRole: return row.job.id;
    case Qt::DecorationRole:
        // The run's colour in the overlaid charts, the same in every view.
        if (index.column() == JobColumn)
            return colorOf(row.job.id);
        return index.column() == StateColumn ? QVariant(stateIcon(jobStateColor(row.job))) : QVariant();
    case Qt::ToolTipRole:
        if (index.column() == StateColumn && row.imported)
            return tr("Imported from the TensorBoard folder %1, read where it is").arg(row.job.jobDir);
        if (index.column() == StateColumn && !row.job.errors.isEmpty())
            return QStringLiteral("%1: %2").arg(row.job.errors.first().code, row.job.errors.first().message);
        return cell(row, index.column(), false);
    case Qt::TextAlignmentRole:
        return index.column() >= FixedColumns || index.column() == DurationColumn
                   ? QVariant(Qt::AlignRight | Qt::AlignVCenter) : QVariant();
    default: return {};
    }
}

QVariant RunsTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation == Qt::Vertical) {
        // The job's name beside its row: the view shows it as a column that stays in view
        // while the others scroll.
        if (section < 0 || section >= m_rows.size())
            return {};
        const Row &row = m_rows.at(section);
        switch (role) {
        case Qt::DisplayRole: return row.job.name;
        case Qt::DecorationRole: {
            // A header draws icons, not colours: a swatch of the run's colour.
            QPixmap swatch(10, 10);
            swatch.fill(colorOf(row.job.id));
            return QIcon(swatch);
        }
        case Qt::ToolTipRole:
            return tr("%1 (%2): double-click for its page").arg(row.job.name, row.imported ? tr("imported") : jobStateText(row.job));
        case Qt::TextAlignmentRole: return QVariant(Qt::AlignLeft | Qt::AlignVCenter);
        default: return {};
        }
    }
    if (section < 0 || section >= columnCount())
        return {};
    if (role == KeyRole)
        return keyOf(section);
    if (role == Qt::ToolTipRole) {
        if (section == TagsColumn || section == NoteColumn)
            return tr("Your own words on the run (F2 or click a chosen cell to edit; tags separated by commas). "
                      "Filter with %1:text").arg(keyOf(section));
        if (section < FixedColumns)
            return tr("Filter with %1:text").arg(keyOf(section));
        const ExtraColumn &c = m_extra.at(section - FixedColumns);
        const QString what = c.kind == ExtraColumn::Parameter
                                 ? tr("Setting %1 (the trainer's info record, else the command line)").arg(c.name)
                             : c.kind == ExtraColumn::Last ? tr("The last value of %1").arg(c.name)
                             : tr("The best value of %1 (%2)").arg(c.name, RunSummary::lowerIsBetter(c.name)
                                                                               ? tr("lowest") : tr("highest"));
        return tr("%1. Filter with %2>0.5, %2<0.5 or %2:text").arg(what, keyOf(section));
    }
    if (role != Qt::DisplayRole)
        return {};
    switch (section) {
    case JobColumn: return tr("Job");
    case ExperimentColumn: return tr("Experiment");
    case StateColumn: return tr("State");
    case ClusterColumn: return tr("Cluster");
    case ShapeColumn: return tr("Nodes × proc.");
    case StartedColumn: return tr("Started");
    case DurationColumn: return tr("Duration");
    case TagsColumn: return tr("Tags");
    case NoteColumn: return tr("Note");
    default: break;
    }
    const ExtraColumn &c = m_extra.at(section - FixedColumns);
    switch (c.kind) {
    case ExtraColumn::Parameter: return c.name;
    case ExtraColumn::Last: return tr("%1 (last)").arg(c.name);
    case ExtraColumn::Best: return tr("%1 (best)").arg(c.name);
    }
    return {};
}

void RunsTableModel::makeSearchTextsWhenIdle()
{
    m_searchMade = 0;
    // A moment after the change: not in the way of the table's first layout and paint.
    m_searchTimer.start(300);
}

bool RunsTableModel::searchTextsMade() const
{
    if (m_searchText.size() != m_rows.size())
        return m_rows.isEmpty();
    return std::none_of(m_searchText.cbegin(), m_searchText.cend(), [](const QString &t) { return t.isNull(); });
}

const QString &RunsTableModel::searchTextOf(int row) const
{
    static const QString none;
    if (row < 0 || row >= m_rows.size())
        return none;
    if (m_searchText.size() != m_rows.size())
        m_searchText = QList<QString>(m_rows.size());
    QString &text = m_searchText[row];
    if (text.isNull()) {
        const Row &r = m_rows.at(row);
        text = QStringLiteral("");  // not null: made, even when every cell is empty
        for (int c = 0; c < columnCount(); ++c) {
            if (c > 0)
                text += QChar(0x1f);
            text += cell(r, c, false).toString();
        }
        text = text.toCaseFolded();
    }
    return text;
}

QByteArray RunsTableModel::toCsv() const
{
    QStringList lines;
    QStringList header;
    for (int c = 0; c < columnCount(); ++c)
        header << csvField(keyOf(c));
    lines << header.join(QLatin1Char(','));
    for (int r = 0; r < rowCount(); ++r) {
        QStringList fields;
        for (int c = 0; c < columnCount(); ++c) {
            // Numbers in full, times in ISO 8601: a spreadsheet reads them as such.
            QVariant v = c == StartedColumn ? QVariant(m_rows.at(r).job.started.toUTC().toString(Qt::ISODate))
                         : c == DurationColumn ? QVariant(durationOf(m_rows.at(r).job))
                                               : data(index(r, c), SortRole);
            if (c == ShapeColumn || c == StateColumn || (c == DurationColumn && v.toLongLong() < 0))
                v = c == DurationColumn ? QVariant(QString()) : data(index(r, c), Qt::DisplayRole);
            fields << csvField(v.typeId() == QMetaType::Double ? QString::number(v.toDouble(), 'g', 17) : v.toString());
        }
        lines << fields.join(QLatin1Char(','));
    }
    return lines.join(QLatin1Char('\n')).toUtf8() + '\n';
}

} // namespace TrainDesk::Ui
