#pragma once

#include <QSortFilterProxyModel>

namespace TrainDesk::Ui {

class RunsTableModel;

// Sorts the runs table by value (numbers as numbers, times as times) and filters it with a
// line of terms that must all hold: `text` anywhere in a row, `key:text` in one column,
// `key>number`, `key<number`, `key>=number`, `key<=number`, `key=value` (keys as
// RunsTableModel::keyOf names them: state, cluster, epochs, val_acc, best_val_acc, ...).
// Widget-free.
class RunsFilterModel : public QSortFilterProxyModel
{
    Q_OBJECT

public:
    explicit RunsFilterModel(RunsTableModel *source, QObject *parent = nullptr);

    void setFilterText(const QString &text);
    QString filterText() const { return m_text; }
    // Terms that name no column, for the filter field to show ("no column 'vall_acc'").
    QStringList unknownKeys() const { return m_unknown; }

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const override;
    bool lessThan(const QModelIndex &left, const QModelIndex &right) const override;

private:
    struct Term
    {
        int column = -1;  // -1: any column
        QString op;       // "", ":", "=", ">", "<", ">=", "<="
        QString value;
    };
    // A row's value in the sorted column, read once per sort (lessThan is asked n log n
    // times: 140,000 cells read twice each for 10,000 runs).
    struct SortKey
    {
        bool missing = true;  // no value: last either way up
        bool number = false;  // compared as numbers, else as text (as QSortFilterProxyModel does)
        double value = 0;
        QString text;
    };
    void parse();
    bool holds(const Term &term, int sourceRow) const;
    const SortKey &sortKey(int sourceRow, int column) const;

    RunsTableModel *m_source;
    QString m_text;
    QList<Term> m_terms;
    QStringList m_unknown;
    mutable QList<SortKey> m_keys;  // by source row, of m_keysColumn; cleared when the rows change
    mutable int m_keysColumn = -1;
};

} // namespace TrainDesk::Ui
