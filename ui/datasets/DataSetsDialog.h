#pragma once

#include "store/Entities.h"

#include <QDialog>

class QLabel;
class QProgressBar;
class QPushButton;
class QTreeWidget;

namespace TrainDesk {
class DataSetWorker;
struct DataSetPresence;
}

namespace TrainDesk::Ui {

// The data sets TrainDesk can fetch, with what one share holds of each (in the folder of the
// data set's name): Fetch downloads the selected one into the share with progress and Stop,
// From file… takes archives the user downloaded by hand. The work runs in a DataSetWorker.
class DataSetsDialog : public QDialog
{
    Q_OBJECT

public:
    DataSetsDialog(const QString &databasePath, const Share &share, QWidget *parent = nullptr);
    ~DataSetsDialog() override;

    // Selects the data set's row; false when there is none.
    bool selectDataSet(const QString &name);
    // Fetches the selected data set (`from`: files given by hand instead of downloading).
    void fetchSelected(const QStringList &from = {});
    void readStates();

    QTreeWidget *list() const { return m_list; }
    QPushButton *fetchButton() const { return m_fetch; }
    QPushButton *stopButton() const { return m_stop; }
    QLabel *statusLabel() const { return m_status; }
    QString stateOf(const QString &name) const;  // the State column's text
    bool fetching() const { return m_fetchRequest != 0; }

Q_SIGNALS:
    void statesShown();
    void fetchFinished(const QString &error);

private:
    QString selectedName() const;
    void showStates(const QList<DataSetPresence> &states);
    void updateButtons();

    Share m_share;
    DataSetWorker *m_worker;
    QLabel *m_where;
    QTreeWidget *m_list;
    QPushButton *m_fetch;
    QPushButton *m_fromFile;
    QPushButton *m_stop;
    QProgressBar *m_progress;
    QLabel *m_status;
    int m_statesRequest = 0;
    int m_fetchRequest = 0;
    QString m_fetching;
};

} // namespace TrainDesk::Ui
