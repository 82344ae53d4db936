#pragma once

#include "JobSpec.h"

namespace TrainDesk {

// The checks beyond types: one toolkit, enums, what each toolkit needs, paths, names and
// ids, durations, mounts, placeholders, and (with a context) the cluster's size and the
// workspace's shares. Appends to `issues`; never includes a secret's value in a message.
void validateJobSpec(const JobSpec &spec, const SpecContext &context, QList<SpecIssue> &issues);

// The toolkit keys of JobBaseProperties, in the schema's order.
const QStringList &toolkitKeys();

} // namespace TrainDesk
