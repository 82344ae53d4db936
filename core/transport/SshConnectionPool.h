#pragma once

#include "SshParameters.h"
#include "common/Result.h"

#include <map>
#include <QString>

#include <condition_variable>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace TrainDesk {

class SshConnection;

// Logged-in connections kept per node (address, user and credentials), so that a
// command or a file read costs a channel, not a handshake. A connection is lent to one
// thread at a time. Idle connections get keepalives; dead ones are dropped and replaced
// on the next request.
class SshConnectionPool
{
public:
    // Gives the connection back to the pool when it goes out of scope.
    class Lease
    {
    public:
        Lease(SshConnectionPool *pool, std::unique_ptr<SshConnection> connection);
        Lease(Lease &&other) noexcept;
        Lease &operator=(Lease &&) = delete;
        ~Lease();
        SshConnection &operator*() const { return *m_connection; }
        SshConnection *operator->() const { return m_connection.get(); }

    private:
        SshConnectionPool *m_pool;
        std::unique_ptr<SshConnection> m_connection;
    };

    static SshConnectionPool &instance();
    ~SshConnectionPool();

    // An idle healthy connection for these parameters, or a new one. Refused on the
    // GUI thread: connecting blocks.
    Result<Lease> acquire(const SshParameters &parameters);
    // Closes every idle connection (tests, and after credentials change).
    void closeIdle();

    // Counters for tests and benchmarks.
    int idleCount() const;
    qint64 connectionsOpened() const;

private:
    SshConnectionPool();
    void giveBack(std::unique_ptr<SshConnection> connection);
    // A host whose key was seen changed: its connections made before are not used again
    // (idle ones closed now, lent ones when given back).
    void distrust(const SshParameters &parameters);
    bool distrusted(const SshConnection &connection) const;  // with m_mutex held
    void keepaliveLoop();

    mutable std::mutex m_mutex;
    std::condition_variable m_wake;
    std::map<QString, std::vector<std::unique_ptr<SshConnection>>> m_idle;
    qint64 m_opened = 0;
    std::map<QString, quint64> m_keyChanges;             // "host:port" -> how many changes seen
    std::map<const SshConnection *, quint64> m_madeAfter; // a connection -> its host's count when made
    bool m_stopping = false;
    std::thread m_keepaliveThread;
};

} // namespace TrainDesk
