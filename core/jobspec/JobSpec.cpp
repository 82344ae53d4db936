#include "JobSpec.h"

#include "JobSpecParses.h"
#include "JobSpecReader.h"
#include "JobSpecValidator.h"
#include "JsonLocator.h"

#include <QJsonDocument>

#include <algorithm>
#include <atomic>
#include <climits>

namespace TrainDesk {

QString toString(Toolkit toolkit)
{
    switch (toolkit) {
    case Toolkit::None: return QStringLiteral("none");
    case Toolkit::CustomMpi: return QStringLiteral("customMpiSettings");
    case Toolkit::Horovod: return QStringLiteral("horovodSettings");
    case Toolkit::CustomToolkit: return QStringLiteral("customToolkitSettings");
    case Toolkit::Cntk: return QStringLiteral("cntkSettings");
    case Toolkit::PyTorch: return QStringLiteral("pyTorchSettings");
    case Toolkit::TensorFlow: return QStringLiteral("tensorFlowSettings");
    case Toolkit::Caffe: return QStringLiteral("caffeSettings");
    case Toolkit::Caffe2: return QStringLiteral("caffe2Settings");
    case Toolkit::Chainer: return QStringLiteral("chainerSettings");
    }
    return QString();
}

QString SpecIssue::text() const
{
    QString where = path;
    if (line > 0)
        where += QStringLiteral(" (line %1, column %2)").arg(line).arg(column);
    const QString level = severity == Severity::Error ? QStringLiteral("error") : QStringLiteral("warning");
    return QStringLiteral("%1: %2: %3").arg(level, where, message);
}

Toolkit JobSpec::toolkit() const
{
    if (customMpiSettings)
        return Toolkit::CustomMpi;
    if (horovodSettings)
        return Toolkit::Horovod;
    if (customToolkitSettings)
        return Toolkit::CustomToolkit;
    if (cntkSettings)
        return Toolkit::Cntk;
    if (pyTorchSettings)
        return Toolkit::PyTorch;
    if (tensorFlowSettings)
        return Toolkit::TensorFlow;
    if (caffeSettings)
        return Toolkit::Caffe;
    if (caffe2Settings)
        return Toolkit::Caffe2;
    if (chainerSettings)
        return Toolkit::Chainer;
    return Toolkit::None;
}

int JobSpec::processCount() const
{
    std::optional<int> count;
    switch (toolkit()) {
    case Toolkit::CustomMpi: count = customMpiSettings->processCount; break;
    case Toolkit::Horovod: count = horovodSettings->processCount; break;
    case Toolkit::Cntk: count = cntkSettings->processCount; break;
    case Toolkit::PyTorch: count = pyTorchSettings->processCount; break;
    case Toolkit::Caffe: count = caffeSettings->processCount; break;
    case Toolkit::Chainer: count = chainerSettings->processCount; break;
    case Toolkit::TensorFlow:
        if (tensorFlowSettings->workerCount || tensorFlowSettings->parameterServerCount || nodeCount > 1)
            return tensorFlowSettings->workerCount.value_or(nodeCount) + tensorFlowSettings->parameterServerCount.value_or(1);
        return 1;
    case Toolkit::Caffe2: return nodeCount;
    case Toolkit::CustomToolkit: return 1;
    case Toolkit::None: break;
    }
    return count.value_or(nodeCount);
}

int JobSpec::priorityRank() const
{
    const QString p = schedulingPriority.value_or(QStringLiteral("normal"));
    if (p == QLatin1String("high"))
        return 2;
    if (p == QLatin1String("low"))
        return 0;
    return 1;
}

std::optional<QString> JobSpec::jobPreparationCommandLine() const
{
    if (!jobPreparation)
        return std::nullopt;
    return jobPreparation->commandLine;
}

bool ParsedJobSpec::hasErrors() const
{
    for (const SpecIssue &i : issues) {
        if (i.severity == SpecIssue::Severity::Error)
            return true;
    }
    return false;
}

QList<SpecIssue> ParsedJobSpec::errors() const
{
    QList<SpecIssue> list;
    for (const SpecIssue &i : issues) {
        if (i.severity == SpecIssue::Severity::Error)
            list.append(i);
    }
    return list;
}

QList<SpecIssue> ParsedJobSpec::warnings() const
{
    QList<SpecIssue> list;
    for (const SpecIssue &i : issues) {
        if (i.severity == SpecIssue::Severity::Warning)
            list.append(i);
    }
    return list;
}

QStringList ParsedJobSpec::errorTexts() const
{
    QStringList texts;
    for (const SpecIssue &i : errors())
        texts << i.text();
    return texts;
}

namespace {

// The JSON path of the first key or string value holding U+0000; a null string when none.
QString pathWithNul(const QJsonValue &value, const QString &path)
{
    const QChar nul(0);
    if (value.isString())
        return value.toString().contains(nul) ? (path.isNull() ? QStringLiteral("") : path) : QString();
    if (value.isArray()) {
        const QJsonArray array = value.toArray();
        for (qsizetype i = 0; i < array.size(); ++i) {
            const QString found = pathWithNul(array.at(i), QStringLiteral("%1[%2]").arg(path).arg(i));
            if (!found.isNull())
                return found;
        }
    }
    if (value.isObject()) {
        const QJsonObject object = value.toObject();
        for (auto it = object.begin(); it != object.end(); ++it) {
            const QString member = path.isEmpty() ? it.key() : path + QLatin1Char('.') + it.key();
            if (it.key().contains(nul))
                return member;
            const QString found = pathWithNul(it.value(), member);
            if (!found.isNull())
                return found;
        }
    }
    return QString();
}

} // namespace

namespace {
std::atomic<quint64> parses{0};
}

quint64 jobSpecParses() { return parses.load(std::memory_order_relaxed); }

namespace {

// parseJobSpec's steps, in its order.
std::optional<QJsonObject> readJsonObject(const QByteArray &json, QList<SpecIssue> &issues);
void readSpec(const QJsonObject &root, const SpecContext &context, ParsedJobSpec &parsed);
QJsonObject propertiesOfFile(const QJsonObject &root, JobSpec &spec, QList<SpecIssue> &issues);
void placeIssues(const QByteArray &json, bool fileShape, QList<SpecIssue> &issues);

} // namespace

ParsedJobSpec parseJobSpec(const QByteArray &json, const SpecContext &context)
{
    parses.fetch_add(1, std::memory_order_relaxed);
    ParsedJobSpec parsed;
    const std::optional<QJsonObject> root = readJsonObject(json, parsed.issues);
    if (!root)
        return parsed;
    readSpec(*root, context, parsed);
    placeIssues(json, parsed.spec.fileShape, parsed.issues);
    return parsed;
}

namespace {

// The file's top-level object, or nullopt with the one issue that stops the reading: too
// large, not JSON, not an object, or a NUL in a string.
std::optional<QJsonObject> readJsonObject(const QByteArray &json, QList<SpecIssue> &issues)
{
    if (json.size() > maxJobSpecBytes) {
        issues.append({SpecIssue::Severity::Error, QStringLiteral("$"),
                       QStringLiteral("the job.json is larger than %1 MiB: refused").arg(maxJobSpecBytes / (1024 * 1024)),
                       1, 1});
        return std::nullopt;
    }
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(json, &parseError);
    if (parseError.error != QJsonParseError::NoError) {
        qsizetype offset = 0;
        SpecIssue issue{SpecIssue::Severity::Error, QStringLiteral("$"),
                        QStringLiteral("invalid JSON: %1").arg(JsonLocator::syntaxError(json, parseError, &offset))};
        // Only the text up to the error is scanned: the rest is not JSON.
        const auto position = JsonLocator(json.left(offset)).position(offset);
        issue.line = position.line;
        issue.column = position.column;
        issues.append(issue);
        return std::nullopt;
    }
    if (!doc.isObject()) {
        issues.append({SpecIssue::Severity::Error, QStringLiteral("$"),
                       QStringLiteral("expected an object, found an array"), 1, 1});
        return std::nullopt;
    }
    // JSON allows no raw control characters in strings, and a NUL cut at a C boundary
    // (a command line, a path) would run something else than what the file shows.
    if (const QString path = pathWithNul(doc.object(), QString()); !path.isNull()) {
        const auto position = JsonLocator(json).locate(path);
        issues.append({SpecIssue::Severity::Error, path.isEmpty() ? QStringLiteral("$") : path,
                       QStringLiteral("a NUL character (U+0000) in a string: refused"), position.line, position.column});
        return std::nullopt;
    }
    return doc.object();
}

// The fields of the spec, read and checked (issues without positions yet).
void readSpec(const QJsonObject &root, const SpecContext &context, ParsedJobSpec &parsed)
{
    JobSpec &spec = parsed.spec;
    QList<SpecIssue> &issues = parsed.issues;
    // The service's file shape has "properties"; JobBaseProperties has no field of that name.
    spec.fileShape = root.contains(QLatin1String("properties")) || root.contains(QLatin1String("$schema"));
    const QJsonObject properties = spec.fileShape ? propertiesOfFile(root, spec, issues) : root;
    spec.properties = properties;
    if (!spec.fileShape || root.value(QLatin1String("properties")).isObject()) {
        SpecReading::ObjectReader reader(issues, properties, QStringLiteral("properties"));
        SpecReading::readProperties(reader, spec);
        validateJobSpec(spec, context, issues);
    }
}

// The service's file shape: "properties", with "$schema" and any other key beside it kept
// (a template's name, type, apiVersion), with a warning.
QJsonObject propertiesOfFile(const QJsonObject &root, JobSpec &spec, QList<SpecIssue> &issues)
{
    QList<SpecIssue> fileIssues;
    SpecReading::ObjectReader file(fileIssues, root, QString());
    spec.schema = file.optionalString(QStringLiteral("$schema"));
    file.markKnown(QStringLiteral("properties"));
    spec.fileExtra = file.unknownFields();
    for (SpecIssue &i : fileIssues) {
        if (i.path.startsWith(QLatin1Char('.')))
            i.path = i.path.mid(1);  // ".name" -> "name": top-level keys have no parent
    }
    issues += fileIssues;
    const QJsonValue p = root.value(QLatin1String("properties"));
    if (p.isUndefined()) {
        issues.append({SpecIssue::Severity::Error, QStringLiteral("properties"),
                       QStringLiteral("expected an object, found nothing (required field)")});
        return {};
    }
    if (!p.isObject()) {
        issues.append({SpecIssue::Severity::Error, QStringLiteral("properties"),
                       QStringLiteral("expected an object, found %1").arg(SpecReading::typeName(p))});
        return {};
    }
    return p.toObject();
}

// Adds a warning for each key given twice, gives every issue its line and column in the
// text, and sorts them in the file's order, as a compiler lists them.
void placeIssues(const QByteArray &json, bool fileShape, QList<SpecIssue> &issues)
{
    const JsonLocator locator(json);
    for (const QString &duplicate : locator.duplicateKeys()) {
        const QString path = fileShape ? duplicate : QStringLiteral("properties.") + duplicate;
        issues.append({SpecIssue::Severity::Warning, path,
                       QStringLiteral("given more than once; the last one counts")});
    }
    QStringList textPaths;
    textPaths.reserve(issues.size());
    for (const SpecIssue &issue : std::as_const(issues)) {
        QString textPath = issue.path;
        if (!fileShape) {
            if (textPath == QLatin1String("properties"))
                textPath.clear();
            else if (textPath.startsWith(QLatin1String("properties.")))
                textPath = textPath.mid(11);
        }
        textPaths << textPath;
    }
    const QList<JsonLocator::Position> positions = locator.locateAll(textPaths);
    for (qsizetype i = 0; i < issues.size(); ++i) {
        issues[i].line = positions.at(i).line;
        issues[i].column = positions.at(i).column;
    }
    std::stable_sort(issues.begin(), issues.end(), [](const SpecIssue &a, const SpecIssue &b) {
        const int lineA = a.line > 0 ? a.line : INT_MAX;
        const int lineB = b.line > 0 ? b.line : INT_MAX;
        return lineA != lineB ? lineA < lineB : a.column < b.column;
    });
}

} // namespace

} // namespace TrainDesk
