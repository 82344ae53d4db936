#pragma once

#include "JobSpecModel.h"

#include <QByteArray>
#include <QJsonObject>
#include <QHash>
#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

namespace TrainDesk {

// A problem found in a job.json: where (JSON path, and line/column in the text), what was
// expected and what was found.
struct SpecIssue
{
    enum class Severity { Error, Warning };
    Severity severity = Severity::Error;
    QString path;     // e.g. "properties.customMpiSettings.processCount"
    QString message;
    int line = 0;     // 1-based, 0 when not known
    int column = 0;

    QString text() const;
};

// A whole 2018-05-01 job.json (JobCreateParameters.properties). `properties` keeps the
// object as read.
struct JobSpec
{
    // The file's shape: {"$schema": ..., "properties": {...}} or the bare properties object.
    bool fileShape = false;
    std::optional<QString> schema;   // "$schema"
    QJsonObject fileExtra;           // other keys beside "properties", kept

    std::optional<QString> schedulingPriority;  // low, normal, high
    std::optional<ResourceId> cluster;
    std::optional<MountVolumes> mountVolumes;
    int nodeCount = 1;
    std::optional<ContainerSettings> containerSettings;
    std::optional<CntkSettings> cntkSettings;
    std::optional<PyTorchSettings> pyTorchSettings;
    std::optional<TensorFlowSettings> tensorFlowSettings;
    std::optional<CaffeSettings> caffeSettings;
    std::optional<Caffe2Settings> caffe2Settings;
    std::optional<ChainerSettings> chainerSettings;
    std::optional<CustomToolkitSettings> customToolkitSettings;
    std::optional<CustomMpiSettings> customMpiSettings;
    std::optional<HorovodSettings> horovodSettings;
    std::optional<JobPreparation> jobPreparation;
    QString stdOutErrPathPrefix;
    std::optional<QList<InputDirectory>> inputDirectories;
    std::optional<QList<OutputDirectory>> outputDirectories;
    std::optional<QList<EnvironmentVariable>> environmentVariables;
    std::optional<QList<EnvironmentVariableWithSecretValue>> secrets;
    std::optional<JobConstraints> constraints;
    // TrainDesk's: what each process takes of its node, so that jobs share nodes
    // (jobs/ResourcePlacement); wholeNodes asks for nodes to itself.
    std::optional<int> gpusPerProcess;
    std::optional<int> coresPerProcess;
    std::optional<bool> wholeNodes;
    QJsonObject extra;               // unknown fields of properties, kept

    QJsonObject properties;          // the properties object as read

    bool operator==(const JobSpec &) const = default;

    // The first toolkit setting present (a valid spec has exactly one).
    Toolkit toolkit() const;
    // The number of processes: the toolkit's processCount when it has one, else nodeCount.
    int processCount() const;
    // Higher first: the scheduler's order (low 0, normal 1, high 2).
    int priorityRank() const;
    std::optional<QString> jobPreparationCommandLine() const;
};

// What the checks that need more than the file know about where the job goes. Unset
// members skip their checks (`job validate` without a cluster).
struct SpecContext
{
    QString workspace;
    QString cluster;
    std::optional<int> clusterNodeCount;
    std::optional<QStringList> shareNames;  // the workspace's shares that the cluster's nodes see
    QHash<QString, QString> otherClustersShares;  // share -> its cluster: shares the nodes do not see
};

struct ParsedJobSpec
{
    JobSpec spec;
    QList<SpecIssue> issues;

    bool hasErrors() const;
    QStringList errorTexts() const;
    QList<SpecIssue> errors() const;
    QList<SpecIssue> warnings() const;
};

// Reads the service's file shape or the bare properties object and checks everything that
// can be checked: syntax (with line and column), types, required fields, enums, ranges, the
// toolkit, and with a context the cluster's size and the shares. Every issue carries its
// JSON path and, when the text shows it, its line and column.
// job.json files larger than this are refused (the service's own limit was far below).
constexpr qint64 maxJobSpecBytes = 16 * 1024 * 1024;

ParsedJobSpec parseJobSpec(const QByteArray &json, const SpecContext &context = {});

// The properties object of `spec` (every field it holds, unknown ones included).
QJsonObject jobSpecProperties(const JobSpec &spec);
// The whole file, in the shape it was read in.
QByteArray writeJobSpec(const JobSpec &spec);

} // namespace TrainDesk
