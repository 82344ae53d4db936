#pragma once

#include <QJsonObject>
#include <QList>
#include <QString>

#include <optional>

namespace TrainDesk {

// A problem found in a job.json: where (JSON path, and line/column for syntax errors),
// what was expected and what was found.
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

struct MpiSettings
{
    QString commandLine;
    std::optional<int> processCount;
};

struct HorovodSettings
{
    QString pythonScriptFilePath;
    QString pythonInterpreterPath;
    QString commandLineArgs;
    std::optional<int> processCount;
};

struct CustomToolkitSettings
{
    QString commandLine;
};

struct OutputDirectory
{
    QString id;
    QString pathPrefix;
    QString pathSuffix;
};

struct EnvironmentVariable
{
    QString name;
    QString value;
};

// The fields of a 2018-05-01 JobCreateParameters that TrainDesk acts on. `properties`
// keeps the whole object as read, so writing a spec back loses nothing.
struct JobSpec
{
    int nodeCount = 1;
    std::optional<MpiSettings> customMpiSettings;
    std::optional<HorovodSettings> horovodSettings;
    std::optional<CustomToolkitSettings> customToolkitSettings;
    std::optional<QString> jobPreparationCommandLine;
    QString stdOutErrPathPrefix;
    QList<OutputDirectory> outputDirectories;
    QList<EnvironmentVariable> environmentVariables;
    QString schedulingPriority = QStringLiteral("normal");
    QJsonObject properties;

    // The number of MPI processes: processCount when given, else nodeCount.
    int processCount() const;
    // Higher first: the scheduler's order.
    int priorityRank() const;
};

struct ParsedJobSpec
{
    JobSpec spec;
    QList<SpecIssue> issues;

    bool hasErrors() const;
    QStringList errorTexts() const;
};

// Reads the service's file shape ({"$schema": ..., "properties": {...}}) or the bare
// properties object.
ParsedJobSpec parseJobSpec(const QByteArray &json);

} // namespace TrainDesk
