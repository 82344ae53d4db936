#include "SshConnectionPool.h"

#include "SshConnection.h"

#include <QCoreApplication>
#include <QThread>

#include <chrono>

namespace TrainDesk {

namespace {

constexpr size_t maxIdlePerNode = 4;
constexpr qint64 maxIdleMs = 10 * 60 * 1000;  // a node not used for 10 minutes gets no connection kept

QString hostOf(const SshParameters &p) { return QStringLiteral("%1:%2").arg(p.host).arg(p.port); }

bool onGuiThread()
{
    const QCoreApplication *app = QCoreApplication::instance();
    return app && app->inherits("QGuiApplication") && QThread::currentThread() == app->thread();
}

} // namespace

SshConnectionPool::Lease::Lease(SshConnectionPool *pool, std::unique_ptr<SshConnection> connection)
    : m_pool(pool), m_connection(std::move(connection))
{
}

SshConnectionPool::Lease::Lease(Lease &&other) noexcept
    : m_pool(other.m_pool), m_connection(std::move(other.m_connection))
{
}

SshConnectionPool::Lease::~Lease()
{
    if (m_connection)
        m_pool->giveBack(std::move(m_connection));
}

SshConnectionPool &SshConnectionPool::instance()
{
    static SshConnectionPool pool;
    return pool;
}

SshConnectionPool::SshConnectionPool() : m_keepaliveThread([this] { keepaliveLoop(); }) {}

SshConnectionPool::~SshConnectionPool()
{
    {
        std::lock_guard guard(m_mutex);
        m_stopping = true;
    }
    m_wake.notify_all();
    if (m_keepaliveThread.joinable())
        m_keepaliveThread.join();
}

Result<SshConnectionPool::Lease> SshConnectionPool::acquire(const SshParameters &parameters)
{
    if (onGuiThread()) {
        qCritical("TrainDesk: SSH connection to %s requested on the GUI thread", qPrintable(parameters.describe()));
        return fail(QStringLiteral("%1: SSH calls block and must not run on the GUI thread (a bug: please report it)")
                        .arg(parameters.describe()));
    }
    const QString key = parameters.poolKey();
    for (;;) {
        std::unique_ptr<SshConnection> candidate;
        {
            std::lock_guard guard(m_mutex);
            auto it = m_idle.find(key);
            if (it == m_idle.end() || it->second.empty())
                break;
            candidate = std::move(it->second.back());
            it->second.pop_back();
            if (distrusted(*candidate))
                continue;
        }
        if (candidate->isHealthy()) {
            candidate->touch();
            return Lease(this, std::move(candidate));
        }
        // A dead connection (server restarted, network dropped): try the next or reconnect.
    }
    auto connection = std::make_unique<SshConnection>(parameters);
    if (auto connected = connection->connect(); !connected) {
        if (connection->sawHostKeyChange())
            distrust(parameters);
        return connected.failure();
    }
    {
        std::lock_guard guard(m_mutex);
        ++m_opened;
        m_madeAfter[connection.get()] = m_keyChanges[hostOf(parameters)];
    }
    return Lease(this, std::move(connection));
}

void SshConnectionPool::giveBack(std::unique_ptr<SshConnection> connection)
{
    if (!connection->isHealthy())
        return;
    connection->touch();
    std::lock_guard guard(m_mutex);
    if (distrusted(*connection)) {
        m_madeAfter.erase(connection.get());
        return;  // closed here
    }
    auto &idle = m_idle[connection->parameters().poolKey()];
    if (idle.size() < maxIdlePerNode)
        idle.push_back(std::move(connection));
}

void SshConnectionPool::distrust(const SshParameters &parameters)
{
    std::vector<std::unique_ptr<SshConnection>> closing;
    std::lock_guard guard(m_mutex);
    ++m_keyChanges[hostOf(parameters)];
    for (auto &[key, list] : m_idle) {
        for (auto it = list.begin(); it != list.end();) {
            if (distrusted(**it)) {
                m_madeAfter.erase(it->get());
                closing.push_back(std::move(*it));
                it = list.erase(it);
            } else {
                ++it;
            }
        }
    }
}

bool SshConnectionPool::distrusted(const SshConnection &connection) const
{
    const auto changes = m_keyChanges.find(hostOf(connection.parameters()));
    if (changes == m_keyChanges.end())
        return false;
    const auto made = m_madeAfter.find(&connection);
    return made == m_madeAfter.end() || made->second < changes->second;
}

void SshConnectionPool::closeIdle()
{
    std::map<QString, std::vector<std::unique_ptr<SshConnection>>> closing;
    {
        std::lock_guard guard(m_mutex);
        closing.swap(m_idle);
    }
}

int SshConnectionPool::idleCount() const
{
    std::lock_guard guard(m_mutex);
    int count = 0;
    for (const auto &[key, list] : m_idle)
        count += int(list.size());
    return count;
}

qint64 SshConnectionPool::connectionsOpened() const
{
    std::lock_guard guard(m_mutex);
    return m_opened;
}

void SshConnectionPool::keepaliveLoop()
{
    std::unique_lock lock(m_mutex);
    while (!m_stopping) {
        m_wake.wait_for(lock, std::chrono::seconds(1));
        if (m_stopping)
            break;
        // Idle connections belong to the pool alone, so using them here races with nobody.
        for (auto &[key, list] : m_idle) {
            for (auto it = list.begin(); it != list.end();) {
                SshConnection &c = **it;
                const bool expired = c.idleMs() > maxIdleMs;
                if (!expired && c.sinceKeepaliveMs() > c.parameters().keepaliveIntervalMs)
                    c.sendKeepalive();
                if (expired || !c.isHealthy())
                    it = list.erase(it);
                else
                    ++it;
            }
        }
    }
    // The process is ending and OpenSSL's exit handlers may already have run, so a clean
    // SSH disconnect could crash: the sockets close with the process instead.
    for (auto &[key, list] : m_idle) {
        for (auto &connection : list)
            (void)connection.release();
    }
    m_idle.clear();
}

} // namespace TrainDesk
