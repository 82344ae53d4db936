#pragma once

#include "common/Result.h"

#include <QList>
#include <QString>
#include <QStringList>

namespace TrainDesk {

// One node as given on the command line or in the wizard: [NAME=]user@host[:port],
// IPv6 addresses in brackets ([fe80::1]:22).
struct NodeAddress
{
    QString name;  // given, or made from the host (and the port when hosts repeat)
    QString user;
    QString host;
    int port = 22;

    QString toString() const;  // user@host:port
};

Result<NodeAddress> parseNodeAddress(const QString &text);
// Parses every address and gives each node a unique name.
Result<QList<NodeAddress>> parseNodeAddresses(const QStringList &texts);

} // namespace TrainDesk
