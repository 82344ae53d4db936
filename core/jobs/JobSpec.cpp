#include "JobSpec.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QStringList>

namespace TrainDesk {

namespace {

const QString toolkitKeys[] = {
    QStringLiteral("customMpiSettings"), QStringLiteral("horovodSettings"),
    QStringLiteral("customToolkitSettings"), QStringLiteral("cntkSettings"),
    QStringLiteral("pyTorchSettings"), QStringLiteral("tensorFlowSettings"),
    QStringLiteral("caffeSettings"), QStringLiteral("caffe2Settings"), QStringLiteral("chainerSettings")};

QString typeName(const QJsonValue &v)
{
    switch (v.type()) {
    case QJsonValue::Null: return QStringLiteral("null");
    case QJsonValue::Bool: return QStringLiteral("a boolean");
    case QJsonValue::Double: return QStringLiteral("a number");
    case QJsonValue::String: return QStringLiteral("a string");
    case QJsonValue::Array: return QStringLiteral("an array");
    case QJsonValue::Object: return QStringLiteral("an object");
    case QJsonValue::Undefined: break;
    }
    return QStringLiteral("nothing");
}

// Collects issues while reading typed fields, so one pass reports every problem.
class Reader
{
public:
    QList<SpecIssue> issues;

    void error(const QString &path, const QString &message)
    {
        issues.append({SpecIssue::Severity::Error, path, message});
    }
    void warning(const QString &path, const QString &message)
    {
        issues.append({SpecIssue::Severity::Warning, path, message});
    }

    std::optional<QString> string(const QJsonObject &o, const QString &path, const QString &key, bool required)
    {
        const QJsonValue v = o.value(key);
        if (v.isUndefined()) {
            if (required)
                error(path + '.' + key, QStringLiteral("required field is missing (expected a string)"));
            return std::nullopt;
        }
        if (!v.isString()) {
            error(path + '.' + key, QStringLiteral("expected a string, found %1").arg(typeName(v)));
            return std::nullopt;
        }
        return v.toString();
    }

    std::optional<int> integer(const QJsonObject &o, const QString &path, const QString &key, int minimum)
    {
        const QJsonValue v = o.value(key);
        if (v.isUndefined())
            return std::nullopt;
        const double d = v.toDouble();
        if (!v.isDouble() || d != double(qint64(d))) {
            error(path + '.' + key, QStringLiteral("expected an integer, found %1")
                                        .arg(v.isDouble() ? QString::number(d) : typeName(v)));
            return std::nullopt;
        }
        if (d < minimum || d > 1e6) {
            error(path + '.' + key, QStringLiteral("expected an integer of at least %1, found %2")
                                        .arg(minimum).arg(qint64(d)));
            return std::nullopt;
        }
        return int(d);
    }

    std::optional<QJsonObject> object(const QJsonObject &o, const QString &path, const QString &key)
    {
        const QJsonValue v = o.value(key);
        if (v.isUndefined())
            return std::nullopt;
        if (!v.isObject()) {
            error(path + '.' + key, QStringLiteral("expected an object, found %1").arg(typeName(v)));
            return std::nullopt;
        }
        return v.toObject();
    }

    std::optional<QJsonArray> array(const QJsonObject &o, const QString &path, const QString &key)
    {
        const QJsonValue v = o.value(key);
        if (v.isUndefined())
            return std::nullopt;
        if (!v.isArray()) {
            error(path + '.' + key, QStringLiteral("expected an array, found %1").arg(typeName(v)));
            return std::nullopt;
        }
        return v.toArray();
    }
};

void lineAndColumn(const QByteArray &text, int offset, int *line, int *column)
{
    *line = 1;
    *column = 1;
    for (int i = 0; i < offset && i < text.size(); ++i) {
        if (text.at(i) == '\n') {
            ++*line;
            *column = 1;
        } else {
            ++*column;
        }
    }
}

} // namespace

QString SpecIssue::text() const
{
    QString where = path;
    if (line > 0)
        where += QStringLiteral(" (line %1, column %2)").arg(line).arg(column);
    const QString level = severity == Severity::Error ? QStringLiteral("error") : QStringLiteral("warning");
    return QStringLiteral("%1: %2: %3").arg(level, where, message);
}

int JobSpec::processCount() const
{
    if (customMpiSettings && customMpiSettings->processCount)
        return *customMpiSettings->processCount;
    if (horovodSettings && horovodSettings->processCount)
        return *horovodSettings->processCount;
    return nodeCount;
}

int JobSpec::priorityRank() const
{
    if (schedulingPriority == QLatin1String("high"))
        return 2;
    if (schedulingPriority == QLatin1String("low"))
        return 0;
    return 1;
}

bool ParsedJobSpec::hasErrors() const
{
    for (const SpecIssue &i : issues) {
        if (i.severity == SpecIssue::Severity::Error)
            return true;
    }
    return false;
}

QStringList ParsedJobSpec::errorTexts() const
{
    QStringList texts;
    for (const SpecIssue &i : issues) {
        if (i.severity == SpecIssue::Severity::Error)
            texts << i.text();
    }
    return texts;
}

ParsedJobSpec parseJobSpec(const QByteArray &json)
{
    ParsedJobSpec parsed;
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(json, &parseError);
    if (parseError.error != QJsonParseError::NoError) {
        SpecIssue issue{SpecIssue::Severity::Error, QStringLiteral("$"),
                        QStringLiteral("invalid JSON: %1").arg(parseError.errorString())};
        lineAndColumn(json, parseError.offset, &issue.line, &issue.column);
        parsed.issues.append(issue);
        return parsed;
    }
    if (!doc.isObject()) {
        parsed.issues.append({SpecIssue::Severity::Error, QStringLiteral("$"),
                              QStringLiteral("expected an object at the top level")});
        return parsed;
    }
    QJsonObject props = doc.object();
    QString base = QStringLiteral("properties");
    if (props.contains(QLatin1String("properties")) && props.value(QLatin1String("properties")).isObject())
        props = props.value(QLatin1String("properties")).toObject();

    Reader r;
    JobSpec &spec = parsed.spec;
    spec.properties = props;

    if (props.contains(QLatin1String("nodeCount"))) {
        if (auto n = r.integer(props, base, QStringLiteral("nodeCount"), 1))
            spec.nodeCount = *n;
    }
    if (auto s = r.string(props, base, QStringLiteral("stdOutErrPathPrefix"), true))
        spec.stdOutErrPathPrefix = *s;
    if (auto s = r.string(props, base, QStringLiteral("schedulingPriority"), false)) {
        if (*s != QLatin1String("low") && *s != QLatin1String("normal") && *s != QLatin1String("high"))
            r.error(base + QStringLiteral(".schedulingPriority"),
                    QStringLiteral("expected one of low, normal, high, found '%1'").arg(*s));
        else
            spec.schedulingPriority = *s;
    }

    QStringList toolkits;
    for (const QString &key : toolkitKeys) {
        if (props.contains(key))
            toolkits << key;
    }
    if (toolkits.isEmpty())
        r.error(base, QStringLiteral("expected one toolkit setting (customMpiSettings, horovodSettings, ...), found none"));
    else if (toolkits.size() > 1)
        r.error(base, QStringLiteral("expected one toolkit setting, found %1").arg(toolkits.join(QStringLiteral(", "))));

    const QString mpiPath = base + QStringLiteral(".customMpiSettings");
    if (auto o = r.object(props, base, QStringLiteral("customMpiSettings"))) {
        MpiSettings mpi;
        mpi.commandLine = r.string(*o, mpiPath, QStringLiteral("commandLine"), true).value_or(QString());
        mpi.processCount = r.integer(*o, mpiPath, QStringLiteral("processCount"), 1);
        spec.customMpiSettings = mpi;
    }
    const QString horovodPath = base + QStringLiteral(".horovodSettings");
    if (auto o = r.object(props, base, QStringLiteral("horovodSettings"))) {
        HorovodSettings h;
        h.pythonScriptFilePath = r.string(*o, horovodPath, QStringLiteral("pythonScriptFilePath"), true).value_or(QString());
        h.pythonInterpreterPath = r.string(*o, horovodPath, QStringLiteral("pythonInterpreterPath"), false).value_or(QString());
        h.commandLineArgs = r.string(*o, horovodPath, QStringLiteral("commandLineArgs"), false).value_or(QString());
        h.processCount = r.integer(*o, horovodPath, QStringLiteral("processCount"), 1);
        spec.horovodSettings = h;
    }
    const QString customPath = base + QStringLiteral(".customToolkitSettings");
    if (auto o = r.object(props, base, QStringLiteral("customToolkitSettings"))) {
        CustomToolkitSettings c;
        c.commandLine = r.string(*o, customPath, QStringLiteral("commandLine"), false).value_or(QString());
        spec.customToolkitSettings = c;
    }
    for (const QString &key : toolkitKeys) {
        if (props.contains(key) && key != QLatin1String("customMpiSettings") && key != QLatin1String("horovodSettings")
            && key != QLatin1String("customToolkitSettings")) {
            r.error(base + '.' + key, QStringLiteral("%1 is not supported yet; use customMpiSettings, "
                                                     "horovodSettings or customToolkitSettings").arg(key));
        }
    }

    if (auto o = r.object(props, base, QStringLiteral("jobPreparation")))
        spec.jobPreparationCommandLine = r.string(*o, base + QStringLiteral(".jobPreparation"),
                                                  QStringLiteral("commandLine"), true);

    if (auto a = r.array(props, base, QStringLiteral("outputDirectories"))) {
        for (int i = 0; i < a->size(); ++i) {
            const QString path = base + QStringLiteral(".outputDirectories[%1]").arg(i);
            if (!a->at(i).isObject()) {
                r.error(path, QStringLiteral("expected an object, found %1").arg(typeName(a->at(i))));
                continue;
            }
            const QJsonObject o = a->at(i).toObject();
            OutputDirectory d;
            d.id = r.string(o, path, QStringLiteral("id"), true).value_or(QString());
            d.pathPrefix = r.string(o, path, QStringLiteral("pathPrefix"), true).value_or(QString());
            d.pathSuffix = r.string(o, path, QStringLiteral("pathSuffix"), false).value_or(QString());
            if (!d.id.isEmpty())
                spec.outputDirectories.append(d);
        }
    }
    if (auto a = r.array(props, base, QStringLiteral("environmentVariables"))) {
        for (int i = 0; i < a->size(); ++i) {
            const QString path = base + QStringLiteral(".environmentVariables[%1]").arg(i);
            const QJsonObject o = a->at(i).toObject();
            EnvironmentVariable e;
            e.name = r.string(o, path, QStringLiteral("name"), true).value_or(QString());
            e.value = r.string(o, path, QStringLiteral("value"), true).value_or(QString());
            if (!e.name.isEmpty())
                spec.environmentVariables.append(e);
        }
    }

    parsed.issues = r.issues;
    return parsed;
}

} // namespace TrainDesk
