#include "ShareFilesModel.h"

#include "common/StateStyle.h"

#include <QApplication>
#include <QStyle>

namespace TrainDesk::Ui {

ShareFilesModel::ShareFilesModel(QObject *parent) : QAbstractTableModel(parent) {}

void ShareFilesModel::setEntries(const QList<RemoteFileInfo> &entries)
{
    beginResetModel();
    m_entries = entries;
    endResetModel();
}

int ShareFilesModel::rowOf(const QString &name) const
{
    for (qsizetype i = 0; i < m_entries.size(); ++i) {
        if (m_entries.at(i).name == name)
            return int(i);
    }
    return -1;
}

int ShareFilesModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_entries.size());
}

int ShareFilesModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant ShareFilesModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= m_entries.size())
        return {};
    const RemoteFileInfo &e = m_entries.at(index.row());
    switch (role) {
    case Qt::DisplayRole:
    case Qt::ToolTipRole:
        switch (index.column()) {
        case NameColumn: return e.name;
        case SizeColumn:
            if (e.isLink)  // a link is shown as one, never as what it points to
                return tr("link to %1").arg(e.linkTarget);
            return e.isDirectory ? tr("folder") : formatBytes(e.size);
        case ModifiedColumn: return formatTime(e.modified);
        }
        return {};
    case SortRole:
        // Folders before files whichever column sorts.
        switch (index.column()) {
        case NameColumn: return QStringLiteral("%1%2").arg(e.isDirectory ? 0 : 1).arg(e.name.toLower());
        case SizeColumn: return e.isDirectory ? -1 : e.size;
        case ModifiedColumn: return e.modified;
        }
        return {};
    case IsFolderRole: return e.isDirectory;
    case Qt::DecorationRole:
        if (index.column() == NameColumn && qobject_cast<QApplication *>(QCoreApplication::instance()))
            return QApplication::style()->standardIcon(e.isLink        ? QStyle::SP_FileLinkIcon
                                                       : e.isDirectory ? QStyle::SP_DirIcon
                                                                       : QStyle::SP_FileIcon);
        return {};
    case Qt::TextAlignmentRole:
        return index.column() == SizeColumn ? QVariant(Qt::AlignRight | Qt::AlignVCenter) : QVariant();
    }
    return {};
}

QVariant ShareFilesModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case NameColumn: return tr("Name");
    case SizeColumn: return tr("Size");
    case ModifiedColumn: return tr("Modified");
    }
    return {};
}

} // namespace TrainDesk::Ui
