#include "RunsFilterModel.h"

#include "RunsTableModel.h"

#include <QProcess>
#include <QRegularExpression>

namespace TrainDesk::Ui {

RunsFilterModel::RunsFilterModel(RunsTableModel *source, QObject *parent)
    : QSortFilterProxyModel(parent), m_source(source)
{
    // Any change of the rows' values: the sort keys are read again. Connected before the
    // proxy's own handlers (setSourceModel), which sort the changed rows at once.
    const auto forgetKeys = [this] { m_keysColumn = -1; };
    connect(source, &QAbstractItemModel::dataChanged, this, forgetKeys);
    connect(source, &QAbstractItemModel::layoutChanged, this, forgetKeys);
    connect(source, &QAbstractItemModel::modelReset, this, forgetKeys);
    connect(source, &QAbstractItemModel::rowsInserted, this, forgetKeys);
    connect(source, &QAbstractItemModel::rowsRemoved, this, forgetKeys);
    setSourceModel(source);
    setSortRole(RunsTableModel::SortRole);
    setSortCaseSensitivity(Qt::CaseInsensitive);
    // New columns (a metric that appears) change what the terms name.
    connect(source, &QAbstractItemModel::modelReset, this, [this] {
        parse();
        invalidateFilter();
    });
}

void RunsFilterModel::setFilterText(const QString &text)
{
    m_text = text;
    parse();
    // One layout change for the whole table: invalidateFilter() announces each run of rows
    // that comes or goes on its own (thousands for 10,000 runs), and the groups and plots
    // following the table were rebuilt after each.
    invalidate();
}

void RunsFilterModel::parse()
{
    static const QRegularExpression keyed(QStringLiteral("^([A-Za-z_][\\w.-]*)(>=|<=|:|=|>|<)(.*)$"));
    m_terms.clear();
    m_unknown.clear();
    // Quotes keep spaces in a term: name:"my job".
    for (const QString &word : QProcess::splitCommand(m_text)) {
        const QRegularExpressionMatch match = keyed.match(word);
        if (!match.hasMatch()) {
            // Matched against RunsTableModel::searchTextOf, which is case-folded.
            m_terms.append({-1, QString(), QString(word).remove(QChar(0x1f)).toCaseFolded()});
            continue;
        }
        const int column = m_source->columnOfKey(match.captured(1));
        if (column < 0)
            m_unknown << match.captured(1);
        m_terms.append({column, match.captured(2), match.captured(3)});
    }
}

bool RunsFilterModel::holds(const Term &term, int sourceRow) const
{
    if (term.op.isEmpty()) {
        // Any cell's text: the row's search text, made once per change (term.value folded
        // in parse(); cells are joined by a character no term holds).
        return m_source->searchTextOf(sourceRow).contains(term.value);
    }
    if (term.column < 0)
        return false;  // a column no row has
    const QModelIndex index = m_source->index(sourceRow, term.column);
    if (term.op == QLatin1String(":") || term.op == QLatin1String("=")) {
        const QString text = index.data().toString();
        if (term.op == QLatin1String(":"))
            return text.contains(term.value, Qt::CaseInsensitive);
        return text.compare(term.value, Qt::CaseInsensitive) == 0;
    }
    bool numberGiven = false;
    const double limit = term.value.toDouble(&numberGiven);
    const QVariant sortValue = index.data(RunsTableModel::SortRole);
    bool numberThere = false;
    const double value = sortValue.toDouble(&numberThere);
    if (!numberGiven || !numberThere || !sortValue.isValid())
        return false;
    // A metric or setting without a value has no number to sort by; a fixed column (a job
    // not started: duration -1) says so with an empty cell. (The metrics' text, a formatted
    // number, is not made for every row at every keystroke.)
    if (term.column < RunsTableModel::FixedColumns && index.data().toString().isEmpty())
        return false;
    if (term.op == QLatin1String(">"))
        return value > limit;
    if (term.op == QLatin1String("<"))
        return value < limit;
    if (term.op == QLatin1String(">="))
        return value >= limit;
    return value <= limit;
}

bool RunsFilterModel::filterAcceptsRow(int sourceRow, const QModelIndex &) const
{
    for (const Term &term : m_terms) {
        if (!holds(term, sourceRow))
            return false;
    }
    return true;
}

const RunsFilterModel::SortKey &RunsFilterModel::sortKey(int sourceRow, int column) const
{
    if (m_keysColumn != column || m_keys.size() != m_source->rowCount()) {
        m_keys.clear();
        m_keys.resize(m_source->rowCount());
        for (int r = 0; r < m_source->rowCount(); ++r) {
            const QVariant v = m_source->index(r, column).data(RunsTableModel::SortRole);
            SortKey &key = m_keys[r];
            key.text = v.toString();
            key.missing = !v.isValid() || key.text.isEmpty();
            // As QSortFilterProxyModel compares: by the left value's type, numbers as numbers.
            const int type = v.typeId();
            key.number = type == QMetaType::Double || type == QMetaType::Int || type == QMetaType::LongLong
                         || type == QMetaType::UInt || type == QMetaType::ULongLong || type == QMetaType::Float;
            key.value = v.toDouble();
        }
        m_keysColumn = column;
    }
    return m_keys.at(sourceRow);
}

bool RunsFilterModel::lessThan(const QModelIndex &left, const QModelIndex &right) const
{
    const SortKey &a = sortKey(left.row(), left.column());
    const SortKey &b = sortKey(right.row(), right.column());
    // Rows without a value (a job that has not reported the metric) go last either way up.
    if (a.missing || b.missing) {
        if (a.missing != b.missing)
            return sortOrder() == Qt::AscendingOrder ? b.missing : a.missing;
        return false;
    }
    if (a.number)
        return a.value < b.value;
    return a.text.compare(b.text, sortCaseSensitivity()) < 0;
}

} // namespace TrainDesk::Ui
