#include "ProbeHints.h"

#include <QCoreApplication>

namespace TrainDesk::Ui {

namespace {

QString hintText(const char *text)
{
    return QCoreApplication::translate("TrainDesk::Ui::ProbeHints", text);
}

} // namespace

QString probeHint(const ProbeCheck &check, ProbePlace place)
{
    if (check.passed)
        return {};
    const bool wizard = place == ProbePlace::Wizard;
    if (check.id == QLatin1String("authenticated")) {
        return wizard ? hintText("Go Back to the Credentials page: check the user (on the Nodes page), the key file or the "
                           "password. A new host key must be accepted above.")
                      : hintText("The login of this cluster no longer works (key removed, password changed or the host "
                           "key changed: see the details). Fix it on the node and press Test connection.");
    }
    if (check.id == QLatin1String("mountRoot")) {
        return wizard ? hintText("Go Back to the Credentials page and choose another Mount root, or let the user create "
                           "this folder on the node.")
                      : hintText("Let the node's user create the mount root (fix its permissions on the node), then press "
                           "Test connection.");
    }
    if (check.id == QLatin1String("headSsh")) {
        return wizard ? hintText("Finish gives the cluster a key of its own so the head node logs in to the other nodes "
                           "(mpirun needs it); this check may fail until then. After Finish, press Test connection "
                           "on the cluster's page: if it still fails there, choose \"Generate a key and deploy it\" "
                           "on the Credentials page.")
                      : hintText("mpirun on the head node logs in to this node with ssh. Create the cluster again with "
                           "\"Generate a key and deploy it\" (New cluster, Credentials page), or let this node "
                           "accept a key of the head node; then press Test connection.");
    }
    if (check.id == QLatin1String("shares")) {
        return hintText("Mount the share at the same path on every node (NFS, for one), or make it a replicated share "
                  "(New share).");
    }
    if (check.id == QLatin1String("reachable") && wizard)
        return check.hint + hintText(" (the address is on the Nodes page)");
    return check.hint;
}

} // namespace TrainDesk::Ui
