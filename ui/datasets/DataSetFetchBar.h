#pragma once

#include "store/Entities.h"

#include <QWidget>

class QLabel;
class QProgressBar;
class QPushButton;

namespace TrainDesk {
class DataSetWorker;
}

namespace TrainDesk::Ui {

// Fetch, From file… and Stop for one data set and share, with the download's progress and
// what came of it (an unreachable address gets how to place the files by hand). The Data
// sets dialog and the new-job wizard's Data set page each show one; the work runs in their
// DataSetWorker.
class DataSetFetchBar : public QWidget
{
    Q_OBJECT

public:
    explicit DataSetFetchBar(DataSetWorker *worker, QWidget *parent = nullptr);

    // What Fetch fetches: `dataSet` (a catalogue name) into the folder of its name in `share`.
    void setChoice(const Share &share, const QString &dataSet);
    void clearChoice();
    // Whether Fetch and From file… are offered (with a choice and no fetch running), e.g. not
    // for a data set already there.
    void setOffered(bool offered);

    // Fetches the choice (`from`: files the user downloaded by hand).
    void fetch(const QStringList &from = {});
    void stop();
    bool fetching() const { return m_request != 0; }
    QString statusText() const;

    QPushButton *fetchButton() const { return m_fetch; }
    QPushButton *stopButton() const { return m_stop; }

Q_SIGNALS:
    void fetchStarted();
    // While a fetch runs: how far it got, in a line.
    void progressText(const QString &text);
    // `error`: what the bar shows (empty: the data set is in the share, verified).
    void finished(const QString &error, bool changed);

private:
    void updateButtons();

    DataSetWorker *m_worker;
    QPushButton *m_fetch;
    QPushButton *m_fromFile;
    QPushButton *m_stop;
    QProgressBar *m_progress;
    QLabel *m_status;
    Share m_share;
    QString m_dataSet;
    bool m_offered = true;
    int m_request = 0;
};

} // namespace TrainDesk::Ui
