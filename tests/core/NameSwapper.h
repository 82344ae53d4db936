#pragma once

// Another user of the machine at work: swaps two names (a folder of a share and a link out
// of it) with renameat2(RENAME_EXCHANGE), as fast as it can, until it goes out of scope.
// As fast as it goes: a sleep between swaps lasts far longer than asked on a busy machine,
// and the name would then hold still for most of a test.
#include <QFile>
#include <QString>

#include <atomic>
#include <cstdio>
#include <fcntl.h>
#include <sched.h>
#include <thread>

namespace TrainDesk::Testing {

class NameSwapper
{
public:
    NameSwapper(const QString &a, const QString &b)
        : m_thread([this, x = QFile::encodeName(a), y = QFile::encodeName(b)] {
              while (!m_stop.load()) {
                  ::renameat2(AT_FDCWD, x.constData(), AT_FDCWD, y.constData(), RENAME_EXCHANGE);
                  ::sched_yield();
              }
          })
    {
    }
    ~NameSwapper()
    {
        m_stop = true;
        m_thread.join();
    }

private:
    std::atomic<bool> m_stop{false};
    std::thread m_thread;
};

} // namespace TrainDesk::Testing
