#include "Entities.h"

#include <QJsonDocument>
#include <QJsonObject>

#include <array>
#include <utility>

namespace TrainDesk {

namespace {

// One table per enum keeps the text forms (stored in SQLite and printed by the CLI) in one place.
template<typename Enum, size_t N>
QString enumToString(const std::array<std::pair<Enum, const char *>, N> &table, Enum value)
{
    for (const auto &[e, text] : table) {
        if (e == value)
            return QString::fromLatin1(text);
    }
    return {};
}

template<typename Enum, size_t N>
std::optional<Enum> enumFromString(const std::array<std::pair<Enum, const char *>, N> &table,
                                   const QString &text)
{
    for (const auto &[e, name] : table) {
        if (text.compare(QLatin1String(name), Qt::CaseInsensitive) == 0)
            return e;
    }
    return std::nullopt;
}

constexpr std::array<std::pair<ClusterKind, const char *>, 3> clusterKinds{{
    {ClusterKind::Local, "local"}, {ClusterKind::Ssh, "ssh"}, {ClusterKind::Slurm, "slurm"}}};
constexpr std::array<std::pair<NodeState, const char *>, 5> nodeStates{{
    {NodeState::Idle, "idle"}, {NodeState::Preparing, "preparing"}, {NodeState::Running, "running"},
    {NodeState::Leaving, "leaving"}, {NodeState::Unusable, "unusable"}}};
constexpr std::array<std::pair<ShareKind, const char *>, 3> shareKinds{{
    {ShareKind::Local, "local"}, {ShareKind::ClusterPath, "cluster"}, {ShareKind::Replicated, "replicated"}}};
constexpr std::array<std::pair<JobState, const char *>, 6> jobStates{{
    {JobState::Draft, "draft"}, {JobState::Queued, "queued"}, {JobState::Running, "running"},
    {JobState::Terminating, "terminating"}, {JobState::Succeeded, "succeeded"}, {JobState::Failed, "failed"}}};

} // namespace

QString toString(ClusterKind kind) { return enumToString(clusterKinds, kind); }
std::optional<ClusterKind> clusterKindFromString(const QString &text) { return enumFromString(clusterKinds, text); }
QString toString(NodeState state) { return enumToString(nodeStates, state); }
std::optional<NodeState> nodeStateFromString(const QString &text) { return enumFromString(nodeStates, text); }
QString toString(ShareKind kind) { return enumToString(shareKinds, kind); }
std::optional<ShareKind> shareKindFromString(const QString &text) { return enumFromString(shareKinds, text); }
QString toString(JobState state) { return enumToString(jobStates, state); }
std::optional<JobState> jobStateFromString(const QString &text) { return enumFromString(jobStates, text); }

QByteArray SlurmSettings::toJson() const
{
    const QJsonObject o{{QStringLiteral("login"), login},
                        {QStringLiteral("partition"), partition},
                        {QStringLiteral("account"), account},
                        {QStringLiteral("qos"), qos},
                        {QStringLiteral("gpusPerNode"), gpusPerNode}};
    return QJsonDocument(o).toJson(QJsonDocument::Compact);
}

SlurmSettings SlurmSettings::fromJson(const QByteArray &json)
{
    const QJsonObject o = QJsonDocument::fromJson(json).object();
    SlurmSettings s;
    s.login = o.value(QStringLiteral("login")).toString();
    s.partition = o.value(QStringLiteral("partition")).toString();
    s.account = o.value(QStringLiteral("account")).toString();
    s.qos = o.value(QStringLiteral("qos")).toString();
    s.gpusPerNode = o.value(QStringLiteral("gpusPerNode")).toInt();
    return s;
}

} // namespace TrainDesk
