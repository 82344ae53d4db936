#pragma once
// What a probe of a node found, as values: each check's line, the node's facts, and the
// packages it lacks (cluster/NodeProbe runs the probe).
#include "store/Entities.h"

#include <QJsonObject>
#include <QList>
#include <QPair>
#include <QString>
#include <QStringList>

namespace TrainDesk {

// One line of a probe: a pass or a fail, what was found, and what to do about a fail.
struct ProbeCheck
{
    QString node;    // the node's name; empty for a check across the cluster
    QString id;      // reachable, authenticated, os, cores, memory, gpus, openmpi, trainer, trainer-gpu,
                     // mountRoot, shares, headSsh, network
    QString title;
    bool passed = false;
    QString detail;
    QString hint;    // set when it failed

    QString toText() const;  // "PASS node1  Reachable: ..." (and the hint)
};

// What a probe learnt about a node; kept as JSON in Node::facts for the node table.
struct NodeFacts
{
    QString hostname;
    QString os;
    int cores = 0;
    qint64 memoryBytes = 0;
    QStringList gpus;            // "NVIDIA H100 80GB HBM3, 81559 MiB"
    QString openMpiVersion;      // empty when mpirun is missing or not Open MPI
    QString trainerPath;
    QStringList containerRuntimes;  // apptainer, singularity, docker (its daemon answering) on the PATH
    QList<QPair<QString, QString>> addresses;  // interface, address/prefix (IPv4)

    QJsonObject toJson() const;
    static NodeFacts fromJson(const QJsonObject &json);
    // Whether `json` comes from a probe that looked for container runtimes.
    static bool knowsContainerRuntimes(const QJsonObject &json);
};

struct NodeProbeResult
{
    Node node;
    bool connected = false;
    NodeFacts facts;
    QList<ProbeCheck> checks;
    QStringList missingPackages;  // Debian/Ubuntu packages the trainer needs on the node
    bool allPassed() const;
};

} // namespace TrainDesk
