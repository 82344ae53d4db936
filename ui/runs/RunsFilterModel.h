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
    void parse();
    bool holds(const Term &term, int sourceRow) const;

    RunsTableModel *m_source;
    QString m_text;
    QList<Term> m_terms;
    QStringList m_unknown;
};

} // namespace TrainDesk::Ui
