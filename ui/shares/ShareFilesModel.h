#pragma once

#include "transport/RemoteFileInfo.h"

#include <QAbstractTableModel>

namespace TrainDesk::Ui {

// The entries of one folder of a share: name, size and date, folders first. Widget-free.
class ShareFilesModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Column { NameColumn, SizeColumn, ModifiedColumn, ColumnCount };
    enum Role { SortRole = Qt::UserRole + 1, IsFolderRole };

    explicit ShareFilesModel(QObject *parent = nullptr);

    void setEntries(const QList<RemoteFileInfo> &entries);
    const RemoteFileInfo &entryAt(int row) const { return m_entries.at(row); }
    // The row of the entry called `name`, -1 when there is none.
    int rowOf(const QString &name) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QList<RemoteFileInfo> m_entries;
};

} // namespace TrainDesk::Ui
