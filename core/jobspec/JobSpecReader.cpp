#include "JobSpecReader.h"

#include <QStringList>
#include <QVarLengthArray>

#include <algorithm>
#include <cmath>
#include <cstdlib>

namespace TrainDesk::SpecReading {

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

namespace {

// The edit distance of a and b, or `limit` as soon as it cannot be below it (each row's
// smallest cell only grows).
int editDistance(const QString &a, const QString &b, int limit)
{
    QVarLengthArray<int, 80> previous(b.size() + 1);
    QVarLengthArray<int, 80> current(b.size() + 1);
    for (qsizetype j = 0; j <= b.size(); ++j)
        previous[j] = int(j);
    for (qsizetype i = 1; i <= a.size(); ++i) {
        current[0] = int(i);
        int rowMinimum = current[0];
        for (qsizetype j = 1; j <= b.size(); ++j) {
            const int substitution = previous[j - 1] + (a.at(i - 1) == b.at(j - 1) ? 0 : 1);
            current[j] = std::min({previous[j] + 1, current[j - 1] + 1, substitution});
            rowMinimum = std::min(rowMinimum, current[j]);
        }
        if (rowMinimum >= limit)
            return limit;
        std::swap(previous, current);
    }
    return previous[b.size()];
}

QString folded(const QString &key)
{
    QString f = key.toLower();
    f.remove(QLatin1Char('_'));
    f.remove(QLatin1Char('-'));
    return f;
}

// A candidate's spellings, worked out once for all the keys of an object (160k unknown
// fields compared with every known name made them most of the validation's time).
struct Candidate
{
    QString name;
    QString folded;
    QString lower;
};

QList<Candidate> prepared(const QStringList &candidates)
{
    QList<Candidate> list;
    list.reserve(candidates.size());
    for (const QString &c : candidates)
        list.append({c, folded(c), c.toLower()});
    return list;
}

QString suggestFrom(const QString &key, const QList<Candidate> &candidates)
{
    // process_count, ProcessCount and processcount all mean processCount.
    const QString keyFolded = folded(key);
    for (const Candidate &c : candidates) {
        if (c.folded == keyFolded)
            return c.name;
    }
    if (key.size() > 64)
        return {};
    const QString keyLower = key.toLower();
    QString best;
    int bestDistance = std::max<int>(2, int(key.size()) / 4) + 1;
    for (const Candidate &c : candidates) {
        // The distance is at least the difference in length: most names are ruled out here.
        if (std::abs(c.lower.size() - keyLower.size()) >= bestDistance)
            continue;
        const int d = editDistance(keyLower, c.lower, bestDistance);
        if (d < bestDistance) {
            bestDistance = d;
            best = c.name;
        }
    }
    return best;
}

} // namespace

QString suggestKey(const QString &key, const QStringList &candidates)
{
    return suggestFrom(key, prepared(candidates));
}

ObjectReader::ObjectReader(QList<SpecIssue> &issues, const QJsonObject &object, const QString &path)
    : m_issues(issues), m_object(object), m_path(path)
{
}

void ObjectReader::error(const QString &path, const QString &message)
{
    m_issues.append({SpecIssue::Severity::Error, path, message});
}

void ObjectReader::warning(const QString &path, const QString &message)
{
    m_issues.append({SpecIssue::Severity::Warning, path, message});
}

std::optional<QString> ObjectReader::optionalString(const QString &key)
{
    m_known.insert(key);
    const QJsonValue v = m_object.value(key);
    if (v.isUndefined())
        return std::nullopt;
    if (!v.isString()) {
        // The value itself is never shown: it may be a secret.
        error(pathOf(key), QStringLiteral("expected a string, found %1").arg(typeName(v)));
        return std::nullopt;
    }
    return v.toString();
}

QString ObjectReader::requiredString(const QString &key)
{
    if (!m_object.contains(key)) {
        m_known.insert(key);
        error(pathOf(key), QStringLiteral("expected a string, found nothing (required field)"));
        return {};
    }
    return optionalString(key).value_or(QString());
}

std::optional<int> ObjectReader::optionalInt(const QString &key, int minimum, int maximum)
{
    m_known.insert(key);
    const QJsonValue v = m_object.value(key);
    if (v.isUndefined())
        return std::nullopt;
    if (!v.isDouble()) {
        error(pathOf(key), QStringLiteral("expected an integer, found %1").arg(typeName(v)));
        return std::nullopt;
    }
    const double d = v.toDouble();
    if (!std::isfinite(d) || d != std::floor(d)) {
        error(pathOf(key), QStringLiteral("expected an integer, found %1").arg(d));
        return std::nullopt;
    }
    if (d < minimum || d > maximum) {
        const QString found = QString::number(d, 'f', 0);
        if (d < minimum)
            error(pathOf(key), QStringLiteral("expected an integer of at least %1, found %2").arg(minimum).arg(found));
        else
            error(pathOf(key), QStringLiteral("expected an integer of at most %1, found %2").arg(maximum).arg(found));
        return std::nullopt;
    }
    return int(d);
}

std::optional<bool> ObjectReader::optionalBool(const QString &key)
{
    m_known.insert(key);
    const QJsonValue v = m_object.value(key);
    if (v.isUndefined())
        return std::nullopt;
    if (!v.isBool()) {
        error(pathOf(key), QStringLiteral("expected a boolean, found %1").arg(typeName(v)));
        return std::nullopt;
    }
    return v.toBool();
}

std::optional<QList<int>> ObjectReader::optionalIntArray(const QString &key, int minimum, int maximum)
{
    m_known.insert(key);
    const QJsonValue v = m_object.value(key);
    if (v.isUndefined())
        return std::nullopt;
    if (!v.isArray()) {
        error(pathOf(key), QStringLiteral("expected an array of integers, found %1").arg(typeName(v)));
        return std::nullopt;
    }
    QList<int> values;
    const QJsonArray array = v.toArray();
    for (qsizetype i = 0; i < array.size(); ++i) {
        const QString itemPath = QStringLiteral("%1[%2]").arg(pathOf(key)).arg(i);
        const double d = array.at(i).toDouble(std::nan(""));
        if (!array.at(i).isDouble() || d != std::floor(d)) {
            error(itemPath, QStringLiteral("expected an integer, found %1").arg(typeName(array.at(i))));
            continue;
        }
        if (d < minimum || d > maximum) {
            error(itemPath, QStringLiteral("expected an integer from %1 to %2, found %3").arg(minimum).arg(maximum)
                                .arg(QString::number(d, 'f', 0)));
            continue;
        }
        values.append(int(d));
    }
    return values;
}

std::optional<int> ObjectReader::requiredInt(const QString &key, int minimum, int maximum)
{
    if (!m_object.contains(key)) {
        m_known.insert(key);
        error(pathOf(key), QStringLiteral("expected an integer, found nothing (required field)"));
        return std::nullopt;
    }
    return optionalInt(key, minimum, maximum);
}

QJsonObject ObjectReader::unknownFields()
{
    QJsonObject unknown;
    const QList<Candidate> known = prepared(QStringList(m_known.cbegin(), m_known.cend()));
    // A typo is among a few unknown fields: past this many, no suggestions are looked for
    // (they would be noise, and the time of a document of 160k unknown fields).
    constexpr int maxSuggested = 1000;
    int count = 0;
    for (auto it = m_object.constBegin(); it != m_object.constEnd(); ++it) {
        if (m_known.contains(it.key()))
            continue;
        unknown.insert(it.key(), it.value());
        const QString suggestion = ++count <= maxSuggested ? suggestFrom(it.key(), known) : QString();
        QString message = QStringLiteral("unknown field, kept but not used");
        if (!suggestion.isEmpty())
            message += QStringLiteral(" (did you mean '%1'?)").arg(suggestion);
        warning(pathOf(it.key()), message);
    }
    return unknown;
}

namespace {

ResourceId readResourceId(ObjectReader &r)
{
    ResourceId id;
    id.id = r.requiredString(QStringLiteral("id"));
    return id;
}

KeyVaultSecretReference readKeyVaultSecretReference(ObjectReader &r)
{
    KeyVaultSecretReference ref;
    ref.sourceVault = r.requiredObject<ResourceId>(QStringLiteral("sourceVault"), readResourceId);
    ref.secretUrl = r.requiredString(QStringLiteral("secretUrl"));
    return ref;
}

AzureStorageCredentials readStorageCredentials(ObjectReader &r)
{
    AzureStorageCredentials c;
    c.accountKey = r.optionalString(QStringLiteral("accountKey"));
    c.accountKeySecretReference = r.optionalObject<KeyVaultSecretReference>(
        QStringLiteral("accountKeySecretReference"), readKeyVaultSecretReference);
    return c;
}

AzureFileShareReference readAzureFileShare(ObjectReader &r)
{
    AzureFileShareReference s;
    s.accountName = r.optionalString(QStringLiteral("accountName"));
    s.azureFileUrl = r.requiredString(QStringLiteral("azureFileUrl"));
    s.credentials = r.optionalObject<AzureStorageCredentials>(QStringLiteral("credentials"), readStorageCredentials);
    s.relativeMountPath = r.requiredString(QStringLiteral("relativeMountPath"));
    s.fileMode = r.optionalString(QStringLiteral("fileMode"));
    s.directoryMode = r.optionalString(QStringLiteral("directoryMode"));
    return s;
}

AzureBlobFileSystemReference readAzureBlobFileSystem(ObjectReader &r)
{
    AzureBlobFileSystemReference b;
    b.accountName = r.optionalString(QStringLiteral("accountName"));
    b.containerName = r.requiredString(QStringLiteral("containerName"));
    b.credentials = r.optionalObject<AzureStorageCredentials>(QStringLiteral("credentials"), readStorageCredentials);
    b.relativeMountPath = r.requiredString(QStringLiteral("relativeMountPath"));
    b.mountOptions = r.optionalString(QStringLiteral("mountOptions"));
    return b;
}

FileServerReference readFileServer(ObjectReader &r)
{
    FileServerReference f;
    f.fileServer = r.requiredObject<ResourceId>(QStringLiteral("fileServer"), readResourceId);
    f.sourceDirectory = r.optionalString(QStringLiteral("sourceDirectory"));
    f.relativeMountPath = r.requiredString(QStringLiteral("relativeMountPath"));
    f.mountOptions = r.optionalString(QStringLiteral("mountOptions"));
    return f;
}

UnmanagedFileSystemReference readUnmanagedFileSystem(ObjectReader &r)
{
    UnmanagedFileSystemReference u;
    u.mountCommand = r.requiredString(QStringLiteral("mountCommand"));
    u.relativeMountPath = r.requiredString(QStringLiteral("relativeMountPath"));
    return u;
}

MountVolumes readMountVolumes(ObjectReader &r)
{
    MountVolumes m;
    m.azureFileShares = r.optionalArray<AzureFileShareReference>(QStringLiteral("azureFileShares"), readAzureFileShare);
    m.azureBlobFileSystems = r.optionalArray<AzureBlobFileSystemReference>(QStringLiteral("azureBlobFileSystems"),
                                                                           readAzureBlobFileSystem);
    m.fileServers = r.optionalArray<FileServerReference>(QStringLiteral("fileServers"), readFileServer);
    m.unmanagedFileSystems = r.optionalArray<UnmanagedFileSystemReference>(QStringLiteral("unmanagedFileSystems"),
                                                                           readUnmanagedFileSystem);
    return m;
}

PrivateRegistryCredentials readRegistryCredentials(ObjectReader &r)
{
    PrivateRegistryCredentials c;
    c.username = r.requiredString(QStringLiteral("username"));
    c.password = r.optionalString(QStringLiteral("password"));
    c.passwordSecretReference = r.optionalObject<KeyVaultSecretReference>(QStringLiteral("passwordSecretReference"),
                                                                          readKeyVaultSecretReference);
    return c;
}

ImageSourceRegistry readImageSourceRegistry(ObjectReader &r)
{
    ImageSourceRegistry i;
    i.serverUrl = r.optionalString(QStringLiteral("serverUrl"));
    i.image = r.requiredString(QStringLiteral("image"));
    i.credentials = r.optionalObject<PrivateRegistryCredentials>(QStringLiteral("credentials"), readRegistryCredentials);
    return i;
}

ContainerSettings readContainerSettings(ObjectReader &r)
{
    ContainerSettings c;
    c.imageSourceRegistry = r.requiredObject<ImageSourceRegistry>(QStringLiteral("imageSourceRegistry"),
                                                                  readImageSourceRegistry);
    c.shmSize = r.optionalString(QStringLiteral("shmSize"));
    return c;
}

CntkSettings readCntk(ObjectReader &r)
{
    CntkSettings s;
    s.languageType = r.optionalString(QStringLiteral("languageType"));
    s.configFilePath = r.optionalString(QStringLiteral("configFilePath"));
    s.pythonScriptFilePath = r.optionalString(QStringLiteral("pythonScriptFilePath"));
    s.pythonInterpreterPath = r.optionalString(QStringLiteral("pythonInterpreterPath"));
    s.commandLineArgs = r.optionalString(QStringLiteral("commandLineArgs"));
    s.processCount = r.optionalInt(QStringLiteral("processCount"), 1);
    return s;
}

PyTorchSettings readPyTorch(ObjectReader &r)
{
    PyTorchSettings s;
    s.pythonScriptFilePath = r.requiredString(QStringLiteral("pythonScriptFilePath"));
    s.pythonInterpreterPath = r.optionalString(QStringLiteral("pythonInterpreterPath"));
    s.commandLineArgs = r.optionalString(QStringLiteral("commandLineArgs"));
    s.processCount = r.optionalInt(QStringLiteral("processCount"), 1);
    s.communicationBackend = r.optionalString(QStringLiteral("communicationBackend"));
    return s;
}

TensorFlowSettings readTensorFlow(ObjectReader &r)
{
    TensorFlowSettings s;
    s.pythonScriptFilePath = r.requiredString(QStringLiteral("pythonScriptFilePath"));
    s.pythonInterpreterPath = r.optionalString(QStringLiteral("pythonInterpreterPath"));
    s.masterCommandLineArgs = r.optionalString(QStringLiteral("masterCommandLineArgs"));
    s.workerCommandLineArgs = r.optionalString(QStringLiteral("workerCommandLineArgs"));
    s.parameterServerCommandLineArgs = r.optionalString(QStringLiteral("parameterServerCommandLineArgs"));
    s.workerCount = r.optionalInt(QStringLiteral("workerCount"), 1);
    s.parameterServerCount = r.optionalInt(QStringLiteral("parameterServerCount"), 0);
    return s;
}

CaffeSettings readCaffe(ObjectReader &r)
{
    CaffeSettings s;
    s.configFilePath = r.optionalString(QStringLiteral("configFilePath"));
    s.pythonScriptFilePath = r.optionalString(QStringLiteral("pythonScriptFilePath"));
    s.pythonInterpreterPath = r.optionalString(QStringLiteral("pythonInterpreterPath"));
    s.commandLineArgs = r.optionalString(QStringLiteral("commandLineArgs"));
    s.processCount = r.optionalInt(QStringLiteral("processCount"), 1);
    return s;
}

Caffe2Settings readCaffe2(ObjectReader &r)
{
    Caffe2Settings s;
    s.pythonScriptFilePath = r.requiredString(QStringLiteral("pythonScriptFilePath"));
    s.pythonInterpreterPath = r.optionalString(QStringLiteral("pythonInterpreterPath"));
    s.commandLineArgs = r.optionalString(QStringLiteral("commandLineArgs"));
    return s;
}

ChainerSettings readChainer(ObjectReader &r)
{
    ChainerSettings s;
    s.pythonScriptFilePath = r.requiredString(QStringLiteral("pythonScriptFilePath"));
    s.pythonInterpreterPath = r.optionalString(QStringLiteral("pythonInterpreterPath"));
    s.commandLineArgs = r.optionalString(QStringLiteral("commandLineArgs"));
    s.processCount = r.optionalInt(QStringLiteral("processCount"), 1);
    return s;
}

CustomToolkitSettings readCustomToolkit(ObjectReader &r)
{
    CustomToolkitSettings s;
    s.commandLine = r.optionalString(QStringLiteral("commandLine"));
    return s;
}

CustomMpiSettings readCustomMpi(ObjectReader &r)
{
    CustomMpiSettings s;
    s.commandLine = r.requiredString(QStringLiteral("commandLine"));
    s.processCount = r.optionalInt(QStringLiteral("processCount"), 1);
    return s;
}

HorovodSettings readHorovod(ObjectReader &r)
{
    HorovodSettings s;
    s.pythonScriptFilePath = r.requiredString(QStringLiteral("pythonScriptFilePath"));
    s.pythonInterpreterPath = r.optionalString(QStringLiteral("pythonInterpreterPath"));
    s.commandLineArgs = r.optionalString(QStringLiteral("commandLineArgs"));
    s.processCount = r.optionalInt(QStringLiteral("processCount"), 1);
    return s;
}

JobPreparation readJobPreparation(ObjectReader &r)
{
    JobPreparation p;
    p.commandLine = r.requiredString(QStringLiteral("commandLine"));
    return p;
}

InputDirectory readInputDirectory(ObjectReader &r)
{
    InputDirectory d;
    d.id = r.requiredString(QStringLiteral("id"));
    d.path = r.requiredString(QStringLiteral("path"));
    return d;
}

OutputDirectory readOutputDirectory(ObjectReader &r)
{
    OutputDirectory d;
    d.id = r.requiredString(QStringLiteral("id"));
    d.pathPrefix = r.requiredString(QStringLiteral("pathPrefix"));
    d.pathSuffix = r.optionalString(QStringLiteral("pathSuffix"));
    return d;
}

EnvironmentVariable readEnvironmentVariable(ObjectReader &r)
{
    EnvironmentVariable e;
    e.name = r.requiredString(QStringLiteral("name"));
    e.value = r.requiredString(QStringLiteral("value"));
    return e;
}

EnvironmentVariableWithSecretValue readSecret(ObjectReader &r)
{
    EnvironmentVariableWithSecretValue s;
    s.name = r.requiredString(QStringLiteral("name"));
    s.value = r.optionalString(QStringLiteral("value"));
    s.valueSecretReference = r.optionalObject<KeyVaultSecretReference>(QStringLiteral("valueSecretReference"),
                                                                       readKeyVaultSecretReference);
    return s;
}

JobConstraints readConstraints(ObjectReader &r)
{
    JobConstraints c;
    c.maxWallClockTime = r.optionalString(QStringLiteral("maxWallClockTime"));
    c.maxRetries = r.optionalInt(QStringLiteral("maxRetries"), 0, 100);
    c.retryOnExitCodes = r.optionalIntArray(QStringLiteral("retryOnExitCodes"), 1, 255);
    c.progressTimeout = r.optionalString(QStringLiteral("progressTimeout"));
    c.failOnHang = r.optionalBool(QStringLiteral("failOnHang"));
    return c;
}

} // namespace

void readProperties(ObjectReader &r, JobSpec &spec)
{
    spec.schedulingPriority = r.optionalString(QStringLiteral("schedulingPriority"));
    spec.cluster = r.optionalObject<ResourceId>(QStringLiteral("cluster"), readResourceId);
    spec.mountVolumes = r.optionalObject<MountVolumes>(QStringLiteral("mountVolumes"), readMountVolumes);
    if (const auto n = r.requiredInt(QStringLiteral("nodeCount"), 1))
        spec.nodeCount = *n;
    spec.containerSettings = r.optionalObject<ContainerSettings>(QStringLiteral("containerSettings"), readContainerSettings);
    spec.cntkSettings = r.optionalObject<CntkSettings>(QStringLiteral("cntkSettings"), readCntk);
    spec.pyTorchSettings = r.optionalObject<PyTorchSettings>(QStringLiteral("pyTorchSettings"), readPyTorch);
    spec.tensorFlowSettings = r.optionalObject<TensorFlowSettings>(QStringLiteral("tensorFlowSettings"), readTensorFlow);
    spec.caffeSettings = r.optionalObject<CaffeSettings>(QStringLiteral("caffeSettings"), readCaffe);
    spec.caffe2Settings = r.optionalObject<Caffe2Settings>(QStringLiteral("caffe2Settings"), readCaffe2);
    spec.chainerSettings = r.optionalObject<ChainerSettings>(QStringLiteral("chainerSettings"), readChainer);
    spec.customToolkitSettings = r.optionalObject<CustomToolkitSettings>(QStringLiteral("customToolkitSettings"),
                                                                         readCustomToolkit);
    spec.customMpiSettings = r.optionalObject<CustomMpiSettings>(QStringLiteral("customMpiSettings"), readCustomMpi);
    spec.horovodSettings = r.optionalObject<HorovodSettings>(QStringLiteral("horovodSettings"), readHorovod);
    spec.jobPreparation = r.optionalObject<JobPreparation>(QStringLiteral("jobPreparation"), readJobPreparation);
    spec.stdOutErrPathPrefix = r.requiredString(QStringLiteral("stdOutErrPathPrefix"));
    spec.inputDirectories = r.optionalArray<InputDirectory>(QStringLiteral("inputDirectories"), readInputDirectory);
    spec.outputDirectories = r.optionalArray<OutputDirectory>(QStringLiteral("outputDirectories"), readOutputDirectory);
    spec.environmentVariables = r.optionalArray<EnvironmentVariable>(QStringLiteral("environmentVariables"),
                                                                     readEnvironmentVariable);
    spec.secrets = r.optionalArray<EnvironmentVariableWithSecretValue>(QStringLiteral("secrets"), readSecret);
    spec.constraints = r.optionalObject<JobConstraints>(QStringLiteral("constraints"), readConstraints);
    spec.extra = r.unknownFields();
}

} // namespace TrainDesk::SpecReading
