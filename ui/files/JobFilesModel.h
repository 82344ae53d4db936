#pragma once

#include "session/JobFile.h"

#include <QAbstractTableModel>

namespace TrainDesk::Ui {

// A job's output files (stdouterr and output directories). setFiles() updates rows in
// place by directory and path, so a refresh keeps the selection.
class JobFilesModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    // Kind: "log" (stdouterr), "checkpoint" (isCheckpoint), or "output" (the model and the
    // rest of the output directories): checkpoints are told apart from the model.
    enum Column { NameColumn, DirectoryColumn, SizeColumn, ModifiedColumn, KindColumn, ColumnCount };
    enum Role { SortRole = Qt::UserRole + 1, RemotePathRole };

    explicit JobFilesModel(QObject *parent = nullptr);

    void setFiles(const QList<JobFile> &files);
    // A file below a "checkpoints" folder, or a *.ckpt (the trainer's checkpoints/epoch-N.ckpt,
    // a Keras callback's checkpoints/): training's stops on the way, not the model.
    static bool isCheckpoint(const QString &path);
    bool isCheckpointAt(int row) const { return m_files.at(row).directory != QLatin1String("stdouterr") && isCheckpoint(m_files.at(row).path); }
    int checkpointCount() const;
    const QList<JobFile> &files() const { return m_files; }
    const JobFile &fileAt(int row) const { return m_files.at(row); }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QList<JobFile> m_files;
};

} // namespace TrainDesk::Ui
