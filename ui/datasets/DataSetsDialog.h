#pragma once

#include "store/Entities.h"

#include <QDialog>

class QLabel;
class QPushButton;
class QTreeWidget;

namespace TrainDesk {
class DataSetWorker;
struct DataSetPresence;
}

namespace TrainDesk::Ui {

class DataSetFetchBar;

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
    QPushButton *fetchButton() const;
    QPushButton *stopButton() const;
    QString statusText() const;
    QString stateOf(const QString &name) const;  // the state column's text
    bool fetching() const;

Q_SIGNALS:
    void statesShown();
    void fetchFinished(const QString &error);

private:
    QString selectedName() const;
    void showStates(const QList<DataSetPresence> &states);

    Share m_share;
    DataSetWorker *m_worker;
    QTreeWidget *m_list;
    DataSetFetchBar *m_bar;
    QLabel *m_problem;
    int m_statesRequest = 0;
};

} // namespace TrainDesk::Ui
