#include "JobFilesModel.h"

#include "common/StateStyle.h"

#include <QHash>

namespace TrainDesk::Ui {

namespace {

QString keyOf(const JobFile &f)
{
    return f.directory + QLatin1Char('\n') + f.path;
}

} // namespace

JobFilesModel::JobFilesModel(QObject *parent) : QAbstractTableModel(parent) {}

void JobFilesModel::setFiles(const QList<JobFile> &files)
{
    QHash<QString, int> wanted;
    for (int i = 0; i < files.size(); ++i)
        wanted.insert(keyOf(files[i]), i);
    for (int row = int(m_files.size()) - 1; row >= 0; --row) {
        if (!wanted.contains(keyOf(m_files[row]))) {
            beginRemoveRows({}, row, row);
            m_files.removeAt(row);
            endRemoveRows();
        }
    }
    QHash<QString, int> present;
    for (int i = 0; i < m_files.size(); ++i)
        present.insert(keyOf(m_files[i]), i);
    // Rows keep their place (a proxy sorts them); new files go to the end.
    for (const JobFile &f : files) {
        const auto it = present.constFind(keyOf(f));
        if (it == present.constEnd()) {
            const int row = int(m_files.size());
            beginInsertRows({}, row, row);
            m_files.append(f);
            endInsertRows();
            continue;
        }
        JobFile &old = m_files[*it];
        if (old.size != f.size || old.modified != f.modified || old.remotePath != f.remotePath) {
            old = f;
            Q_EMIT dataChanged(index(*it, 0), index(*it, ColumnCount - 1));
        }
    }
}

int JobFilesModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_files.size());
}

int JobFilesModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant JobFilesModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const JobFile &f = m_files.at(index.row());
    if (role == RemotePathRole)
        return f.remotePath;
    if (role == Qt::TextAlignmentRole && index.column() == SizeColumn)
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::ToolTipRole)
        return f.remotePath;
    if (role != Qt::DisplayRole && role != SortRole)
        return {};
    switch (index.column()) {
    case NameColumn: return f.path;
    case DirectoryColumn: return f.directory;
    case SizeColumn: return role == SortRole ? QVariant(f.size) : QVariant(formatBytes(f.size));
    case ModifiedColumn: return role == SortRole ? QVariant(f.modified) : QVariant(formatTime(f.modified));
    case KindColumn:
        return f.directory == QLatin1String("stdouterr") ? tr("log") : isCheckpoint(f.path) ? tr("checkpoint") : tr("output");
    default: return {};
    }
}

bool JobFilesModel::isCheckpoint(const QString &path)
{
    const QStringList parts = path.split(QLatin1Char('/'));
    for (qsizetype i = 0; i + 1 < parts.size(); ++i) {
        if (parts.at(i).compare(QLatin1String("checkpoints"), Qt::CaseInsensitive) == 0)
            return true;
    }
    return parts.last().endsWith(QLatin1String(".ckpt"), Qt::CaseInsensitive);
}

int JobFilesModel::checkpointCount() const
{
    int count = 0;
    for (int row = 0; row < m_files.size(); ++row)
        count += isCheckpointAt(row) ? 1 : 0;
    return count;
}

QVariant JobFilesModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case NameColumn: return tr("Name");
    case DirectoryColumn: return tr("Directory");
    case SizeColumn: return tr("Size");
    case ModifiedColumn: return tr("Modified");
    case KindColumn: return tr("Kind");
    default: return {};
    }
}

} // namespace TrainDesk::Ui
