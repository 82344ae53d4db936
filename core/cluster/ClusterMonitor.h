#pragma once

#include <QObject>
#include <QThread>

namespace TrainDesk {

class ClusterMonitorWorker;

// Keeps node states current for the GUI: every `intervalMs` a worker thread (with a Store
// of its own) asks each cluster's nodes how they are (ClusterService::refreshAll), so the
// node table shows unreachable nodes as unusable, with the reason, and leaving nodes go
// once their jobs end. Nothing here blocks the caller's thread.
class ClusterMonitor : public QObject
{
    Q_OBJECT

public:
    explicit ClusterMonitor(const QString &databasePath, int intervalMs = 30000, QObject *parent = nullptr);
    ~ClusterMonitor() override;

    // Starts a round now, in the worker thread.
    void refreshNow();

Q_SIGNALS:
    // After each round, in the thread that owns the monitor.
    void refreshed();
    void failed(const QString &message);

private:
    QThread m_thread;
    ClusterMonitorWorker *m_worker = nullptr;
};

} // namespace TrainDesk
