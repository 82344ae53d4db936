#pragma once

#include <QAbstractTableModel>
#include <QPointer>

class QAbstractItemModel;

namespace TrainDesk::Ui {

class RunsTableModel;

// The runs shown (the filtered table) grouped by the value of one column (a setting such as
// lr, or the cluster, the state...): per group how many runs, and for each metric column the
// mean and the spread (sample standard deviation) of its values. Widget-free: the runs
// view shows it above the runs when a "Group by" column is chosen.
class RunsGroupModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Role { MeanRole = Qt::UserRole + 1, SpreadRole, CountRole };

    // `rows`: the filtered, sorted table (its columns are the source's).
    RunsGroupModel(RunsTableModel *source, QAbstractItemModel *rows, QObject *parent = nullptr);

    // The column grouped by (RunsTableModel::keyOf); empty: no groups.
    void setGroupKey(const QString &key);
    QString groupKey() const { return m_key; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    // The mean and sample standard deviation of `values` (spread 0 for one value).
    static std::pair<double, double> meanAndSpread(const QList<double> &values);

private:
    void rebuild();

    struct Group
    {
        QString value;
        int runs = 0;
        QList<QList<double>> values;  // per metric column
    };
    RunsTableModel *m_source;
    QPointer<QAbstractItemModel> m_rows;
    QString m_key;
    QList<int> m_metricColumns;  // source columns of metrics (last and best)
    QList<Group> m_groups;
};

} // namespace TrainDesk::Ui
