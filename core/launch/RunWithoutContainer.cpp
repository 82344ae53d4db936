#include "RunWithoutContainer.h"

#include "cluster/NodeProbe.h"

#include <QJsonDocument>
#include <QJsonObject>

namespace TrainDesk::RunWithoutContainer {

QByteArray apply(const QByteArray &spec, QStringList *removed)
{
    QJsonParseError error;
    QJsonDocument doc = QJsonDocument::fromJson(spec, &error);
    if (error.error != QJsonParseError::NoError || !doc.isObject())
        return spec;
    QJsonObject root = doc.object();
    QJsonObject properties = root.value(QStringLiteral("properties")).toObject();
    if (!properties.contains(QStringLiteral("containerSettings")))
        return spec;
    for (const QString key : {QStringLiteral("containerSettings"), QStringLiteral("jobPreparation")}) {
        if (properties.contains(key)) {
            properties.remove(key);
            if (removed)
                *removed << QStringLiteral("properties.") + key;
        }
    }
    root.insert(QStringLiteral("properties"), properties);
    return QJsonDocument(root).toJson(QJsonDocument::Indented);
}

std::optional<QString> refusal(const JobSpec &spec, const QList<Node> &nodes)
{
    if (!spec.containerSettings)
        return std::nullopt;
    QStringList without;
    for (const Node &node : nodes.mid(0, spec.nodeCount)) {
        const QJsonObject facts = QJsonDocument::fromJson(node.facts.toUtf8()).object();
        if (!NodeFacts::knowsContainerRuntimes(facts))
            continue;
        if (NodeFacts::fromJson(facts).containerRuntimes.isEmpty())
            without << node.name;
    }
    if (without.isEmpty())
        return std::nullopt;
    return QStringLiteral("properties.containerSettings names the image %1, but node%2 %3 ha%4 neither apptainer "
                          "nor docker (with its daemon answering): install one there, or run the job on the nodes as they are with "
                          "'traindesk job create --no-container' (in the job editor: Run without the container), "
                          "which leaves out containerSettings and the jobPreparation that ran in the container")
        .arg(spec.containerSettings->imageSourceRegistry.image, without.size() == 1 ? QString() : QStringLiteral("s"),
             without.join(QStringLiteral(", ")), without.size() == 1 ? QStringLiteral("s") : QStringLiteral("ve"));
}

} // namespace TrainDesk::RunWithoutContainer
