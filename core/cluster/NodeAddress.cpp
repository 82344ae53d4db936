#include "NodeAddress.h"

#include <QRegularExpression>
#include <QSet>

namespace TrainDesk {

namespace {

QString nameFromHost(const QString &host)
{
    QString name = host;
    static const QRegularExpression invalid(QStringLiteral("[^-\\w.]"));
    name.replace(invalid, QStringLiteral("-"));
    return name;
}

} // namespace

QString NodeAddress::toString() const
{
    const QString h = host.contains(QLatin1Char(':')) ? QStringLiteral("[%1]").arg(host) : host;
    return QStringLiteral("%1@%2:%3").arg(user, h).arg(port);
}

Result<NodeAddress> parseNodeAddress(const QString &input)
{
    const QString text = input.trimmed();
    NodeAddress a;
    QString rest = text;
    const qsizetype equals = rest.indexOf(QLatin1Char('='));
    if (equals >= 0) {
        a.name = rest.left(equals);
        rest = rest.mid(equals + 1);
        static const QRegularExpression validName(QStringLiteral("^[-\\w.]{1,64}$"));
        if (!validName.match(a.name).hasMatch())
            return fail(QStringLiteral("node '%1': the name may hold letters, digits, '-', '_' and '.' (1-64)").arg(text));
    }
    const qsizetype at = rest.lastIndexOf(QLatin1Char('@'));
    if (at >= 0) {
        a.user = rest.left(at);
        rest = rest.mid(at + 1);
    } else {
        a.user = qEnvironmentVariable("USER");
    }
    static const QRegularExpression validUser(QStringLiteral("^[A-Za-z0-9_.][-A-Za-z0-9_.$]*$"));
    if (a.user.isEmpty() || !validUser.match(a.user).hasMatch())
        return fail(QStringLiteral("node '%1': expected user@host[:port], the user is missing or not valid").arg(text));
    QString portText;
    if (rest.startsWith(QLatin1Char('['))) {
        const qsizetype close = rest.indexOf(QLatin1Char(']'));
        if (close < 0)
            return fail(QStringLiteral("node '%1': an IPv6 address needs its closing ']'").arg(text));
        a.host = rest.mid(1, close - 1);
        rest = rest.mid(close + 1);
        if (rest.startsWith(QLatin1Char(':')))
            portText = rest.mid(1);
        else if (!rest.isEmpty())
            return fail(QStringLiteral("node '%1': unexpected '%2' after the address").arg(text, rest));
    } else {
        const qsizetype colon = rest.indexOf(QLatin1Char(':'));
        a.host = colon < 0 ? rest : rest.left(colon);
        if (colon >= 0)
            portText = rest.mid(colon + 1);
    }
    static const QRegularExpression validHost(QStringLiteral("^[A-Za-z0-9._:%-]+$"));
    if (a.host.isEmpty() || !validHost.match(a.host).hasMatch())
        return fail(QStringLiteral("node '%1': expected user@host[:port], the host is missing or not valid").arg(text));
    if (!portText.isNull()) {
        bool ok = false;
        a.port = portText.toInt(&ok);
        if (!ok || a.port < 1 || a.port > 65535)
            return fail(QStringLiteral("node '%1': the port must be a number from 1 to 65535").arg(text));
    }
    return a;
}

Result<QList<NodeAddress>> parseNodeAddresses(const QStringList &texts)
{
    QList<NodeAddress> nodes;
    QSet<QString> hosts, repeated, endpoints;
    for (const QString &t : texts) {
        if (t.trimmed().isEmpty())
            continue;
        auto a = parseNodeAddress(t);
        if (!a)
            return a.failure();
        const QString endpoint = QStringLiteral("%1:%2").arg(a->host).arg(a->port);
        if (endpoints.contains(endpoint))
            return fail(QStringLiteral("node %1 is given twice").arg(endpoint));
        endpoints.insert(endpoint);
        if (hosts.contains(a->host))
            repeated.insert(a->host);
        hosts.insert(a->host);
        nodes.append(*a);
    }
    if (nodes.isEmpty())
        return fail(QStringLiteral("no nodes given: expected user@host[:port],..."));
    QSet<QString> names;
    for (NodeAddress &n : nodes) {
        if (n.name.isEmpty()) {
            n.name = nameFromHost(n.host);
            if (repeated.contains(n.host))
                n.name += QStringLiteral("-%1").arg(n.port);
        }
        if (names.contains(n.name))
            return fail(QStringLiteral("two nodes are named '%1'").arg(n.name));
        names.insert(n.name);
    }
    return nodes;
}

} // namespace TrainDesk
