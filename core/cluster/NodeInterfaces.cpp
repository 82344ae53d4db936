#include "NodeInterfaces.h"

#include "TransportFactory.h"
#include "store/Store.h"
#include "transport/Transport.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <thread>
#include <vector>

namespace TrainDesk::NodeInterfaces {

QString command()
{
    return QStringLiteral("if command -v ip >/dev/null 2>&1; then ip -o -4 addr show 2>/dev/null | "
                          "awk '{print \"addr=\" $2 \" \" $4}'; fi\n");
}

QList<QPair<QString, QString>> parse(const QByteArray &output)
{
    QList<QPair<QString, QString>> result;
    for (const QByteArray &raw : output.split('\n')) {
        const QString line = QString::fromUtf8(raw).trimmed();
        if (!line.startsWith(QLatin1String("addr=")))
            continue;
        const QString value = line.mid(5);
        result.append({value.section(QLatin1Char(' '), 0, 0), value.section(QLatin1Char(' '), 1, 1)});
    }
    return result;
}

bool recorded(const Node &node)
{
    return !QJsonDocument::fromJson(node.facts.toUtf8()).object().value(QStringLiteral("addresses")).toArray().isEmpty();
}

QList<Node> recordMissing(Store &store, const Cluster &cluster, const QList<Node> &nodes, QStringList *problems, bool all)
{
    QList<Node> result = nodes;
    QStringList errors(nodes.size());
    // Detached here, once: a QList shared with `nodes` would detach in every thread's
    // operator[] at once (a data race that crashed `cluster create`).
    Node *const each = result.data();
    QString *const errorOf = errors.data();
    std::vector<std::thread> threads;
    for (qsizetype i = 0; i < result.size(); ++i) {
        if (!all && recorded(result.at(i)))
            continue;
        threads.emplace_back([&, i] {
            Node &node = each[i];
            const auto transport = openTransport(cluster, node);
            const auto out = transport ? (*transport)->exec(command(), 30000) : Result<ExecResult>(transport.failure());
            const auto addresses = out && out->exitCode == 0 ? parse(out->stdOut) : QList<QPair<QString, QString>>{};
            if (addresses.isEmpty()) {
                errorOf[i] = QStringLiteral("node %1: its interfaces cannot be read: %2")
                                .arg(node.name, !out ? out.error() : QStringLiteral("'ip -o -4 addr show' printed none"));
                return;
            }
            QJsonArray array;
            for (const auto &[iface, cidr] : addresses)
                array.append(QJsonObject{{"interface", iface}, {"address", cidr}});
            QJsonObject facts = QJsonDocument::fromJson(node.facts.toUtf8()).object();
            facts.insert(QStringLiteral("addresses"), array);
            node.facts = QString::fromUtf8(QJsonDocument(facts).toJson(QJsonDocument::Compact));
        });
    }
    for (std::thread &t : threads)
        t.join();
    // The store is written from this thread only.
    for (qsizetype i = 0; i < result.size(); ++i) {
        if (result.at(i).facts != nodes.at(i).facts) {
            if (auto ok = store.setNodeFacts(result.at(i).id, result.at(i).slotCount, result.at(i).facts); !ok)
                errors[i] = ok.error();
        }
        if (problems && !errors.at(i).isEmpty())
            *problems << errors.at(i);
    }
    return result;
}

} // namespace TrainDesk::NodeInterfaces
