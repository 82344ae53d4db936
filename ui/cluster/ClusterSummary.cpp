#include "ClusterSummary.h"

namespace TrainDesk::Ui {

ClusterSummary ClusterSummary::of(const ResourceSnapshot::ClusterEntry &entry)
{
    ClusterSummary s;
    s.name = entry.cluster.name;
    for (const Node &n : entry.nodes) {
        // Nodes past the target are out of the cluster once idle; until then they are leaving.
        if (n.index >= entry.cluster.targetNodeCount) {
            if (n.state == NodeState::Running || n.state == NodeState::Preparing || n.state == NodeState::Leaving)
                ++s.leaving;
            continue;
        }
        switch (n.state) {
        case NodeState::Idle: ++s.idle; break;
        case NodeState::Running: ++s.running; break;
        case NodeState::Preparing: ++s.preparing; break;
        case NodeState::Leaving: ++s.leaving; break;
        case NodeState::Unusable: ++s.unusable; break;
        }
    }
    // Batch AI knows steady and resizing; a node that cannot take work makes the cluster
    // degraded, so failed checks never look like a healthy cluster.
    if (s.preparing > 0 || s.leaving > 0)
        s.state = QStringLiteral("resizing");
    else if (s.unusable > 0)
        s.state = QStringLiteral("degraded");
    else
        s.state = QStringLiteral("steady");
    return s;
}

} // namespace TrainDesk::Ui
