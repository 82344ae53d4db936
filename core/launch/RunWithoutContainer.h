#pragma once

#include "jobspec/JobSpec.h"
#include "store/Entities.h"

#include <QByteArray>
#include <QList>
#include <QString>
#include <optional>

namespace TrainDesk {

// A job.json whose containerSettings name an image, on nodes that cannot run one. Such a
// job is refused at submit with a message that says how to run it on the nodes as they
// are (`job create --no-container`, the job editor's "Run without the container").
namespace RunWithoutContainer {

// `spec` without properties.containerSettings and the properties.jobPreparation that ran in
// the container (it installs into the image: on a node it would change the node's system).
// What was left out is appended to `removed` (JSON paths). Invalid JSON is returned as it is.
QByteArray apply(const QByteArray &spec, QStringList *removed = nullptr);

// Why `spec` cannot run on `nodes` (the first `spec.nodeCount` of them): the nodes whose last
// probe found neither apptainer (singularity) nor docker. Nodes never probed are not judged.
std::optional<QString> refusal(const JobSpec &spec, const QList<Node> &nodes);

} // namespace RunWithoutContainer
} // namespace TrainDesk
