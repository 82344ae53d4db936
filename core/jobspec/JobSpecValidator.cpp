#include "JobSpecValidator.h"

#include "FieldBinding.h"
#include "ReliabilitySettings.h"
#include "ShareMapping.h"
#include "WallClockTime.h"

#include <QHash>
#include <QRegularExpression>
#include <QSet>

namespace TrainDesk {

const QStringList &toolkitKeys()
{
    static const QStringList keys = [] {
        QStringList list;
        for (const ToolkitEntry &t : toolkitEntries())
            list << t.key;
        return list;
    }();
    return keys;
}

namespace {

const QString base = QStringLiteral("properties");

QString at(const QString &path, const QString &key) { return path + QLatin1Char('.') + key; }

QString quoted(const QString &text)
{
    // Long values are cut: the message is one line.
    return QLatin1Char('\'') + (text.size() > 120 ? text.left(117) + QStringLiteral("...") : text) + QLatin1Char('\'');
}

class Checker
{
public:
    Checker(const JobSpec &spec, const SpecContext &context, QList<SpecIssue> &issues)
        : m_spec(spec), m_context(context), m_issues(issues)
    {
    }

    void run()
    {
        checkSchema();
        checkNodeCount();
        checkCluster();
        checkToolkits();
        checkDirectories();
        checkVariables();
        checkConstraints();
        checkContainer();
        checkMounts();
        // Last: on a path that has both, the checks above come first (as the file has them).
        SpecFields::visitFields(base, m_spec, [this](const QString &path, const FieldInfo &info,
                                                      const std::optional<QString> &text) { checkRules(path, info, text); });
    }

private:
    void error(const QString &path, const QString &message)
    {
        m_issues.append({SpecIssue::Severity::Error, path, message});
    }
    void warning(const QString &path, const QString &message)
    {
        m_issues.append({SpecIssue::Severity::Warning, path, message});
    }

    // Strings TrainDesk uses as they are: a <PLACEHOLDER> left in them was meant to be filled.
    void placeholders(const QString &path, const std::optional<QString> &text)
    {
        static const QRegularExpression placeholder(QStringLiteral("<[A-Z][A-Z0-9_]*>"));
        if (!text)
            return;
        const auto m = placeholder.match(*text);
        if (m.hasMatch()) {
            warning(path, QStringLiteral("contains the placeholder %1, which TrainDesk does not fill in; "
                                         "replace it before submitting").arg(m.captured(0)));
        }
    }

    // The value at an issue path ("properties.a.b[2].c") as the file has it.
    QJsonValue raw(const QString &path) const
    {
        QJsonValue v = m_spec.properties;
        const QString relative = path.mid(base.size() + 1);
        for (const QString &part : relative.split(QLatin1Char('.'))) {
            const qsizetype bracket = part.indexOf(QLatin1Char('['));
            v = v[bracket < 0 ? part : part.left(bracket)];
            for (qsizetype i = bracket; i >= 0; i = part.indexOf(QLatin1Char('['), i + 1))
                v = v[part.mid(i + 1, part.indexOf(QLatin1Char(']'), i) - i - 1).toLongLong()];
        }
        return v;
    }

    // Only for strings the file has: a missing or mistyped one was reported by the reader.
    void notEmpty(const QString &path, const QString &text, const QString &what)
    {
        if (raw(path).isString() && text.trimmed().isEmpty())
            error(path, QStringLiteral("expected %1, found an empty string").arg(what));
    }

    // A path TrainDesk can resolve before the job starts: absolute, or under a mount root.
    void jobPath(const QString &path, const QString &text)
    {
        if (text.isEmpty()) {
            error(path, QStringLiteral("expected an absolute path, found an empty string"));
            return;
        }
        if (text.startsWith(QLatin1Char('/')) || text.startsWith(QLatin1String("$AZ_BATCHAI_"))
            || text.startsWith(QLatin1String("${AZ_BATCHAI_"))) {
            unseenShare(path, text);
            return;
        }
        error(path, QStringLiteral("expected an absolute path or one under $AZ_BATCHAI_MOUNT_ROOT or "
                                   "$AZ_BATCHAI_JOB_MOUNT_ROOT, found %1").arg(quoted(text)));
    }

    // A path under a mount root names a share by its first folder: one the cluster's nodes
    // do not see (a local share on SSH nodes: "cannot create directory .../local: permission
    // denied" at once) is refused here, unless a mount volume of the job is called that.
    void unseenShare(const QString &path, const QString &text)
    {
        static const QRegularExpression underRoot(QStringLiteral("^\\$\\{?AZ_BATCHAI_(?:JOB_)?MOUNT_ROOT\\}?/([^/]+)"));
        const QRegularExpressionMatch m = underRoot.match(text);
        if (!m.hasMatch() || !m_context.otherClustersShares.contains(m.captured(1)))
            return;
        const QString share = m.captured(1);
        for (const MountReference &r : mountReferences(m_spec)) {
            if (r.relativeMountPath == share)
                return;
        }
        unseenShareError(path, share);
    }

    void unseenShareError(const QString &path, const QString &share)
    {
        const QString owner = m_context.otherClustersShares.value(share);
        if (owner.isEmpty()) {
            // A local share: a folder of this machine.
            error(path, QStringLiteral("expected a share that the nodes of cluster '%1' see, found share '%2', a folder "
                                       "of this machine that they do not have: use a cluster or replicated share "
                                       "(traindesk share create --kind cluster|replicated -c %1)")
                            .arg(m_context.cluster, share));
        } else {
            error(path, QStringLiteral("expected a share that the nodes of cluster '%1' see, found share '%2' of cluster "
                                       "'%3'")
                            .arg(m_context.cluster, share, owner));
        }
    }

    // A path below another: relative, without "..".
    void relativePath(const QString &path, const QString &text, const QString &below)
    {
        static const QRegularExpression segment(QStringLiteral("^[A-Za-z0-9._-]+$"));
        const QStringList parts = text.split(QLatin1Char('/'));
        bool ok = !text.isEmpty();
        for (const QString &p : parts) {
            if (!segment.match(p).hasMatch() || p == QLatin1String("..") || p == QLatin1String("."))
                ok = false;
        }
        if (!ok) {
            error(path, QStringLiteral("expected a relative path inside %1 (letters, digits, '.', '_', '-', "
                                       "separated by '/', no '..'), found %2").arg(below, quoted(text)));
        }
    }

    void enumValue(const QString &path, const QString &value, const QStringList &allowed, Qt::CaseSensitivity cs)
    {
        for (const QString &a : allowed) {
            if (a.compare(value, cs) == 0)
                return;
        }
        error(path, QStringLiteral("expected one of %1, found %2").arg(allowed.join(QStringLiteral(", ")), quoted(value)));
    }

    void checkSchema()
    {
        if (!m_spec.schema)
            return;
        const QString &s = *m_spec.schema;
        if (s.contains(QLatin1String("2018-05-01")) && s.endsWith(QLatin1String("job.json")))
            return;
        warning(QStringLiteral("$schema"),
                QStringLiteral("expected the 2018-05-01 job schema, found %1; the file is read as 2018-05-01").arg(quoted(s)));
    }

    // The table's rules for one string the spec holds (JobSpecFields.cpp).
    void checkRules(const QString &path, const FieldInfo &info, const std::optional<QString> &text)
    {
        if (!text)
            return;
        if (!info.nonEmpty.isEmpty())
            notEmpty(path, *text, info.nonEmpty);
        if (info.jobPath && raw(path).isString())
            jobPath(path, *text);
        if (!info.allowed.isEmpty())
            enumValue(path, *text, info.allowed, info.allowedCase);
        if (info.placeholders)
            placeholders(path, text);
    }

    void checkNodeCount()
    {
        if (m_context.clusterNodeCount && m_spec.nodeCount > *m_context.clusterNodeCount) {
            error(at(base, QStringLiteral("nodeCount")),
                  QStringLiteral("expected at most %1 (the nodes of cluster '%2'), found %3")
                      .arg(*m_context.clusterNodeCount).arg(m_context.cluster).arg(m_spec.nodeCount));
        }
    }

    void checkCluster()
    {
        if (!m_spec.cluster)
            return;
        const QString path = at(base, QStringLiteral("cluster.id"));
        notEmpty(path, m_spec.cluster->id, QStringLiteral("a cluster's resource ID"));
        const QString named = lastSegment(m_spec.cluster->id);
        if (!m_context.cluster.isEmpty() && !named.isEmpty() && named != m_context.cluster) {
            warning(path, QStringLiteral("names cluster '%1', but the job goes to cluster '%2' (-c)")
                              .arg(named, m_context.cluster));
        }
    }

    QStringList presentToolkits() const
    {
        QStringList present;
        for (const SpecFields::Field<JobSpec> &f : SpecFields::fieldsOf<JobSpec>()) {
            if (toolkitEntry(f.info.key) && f.present(m_spec))
                present << f.info.key;
        }
        return present;
    }

    void checkToolkits()
    {
        const QStringList present = presentToolkits();
        // A toolkit given with the wrong type was reported already; do not also call it missing.
        bool anyKey = false;
        for (const QString &key : toolkitKeys())
            anyKey = anyKey || m_spec.properties.contains(key);
        if (!anyKey) {
            error(base, QStringLiteral("expected one toolkit setting (%1), found none")
                            .arg(toolkitKeys().join(QStringLiteral(", "))));
        } else if (present.size() > 1) {
            error(base, QStringLiteral("expected one toolkit setting, found %1: %2")
                            .arg(present.size()).arg(present.join(QStringLiteral(", "))));
        }
        // Each field's own rules (scripts, command lines, backends) are the table's; here what
        // needs more than one field.
        const int nodes = m_spec.nodeCount;
        if (const auto &s = m_spec.customToolkitSettings; s && !s->commandLine) {
            error(at(base, QStringLiteral("customToolkitSettings.commandLine")),
                  QStringLiteral("expected the command line to run on the head node, found nothing"));
        }
        if (const auto &s = m_spec.pyTorchSettings) {
            const int processes = s->processCount.value_or(nodes);
            if (!s->communicationBackend && processes > 1) {
                error(at(base, QStringLiteral("pyTorchSettings.communicationBackend")),
                      QStringLiteral("expected one of %1 for a distributed job (%2 processes), found nothing")
                          .arg(jobSpecField(QStringLiteral("pyTorchSettings.communicationBackend"))->info.allowed.join(QStringLiteral(", ")))
                          .arg(processes));
            }
        }
        if (const auto &s = m_spec.tensorFlowSettings) {
            const QString path = at(base, QStringLiteral("tensorFlowSettings"));
            if (s->parameterServerCount && *s->parameterServerCount > nodes) {
                error(at(path, QStringLiteral("parameterServerCount")),
                      QStringLiteral("expected at most %1 (nodeCount), found %2").arg(nodes).arg(*s->parameterServerCount));
            }
        }
        if (const auto &s = m_spec.cntkSettings)
            checkCntk(*s);
        if (const auto &s = m_spec.caffeSettings)
            checkCaffe(*s);
    }

    void checkCntk(const CntkSettings &s)
    {
        const QString path = at(base, QStringLiteral("cntkSettings"));
        QString language;
        if (s.languageType) {
            language = s.languageType->toLower();  // one of the table's, or no more is checked
        } else if (s.pythonScriptFilePath && !s.configFilePath) {
            language = QStringLiteral("python");
        } else {
            language = QStringLiteral("brainscript");
        }
        if (language == QLatin1String("brainscript")) {
            if (!s.configFilePath) {
                error(at(path, QStringLiteral("configFilePath")),
                      QStringLiteral("expected the BrainScript config file (languageType BrainScript), found nothing"));
            } else {
                notEmpty(at(path, QStringLiteral("configFilePath")), *s.configFilePath, QStringLiteral("a config file"));
            }
            for (const auto &[key, value] : {std::pair{QStringLiteral("pythonScriptFilePath"), s.pythonScriptFilePath},
                                             std::pair{QStringLiteral("pythonInterpreterPath"), s.pythonInterpreterPath}}) {
                if (value) {
                    error(at(path, key), QStringLiteral("expected nothing with languageType BrainScript "
                                                        "(only with Python), found a path"));
                }
            }
        } else if (language == QLatin1String("python")) {
            if (!s.pythonScriptFilePath) {
                error(at(path, QStringLiteral("pythonScriptFilePath")),
                      QStringLiteral("expected a Python script (languageType Python), found nothing"));
            } else {
                notEmpty(at(path, QStringLiteral("pythonScriptFilePath")), *s.pythonScriptFilePath,
                         QStringLiteral("the path of a Python script"));
            }
            if (s.configFilePath) {
                error(at(path, QStringLiteral("configFilePath")),
                      QStringLiteral("expected nothing with languageType Python (only with BrainScript), found a path"));
            }
        }
    }

    void checkCaffe(const CaffeSettings &s)
    {
        const QString path = at(base, QStringLiteral("caffeSettings"));
        if (s.configFilePath && s.pythonScriptFilePath) {
            error(path, QStringLiteral("expected configFilePath or pythonScriptFilePath, found both"));
        } else if (!s.configFilePath && !s.pythonScriptFilePath) {
            error(path, QStringLiteral("expected configFilePath (a solver for caffe train) or pythonScriptFilePath, "
                                       "found neither"));
        } else if (s.configFilePath) {
            notEmpty(at(path, QStringLiteral("configFilePath")), *s.configFilePath, QStringLiteral("a solver file"));
        } else {
            notEmpty(at(path, QStringLiteral("pythonScriptFilePath")), *s.pythonScriptFilePath,
                     QStringLiteral("the path of a Python script"));
        }
        if (s.pythonInterpreterPath && !s.pythonScriptFilePath) {
            error(at(path, QStringLiteral("pythonInterpreterPath")),
                  QStringLiteral("expected nothing without pythonScriptFilePath, found an interpreter"));
        }
    }

    void directoryId(const QString &path, const QString &id, QHash<QString, QString> &seen, const QString &variable)
    {
        static const QRegularExpression idPattern(QStringLiteral("^[A-Za-z0-9_]+$"));
        if (!idPattern.match(id).hasMatch()) {
            error(path, QStringLiteral("expected letters, digits and '_' (the id names %1_<id>), found %2")
                            .arg(variable, quoted(id)));
            return;
        }
        const QString key = id.toUpper();
        if (seen.contains(key)) {
            error(path, QStringLiteral("expected a unique id, found %1 again (first at %2)").arg(quoted(id), seen.value(key)));
            return;
        }
        seen.insert(key, path);
    }

    void checkDirectories()
    {
        if (m_spec.inputDirectories) {
            QHash<QString, QString> seen;
            for (qsizetype i = 0; i < m_spec.inputDirectories->size(); ++i) {
                const InputDirectory &d = m_spec.inputDirectories->at(i);
                const QString path = at(base, QStringLiteral("inputDirectories[%1]").arg(i));
                if (m_spec.properties.value(QStringLiteral("inputDirectories"))[i][QStringLiteral("id")].isString())
                    directoryId(at(path, QStringLiteral("id")), d.id, seen, QStringLiteral("AZ_BATCHAI_INPUT"));
            }
        }
        if (m_spec.outputDirectories) {
            QHash<QString, QString> seen;
            for (qsizetype i = 0; i < m_spec.outputDirectories->size(); ++i) {
                const OutputDirectory &d = m_spec.outputDirectories->at(i);
                const QString path = at(base, QStringLiteral("outputDirectories[%1]").arg(i));
                const QJsonValue raw = m_spec.properties.value(QStringLiteral("outputDirectories"))[i];
                if (raw[QStringLiteral("id")].isString()) {
                    if (d.id.compare(QLatin1String("stdouterr"), Qt::CaseInsensitive) == 0) {
                        error(at(path, QStringLiteral("id")),
                              QStringLiteral("expected an id other than 'stdouterr' (it names the job's standard "
                                             "output directory), found %1").arg(quoted(d.id)));
                    } else {
                        directoryId(at(path, QStringLiteral("id")), d.id, seen, QStringLiteral("AZ_BATCHAI_OUTPUT"));
                    }
                }
                if (d.pathSuffix && !d.pathSuffix->isEmpty())
                    relativePath(at(path, QStringLiteral("pathSuffix")), *d.pathSuffix, QStringLiteral("the job's outputs"));
            }
        }
    }

    void variableName(const QString &path, const QString &name, QHash<QString, QString> &seen)
    {
        static const QRegularExpression namePattern(QStringLiteral("^[A-Za-z_][A-Za-z0-9_]*$"));
        if (!namePattern.match(name).hasMatch()) {
            error(path, QStringLiteral("expected an environment variable name (a letter or '_', then letters, digits "
                                       "and '_'), found %1").arg(quoted(name)));
            return;
        }
        if (seen.contains(name)) {
            error(path, QStringLiteral("expected a unique name, found %1 again (first at %2)").arg(quoted(name), seen.value(name)));
            return;
        }
        seen.insert(name, path);
        if (name.startsWith(QLatin1String("AZ_BATCHAI_"))) {
            warning(path, QStringLiteral("%1 replaces the variable TrainDesk sets for the job").arg(quoted(name)));
        }
    }

    // Linux refuses to start a program with an environment string ("NAME=value") of 128 KiB
    // or more (MAX_ARG_STRLEN), or with arguments and environment past ARG_MAX (2 MiB under
    // the usual 8 MiB stack, less the node's own environment): the job would validate, then
    // vanish with "Argument list too long". Said here, naming the variable.
    static constexpr qsizetype maxVariableBytes = 128 * 1024 - 1;  // and its NUL
    static constexpr qsizetype maxEnvironmentBytes = 1024 * 1024;

    qsizetype variableSize(const QString &path, const QString &name, const QString &value)
    {
        const qsizetype bytes = name.toUtf8().size() + 1 + value.toUtf8().size();
        if (bytes > maxVariableBytes) {
            error(path, QStringLiteral("expected at most 128 KiB with the name (Linux's limit for one environment variable, "
                                       "MAX_ARG_STRLEN), found %1 KiB: the job could not start on any node (\"Argument "
                                       "list too long\"); put the value in a file on a share and pass its path")
                            .arg((bytes + 1023) / 1024));
        }
        return bytes;
    }

    void checkVariables()
    {
        QHash<QString, QString> seen;
        qsizetype environmentBytes = 0;
        const QJsonValue envRaw = m_spec.properties.value(QStringLiteral("environmentVariables"));
        if (m_spec.environmentVariables) {
            for (qsizetype i = 0; i < m_spec.environmentVariables->size(); ++i) {
                const QString path = at(base, QStringLiteral("environmentVariables[%1]").arg(i));
                if (envRaw[i][QStringLiteral("name")].isString())
                    variableName(at(path, QStringLiteral("name")), m_spec.environmentVariables->at(i).name, seen);
                placeholders(at(path, QStringLiteral("value")), m_spec.environmentVariables->at(i).value);
                environmentBytes += variableSize(at(path, QStringLiteral("value")), m_spec.environmentVariables->at(i).name,
                                                 m_spec.environmentVariables->at(i).value);
            }
        }
        const QJsonValue secretsRaw = m_spec.properties.value(QStringLiteral("secrets"));
        if (m_spec.secrets) {
            for (qsizetype i = 0; i < m_spec.secrets->size(); ++i) {
                const EnvironmentVariableWithSecretValue &s = m_spec.secrets->at(i);
                const QString path = at(base, QStringLiteral("secrets[%1]").arg(i));
                if (secretsRaw[i][QStringLiteral("name")].isString())
                    variableName(at(path, QStringLiteral("name")), s.name, seen);
                if (s.value)
                    environmentBytes += variableSize(at(path, QStringLiteral("value")), s.name, *s.value);
                if (s.valueSecretReference) {
                    error(at(path, QStringLiteral("valueSecretReference")),
                          QStringLiteral("expected value (TrainDesk cannot read Azure Key Vault), found a Key Vault reference"));
                } else if (!s.value && secretsRaw[i][QStringLiteral("value")].isUndefined()) {
                    error(at(path, QStringLiteral("value")), QStringLiteral("expected a string, found nothing "
                                                                            "(value or valueSecretReference is required)"));
                }
            }
        }
        if (environmentBytes > maxEnvironmentBytes) {
            error(at(base, QStringLiteral("environmentVariables")),
                  QStringLiteral("expected environment variables and secrets of at most 1 MiB together (what every node can "
                                 "pass to a program, ARG_MAX), found %1 KiB: the job could not start (\"Argument list too "
                                 "long\"); put large values in files on a share")
                      .arg((environmentBytes + 1023) / 1024));
        }
    }

    void checkConstraints()
    {
        if (!m_spec.constraints)
            return;
        const JobConstraints &c = *m_spec.constraints;
        const QString path = at(base, QStringLiteral("constraints"));
        QString message;
        if (c.maxWallClockTime && !parseWallClockTime(*c.maxWallClockTime, &message))
            error(at(path, QStringLiteral("maxWallClockTime")), message);
        if (c.progressTimeout && !parseProgressTimeout(*c.progressTimeout, &message))
            error(at(path, QStringLiteral("progressTimeout")), message);
        // Accepted and used, but Batch AI never had them: a file that uses them is TrainDesk's.
        const QJsonObject raw = m_spec.properties.value(QStringLiteral("constraints")).toObject();
        for (const QString &key : reliabilityExtensionKeys()) {
            if (raw.contains(key))
                warning(at(path, key), QStringLiteral("TrainDesk extension (not in Batch AI's 2018-05-01 schema): used here, "
                                                      "ignored by the service"));
        }
        if (c.retryOnExitCodes && !c.maxRetries.value_or(0))
            warning(at(path, QStringLiteral("retryOnExitCodes")), QStringLiteral("has no effect without maxRetries"));
        if (c.failOnHang.value_or(false) && !c.progressTimeout)
            warning(at(path, QStringLiteral("failOnHang")), QStringLiteral("has no effect without progressTimeout"));
    }

    void checkContainer()
    {
        if (!m_spec.containerSettings)
            return;
        const QString path = at(base, QStringLiteral("containerSettings"));
        const ImageSourceRegistry &registry = m_spec.containerSettings->imageSourceRegistry;
        const QString registryPath = at(path, QStringLiteral("imageSourceRegistry"));
        if (m_spec.properties.value(QStringLiteral("containerSettings"))[QStringLiteral("imageSourceRegistry")]
                [QStringLiteral("image")].isString()) {
            static const QRegularExpression imagePattern(QStringLiteral("^[A-Za-z0-9][A-Za-z0-9._/:@-]*$"));
            if (!imagePattern.match(registry.image).hasMatch() && !registry.image.contains(QLatin1Char('<'))) {
                error(at(registryPath, QStringLiteral("image")),
                      QStringLiteral("expected an image name such as tensorflow/tensorflow:1.8.0-gpu, found %1")
                          .arg(quoted(registry.image)));
            }
        }
        if (registry.credentials) {
            const QString credentialsPath = at(registryPath, QStringLiteral("credentials"));
            if (registry.credentials->passwordSecretReference) {
                error(at(credentialsPath, QStringLiteral("passwordSecretReference")),
                      QStringLiteral("expected password (TrainDesk cannot read Azure Key Vault), found a Key Vault reference"));
            } else if (!registry.credentials->password) {
                error(at(credentialsPath, QStringLiteral("password")),
                      QStringLiteral("expected a string, found nothing (password or passwordSecretReference is required)"));
            }
        }
        if (const auto &shm = m_spec.containerSettings->shmSize) {
            static const QRegularExpression size(QStringLiteral("^[0-9]+[bkmgBKMG]?$"));
            if (!size.match(*shm).hasMatch()) {
                error(at(path, QStringLiteral("shmSize")),
                      QStringLiteral("expected a size such as 1g, 512m or 67108864, found %1").arg(quoted(*shm)));
            }
        }
    }

    void storageCredentials(const QString &path, const std::optional<AzureStorageCredentials> &c)
    {
        if (c && c->accountKeySecretReference) {
            warning(at(path, QStringLiteral("credentials.accountKeySecretReference")),
                    QStringLiteral("not used: TrainDesk shares need no storage account key"));
        }
    }

    void fileMode(const QString &path, const std::optional<QString> &mode)
    {
        static const QRegularExpression octal(QStringLiteral("^0?[0-7]{3}$"));
        if (mode && !octal.match(*mode).hasMatch())
            error(path, QStringLiteral("expected an octal mode such as 0777, found %1").arg(quoted(*mode)));
    }

    void checkMounts()
    {
        if (!m_spec.mountVolumes)
            return;
        const MountVolumes &m = *m_spec.mountVolumes;
        if (m.azureFileShares) {
            for (qsizetype i = 0; i < m.azureFileShares->size(); ++i) {
                const AzureFileShareReference &s = m.azureFileShares->at(i);
                const QString path = at(base, QStringLiteral("mountVolumes.azureFileShares[%1]").arg(i));
                if (lastSegment(s.azureFileUrl).isEmpty() && !s.azureFileUrl.isEmpty()) {
                    error(at(path, QStringLiteral("azureFileUrl")),
                          QStringLiteral("expected a URL that ends in the share's name, found %1").arg(quoted(s.azureFileUrl)));
                }
                storageCredentials(path, s.credentials);
                fileMode(at(path, QStringLiteral("fileMode")), s.fileMode);
                fileMode(at(path, QStringLiteral("directoryMode")), s.directoryMode);
            }
        }
        if (m.azureBlobFileSystems) {
            for (qsizetype i = 0; i < m.azureBlobFileSystems->size(); ++i) {
                const QString path = at(base, QStringLiteral("mountVolumes.azureBlobFileSystems[%1]").arg(i));
                storageCredentials(path, m.azureBlobFileSystems->at(i).credentials);
            }
        }

        QHash<QString, QString> mountPaths;
        for (const MountReference &r : mountReferences(m_spec)) {
            const QString relativePathPath = at(r.path, QStringLiteral("relativeMountPath"));
            if (r.relativeMountPath.isEmpty())
                continue;  // missing or mistyped: reported by the reader
            relativePath(relativePathPath, r.relativeMountPath, QStringLiteral("$AZ_BATCHAI_JOB_MOUNT_ROOT"));
            for (auto it = mountPaths.cbegin(); it != mountPaths.cend(); ++it) {
                const QString &other = it.key();
                if (other == r.relativeMountPath) {
                    error(relativePathPath, QStringLiteral("expected a mount path no other volume uses, found %1 (also at %2)")
                                                .arg(quoted(r.relativeMountPath), it.value()));
                } else if (r.relativeMountPath.startsWith(other + QLatin1Char('/'))
                           || other.startsWith(r.relativeMountPath + QLatin1Char('/'))) {
                    // One would be made inside the other (inside a share, or a mounted file system).
                    error(relativePathPath, QStringLiteral("expected a mount path apart from the other volumes', found %1, "
                                                           "nested with %2 (at %3)")
                                                .arg(quoted(r.relativeMountPath), quoted(other), it.value()));
                }
            }
            mountPaths.insert(r.relativeMountPath, r.path);
            if (r.kind == MountReference::Kind::FileServer && !r.sourceDirectory.isEmpty())
                relativePath(at(r.path, QStringLiteral("sourceDirectory")), r.sourceDirectory, QStringLiteral("the share"));
            if (!m_context.shareNames || r.kind == MountReference::Kind::UnmanagedFileSystem)
                continue;
            const QString share = matchShare(r, *m_context.shareNames);
            const QString elsewhere = share.isEmpty() ? matchShare(r, m_context.otherClustersShares.keys()) : QString();
            if (!elsewhere.isEmpty()) {
                unseenShareError(r.path, elsewhere);
            } else if (share.isEmpty()) {
                QStringList names;
                for (const QString &c : r.candidateNames)
                    names << quoted(c);
                const QString known = m_context.shareNames->isEmpty()
                    ? QStringLiteral("it has none")
                    : QStringLiteral("it has %1").arg(m_context.shareNames->join(QStringLiteral(", ")));
                error(r.path, QStringLiteral("expected a share of workspace '%1' named %2, found none (%3)")
                                  .arg(m_context.workspace, names.join(QStringLiteral(" or ")), known));
            }
        }
    }

    const JobSpec &m_spec;
    const SpecContext &m_context;
    QList<SpecIssue> &m_issues;
};

} // namespace

void validateJobSpec(const JobSpec &spec, const SpecContext &context, QList<SpecIssue> &issues)
{
    Checker(spec, context, issues).run();
}

} // namespace TrainDesk
