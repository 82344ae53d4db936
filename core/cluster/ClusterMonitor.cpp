#include "ClusterMonitor.h"

#include "ClusterService.h"
#include "store/Store.h"

#include <QTimer>

#include <memory>

namespace TrainDesk {

class ClusterMonitorWorker : public QObject
{
    Q_OBJECT

public:
    ClusterMonitorWorker(const QString &databasePath, int intervalMs) : m_path(databasePath), m_intervalMs(intervalMs) {}

public Q_SLOTS:
    void start()
    {
        m_timer = new QTimer(this);
        connect(m_timer, &QTimer::timeout, this, &ClusterMonitorWorker::refresh);
        m_timer->start(m_intervalMs);
        refresh();
    }
    void refresh()
    {
        if (!m_store) {
            m_store = std::make_unique<Store>();
            if (auto opened = m_store->open(m_path); !opened) {
                m_store.reset();
                Q_EMIT failed(opened.error());
                return;
            }
        }
        ClusterService(*m_store).refreshAll();
        Q_EMIT refreshed();
    }
    void stop()
    {
        delete m_timer;
        m_timer = nullptr;
        m_store.reset();  // the Store belongs to this thread
    }

Q_SIGNALS:
    void refreshed();
    void failed(const QString &message);

private:
    QString m_path;
    int m_intervalMs;
    QTimer *m_timer = nullptr;
    std::unique_ptr<Store> m_store;
};

ClusterMonitor::ClusterMonitor(const QString &databasePath, int intervalMs, QObject *parent) : QObject(parent)
{
    m_thread.setObjectName(QStringLiteral("TrainDesk cluster monitor"));
    m_worker = new ClusterMonitorWorker(databasePath, intervalMs);
    m_worker->moveToThread(&m_thread);
    connect(&m_thread, &QThread::finished, m_worker, &QObject::deleteLater);
    connect(m_worker, &ClusterMonitorWorker::refreshed, this, &ClusterMonitor::refreshed);
    connect(m_worker, &ClusterMonitorWorker::failed, this, &ClusterMonitor::failed);
    m_thread.start();
    QMetaObject::invokeMethod(m_worker, &ClusterMonitorWorker::start, Qt::QueuedConnection);
}

ClusterMonitor::~ClusterMonitor()
{
    QMetaObject::invokeMethod(m_worker, &ClusterMonitorWorker::stop, Qt::BlockingQueuedConnection);
    m_thread.quit();
    m_thread.wait();
}

void ClusterMonitor::refreshNow()
{
    QMetaObject::invokeMethod(m_worker, &ClusterMonitorWorker::refresh, Qt::QueuedConnection);
}

} // namespace TrainDesk

#include "ClusterMonitor.moc"
