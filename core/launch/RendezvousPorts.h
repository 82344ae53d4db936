#pragma once

#include "jobspec/JobSpec.h"
#include "common/Result.h"

#include <optional>

#include <QString>

namespace TrainDesk {

// The TCP ports a job's ranks meet on (PyTorch's MASTER_PORT, TensorFlow's task addresses).
// A fixed port made two jobs packed on one node clash (23456, 2222): each job gets its own,
// chosen on the head node as the job starts, a run of `count` ports that no socket there
// uses, searched from a start taken from the job's uuid (two jobs start in different
// places). Plan values name the ports by reference, "${TRAINDESK_PORT}" and
// "$((TRAINDESK_PORT+k))", which the launch script's shell expands; a port the job itself
// sets (environmentVariables: TRAINDESK_PORT, or MASTER_PORT for PyTorch) is used as written.
namespace RendezvousPorts {

// The variable holding the first port ("TRAINDESK_PORT"), passed to every process.
QString variable();

// The ports of one job: the job's own (fixed) or chosen at start.
struct Ports
{
    std::optional<int> fixed;  // the job's own first port, from its environmentVariables

    // The port `offset` after the first, as plan values write it.
    QString port(int offset) const;
};

// The job's own port, or none; a value that is not a port number is refused, naming it.
Result<Ports> of(const JobSpec &spec);

// Where the search starts for a job: 20000-31999, from its uuid (stable: the plan shows it).
int searchStart(const QString &uuid);

// Shell text for the head node (before the job's variables): exports TRAINDESK_PORT, the
// first of `count` consecutive ports from `start` that /proc/net/tcp{,6} shows unused.
QString choiceText(int start, int count);

// `value` as one shell word in which only the port references expand (everything else as
// shellQuote keeps it).
QString shellWord(const QString &value);

} // namespace RendezvousPorts

} // namespace TrainDesk
