#pragma once

#include "SystemSample.h"
#include "common/Result.h"

namespace TrainDesk {

class Transport;

// Reads what a Linux node is doing with one short shell command over its Transport (this
// machine or SSH): CPU use over one second from /proc/stat, memory from /proc/meminfo,
// network bytes from /proc/net/dev, and each GPU's use and memory from nvidia-smi where
// the node has it. Blocks for about a second: the agent calls it off its own thread.
class SystemSampler
{
public:
    // The seconds between the two looks at /proc/stat that CPU use is measured over.
    static constexpr int cpuWindowSeconds = 1;

    static QString command();
    // `output`: what command() printed on `node`.
    static Result<SystemSample> parse(const QByteArray &output, const QString &node, double time);
    static Result<SystemSample> sample(Transport &transport, const QString &node);
};

} // namespace TrainDesk
