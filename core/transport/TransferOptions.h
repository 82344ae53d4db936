#pragma once

#include <QByteArray>
#include <QtGlobal>

#include <atomic>
#include <functional>

namespace TrainDesk {

// Set from any thread to stop a running exec or transfer; the worker notices within
// a fraction of a second.
class CancelFlag
{
public:
    void cancel() { m_cancelled.store(true); }
    void reset() { m_cancelled.store(false); }
    bool isCancelled() const { return m_cancelled.load(); }
    const std::atomic<bool> &flag() const { return m_cancelled; }

private:
    std::atomic<bool> m_cancelled{false};
};

// Called on the worker thread: bytes done so far (resumed bytes included) and the total.
using ProgressCallback = std::function<void(qint64 done, qint64 total)>;

struct TransferOptions
{
    ProgressCallback progress;
    const CancelFlag *cancel = nullptr;
    // Continue a partial copy left by an earlier, interrupted transfer.
    bool resume = true;
};

// Output of a running command as it arrives, on the worker thread.
struct ExecHandlers
{
    std::function<void(const QByteArray &)> onStdOut;
    std::function<void(const QByteArray &)> onStdErr;
};

} // namespace TrainDesk
