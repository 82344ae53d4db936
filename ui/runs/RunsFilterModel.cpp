#include "RunsFilterModel.h"

#include "RunsTableModel.h"

#include <QProcess>
#include <QRegularExpression>

namespace TrainDesk::Ui {

RunsFilterModel::RunsFilterModel(RunsTableModel *source, QObject *parent)
    : QSortFilterProxyModel(parent), m_source(source)
{
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
    invalidateFilter();
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
            m_terms.append({-1, QString(), word});
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
        for (int c = 0; c < m_source->columnCount(); ++c) {
            if (m_source->index(sourceRow, c).data().toString().contains(term.value, Qt::CaseInsensitive))
                return true;
        }
        return false;
    }
    if (term.column < 0)
        return false;  // a column no row has
    const QModelIndex index = m_source->index(sourceRow, term.column);
    const QString text = index.data().toString();
    if (term.op == QLatin1String(":"))
        return text.contains(term.value, Qt::CaseInsensitive);
    if (term.op == QLatin1String("="))
        return text.compare(term.value, Qt::CaseInsensitive) == 0;
    bool numberGiven = false;
    const double limit = term.value.toDouble(&numberGiven);
    const QVariant sortValue = index.data(RunsTableModel::SortRole);
    bool numberThere = false;
    const double value = sortValue.toDouble(&numberThere);
    if (!numberGiven || !numberThere || !sortValue.isValid() || text.isEmpty())
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

bool RunsFilterModel::lessThan(const QModelIndex &left, const QModelIndex &right) const
{
    const QVariant a = left.data(RunsTableModel::SortRole);
    const QVariant b = right.data(RunsTableModel::SortRole);
    // Rows without a value (a job that has not reported the metric) go last either way up.
    if (!a.isValid() || !b.isValid() || a.toString().isEmpty() != b.toString().isEmpty()) {
        const bool aMissing = !a.isValid() || a.toString().isEmpty();
        const bool bMissing = !b.isValid() || b.toString().isEmpty();
        if (aMissing != bMissing)
            return sortOrder() == Qt::AscendingOrder ? bMissing : aMissing;
        return false;
    }
    return QSortFilterProxyModel::lessThan(left, right);
}

} // namespace TrainDesk::Ui
