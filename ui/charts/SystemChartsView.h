#pragma once

#include <QWidget>

class QLabel;

namespace TrainDesk::Ui {

class ChartPanel;
class SystemSeries;

// The system metrics of a job's nodes under its loss and accuracy charts: use (CPU and
// GPUs, %), memory (RAM and GPUs, GiB) and network (MB/s), one colour per node.
class SystemChartsView : public QWidget
{
    Q_OBJECT

public:
    explicit SystemChartsView(SystemSeries *series, QWidget *parent = nullptr);

    ChartPanel *usagePanel() const { return m_usage; }
    ChartPanel *memoryPanel() const { return m_memory; }
    ChartPanel *networkPanel() const { return m_network; }
    QString summary() const;

private:
    void redraw();

    SystemSeries *m_series;
    ChartPanel *m_usage;
    ChartPanel *m_memory;
    ChartPanel *m_network;
    QLabel *m_summary;
};

} // namespace TrainDesk::Ui
