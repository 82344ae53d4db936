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
    s.state = s.preparing == 0 && s.leaving == 0 ? QStringLiteral("steady") : QStringLiteral("resizing");
    return s;
}

} // namespace TrainDesk::Ui
