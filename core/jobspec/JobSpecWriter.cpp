// JobSpec -> JSON: every field the spec holds, unknown ones included, so that reading and
// writing a job.json keeps all of it.
#include "JobSpec.h"

#include <QJsonArray>
#include <QJsonDocument>

namespace TrainDesk {

namespace {

// Starts from the unknown fields, so known fields win if a name ever appears in both.
class ObjectWriter
{
public:
    explicit ObjectWriter(const SpecObject &source) : m_object(source.extra) {}
    explicit ObjectWriter(const QJsonObject &extra) : m_object(extra) {}

    ObjectWriter &set(const QString &key, const QString &value)
    {
        m_object.insert(key, value);
        return *this;
    }
    ObjectWriter &set(const QString &key, const std::optional<QString> &value)
    {
        if (value)
            m_object.insert(key, *value);
        return *this;
    }
    ObjectWriter &set(const QString &key, const QJsonObject &value)
    {
        m_object.insert(key, value);
        return *this;
    }
    ObjectWriter &set(const QString &key, int value)
    {
        m_object.insert(key, value);
        return *this;
    }
    ObjectWriter &set(const QString &key, const std::optional<int> &value)
    {
        if (value)
            m_object.insert(key, *value);
        return *this;
    }
    template<typename T>
    ObjectWriter &set(const QString &key, const std::optional<T> &value, QJsonObject (*write)(const T &))
    {
        if (value)
            m_object.insert(key, write(*value));
        return *this;
    }
    template<typename T>
    ObjectWriter &set(const QString &key, const std::optional<QList<T>> &items, QJsonObject (*write)(const T &))
    {
        if (items) {
            QJsonArray array;
            for (const T &item : *items)
                array.append(write(item));
            m_object.insert(key, array);
        }
        return *this;
    }
    QJsonObject object() const { return m_object; }

private:
    QJsonObject m_object;
};

QJsonObject write(const ResourceId &r) { return ObjectWriter(r).set("id", r.id).object(); }

QJsonObject write(const KeyVaultSecretReference &k)
{
    return ObjectWriter(k).set("sourceVault", write(k.sourceVault)).set("secretUrl", k.secretUrl).object();
}

QJsonObject write(const AzureStorageCredentials &c)
{
    return ObjectWriter(c)
        .set("accountKey", c.accountKey)
        .set<KeyVaultSecretReference>("accountKeySecretReference", c.accountKeySecretReference, write)
        .object();
}

QJsonObject write(const AzureFileShareReference &s)
{
    return ObjectWriter(s)
        .set("accountName", s.accountName)
        .set("azureFileUrl", s.azureFileUrl)
        .set<AzureStorageCredentials>("credentials", s.credentials, write)
        .set("relativeMountPath", s.relativeMountPath)
        .set("fileMode", s.fileMode)
        .set("directoryMode", s.directoryMode)
        .object();
}

QJsonObject write(const AzureBlobFileSystemReference &b)
{
    return ObjectWriter(b)
        .set("accountName", b.accountName)
        .set("containerName", b.containerName)
        .set<AzureStorageCredentials>("credentials", b.credentials, write)
        .set("relativeMountPath", b.relativeMountPath)
        .set("mountOptions", b.mountOptions)
        .object();
}

QJsonObject write(const FileServerReference &f)
{
    return ObjectWriter(f)
        .set("fileServer", write(f.fileServer))
        .set("sourceDirectory", f.sourceDirectory)
        .set("relativeMountPath", f.relativeMountPath)
        .set("mountOptions", f.mountOptions)
        .object();
}

QJsonObject write(const UnmanagedFileSystemReference &u)
{
    return ObjectWriter(u).set("mountCommand", u.mountCommand).set("relativeMountPath", u.relativeMountPath).object();
}

QJsonObject write(const MountVolumes &m)
{
    return ObjectWriter(m)
        .set<AzureFileShareReference>("azureFileShares", m.azureFileShares, write)
        .set<AzureBlobFileSystemReference>("azureBlobFileSystems", m.azureBlobFileSystems, write)
        .set<FileServerReference>("fileServers", m.fileServers, write)
        .set<UnmanagedFileSystemReference>("unmanagedFileSystems", m.unmanagedFileSystems, write)
        .object();
}

QJsonObject write(const PrivateRegistryCredentials &c)
{
    return ObjectWriter(c)
        .set("username", c.username)
        .set("password", c.password)
        .set<KeyVaultSecretReference>("passwordSecretReference", c.passwordSecretReference, write)
        .object();
}

QJsonObject write(const ImageSourceRegistry &i)
{
    return ObjectWriter(i)
        .set("serverUrl", i.serverUrl)
        .set("image", i.image)
        .set<PrivateRegistryCredentials>("credentials", i.credentials, write)
        .object();
}

QJsonObject write(const ContainerSettings &c)
{
    return ObjectWriter(c).set("imageSourceRegistry", write(c.imageSourceRegistry)).set("shmSize", c.shmSize).object();
}

QJsonObject write(const CntkSettings &s)
{
    return ObjectWriter(s)
        .set("languageType", s.languageType)
        .set("configFilePath", s.configFilePath)
        .set("pythonScriptFilePath", s.pythonScriptFilePath)
        .set("pythonInterpreterPath", s.pythonInterpreterPath)
        .set("commandLineArgs", s.commandLineArgs)
        .set("processCount", s.processCount)
        .object();
}

QJsonObject write(const PyTorchSettings &s)
{
    return ObjectWriter(s)
        .set("pythonScriptFilePath", s.pythonScriptFilePath)
        .set("pythonInterpreterPath", s.pythonInterpreterPath)
        .set("commandLineArgs", s.commandLineArgs)
        .set("processCount", s.processCount)
        .set("communicationBackend", s.communicationBackend)
        .object();
}

QJsonObject write(const TensorFlowSettings &s)
{
    return ObjectWriter(s)
        .set("pythonScriptFilePath", s.pythonScriptFilePath)
        .set("pythonInterpreterPath", s.pythonInterpreterPath)
        .set("masterCommandLineArgs", s.masterCommandLineArgs)
        .set("workerCommandLineArgs", s.workerCommandLineArgs)
        .set("parameterServerCommandLineArgs", s.parameterServerCommandLineArgs)
        .set("workerCount", s.workerCount)
        .set("parameterServerCount", s.parameterServerCount)
        .object();
}

QJsonObject write(const CaffeSettings &s)
{
    return ObjectWriter(s)
        .set("configFilePath", s.configFilePath)
        .set("pythonScriptFilePath", s.pythonScriptFilePath)
        .set("pythonInterpreterPath", s.pythonInterpreterPath)
        .set("commandLineArgs", s.commandLineArgs)
        .set("processCount", s.processCount)
        .object();
}

QJsonObject write(const Caffe2Settings &s)
{
    return ObjectWriter(s)
        .set("pythonScriptFilePath", s.pythonScriptFilePath)
        .set("pythonInterpreterPath", s.pythonInterpreterPath)
        .set("commandLineArgs", s.commandLineArgs)
        .object();
}

QJsonObject write(const ChainerSettings &s)
{
    return ObjectWriter(s)
        .set("pythonScriptFilePath", s.pythonScriptFilePath)
        .set("pythonInterpreterPath", s.pythonInterpreterPath)
        .set("commandLineArgs", s.commandLineArgs)
        .set("processCount", s.processCount)
        .object();
}

QJsonObject write(const CustomToolkitSettings &s) { return ObjectWriter(s).set("commandLine", s.commandLine).object(); }

QJsonObject write(const CustomMpiSettings &s)
{
    return ObjectWriter(s).set("commandLine", s.commandLine).set("processCount", s.processCount).object();
}

QJsonObject write(const HorovodSettings &s)
{
    return ObjectWriter(s)
        .set("pythonScriptFilePath", s.pythonScriptFilePath)
        .set("pythonInterpreterPath", s.pythonInterpreterPath)
        .set("commandLineArgs", s.commandLineArgs)
        .set("processCount", s.processCount)
        .object();
}

QJsonObject write(const JobPreparation &p) { return ObjectWriter(p).set("commandLine", p.commandLine).object(); }

QJsonObject write(const InputDirectory &d) { return ObjectWriter(d).set("id", d.id).set("path", d.path).object(); }

QJsonObject write(const OutputDirectory &d)
{
    return ObjectWriter(d).set("id", d.id).set("pathPrefix", d.pathPrefix).set("pathSuffix", d.pathSuffix).object();
}

QJsonObject write(const EnvironmentVariable &e) { return ObjectWriter(e).set("name", e.name).set("value", e.value).object(); }

QJsonObject write(const EnvironmentVariableWithSecretValue &s)
{
    return ObjectWriter(s)
        .set("name", s.name)
        .set("value", s.value)
        .set<KeyVaultSecretReference>("valueSecretReference", s.valueSecretReference, write)
        .object();
}

QJsonObject write(const JobConstraints &c)
{
    QJsonObject o = ObjectWriter(c)
                        .set("maxWallClockTime", c.maxWallClockTime)
                        .set("maxRetries", c.maxRetries)
                        .set("progressTimeout", c.progressTimeout)
                        .object();
    if (c.retryOnExitCodes) {
        QJsonArray codes;
        for (int code : *c.retryOnExitCodes)
            codes.append(code);
        o.insert(QStringLiteral("retryOnExitCodes"), codes);
    }
    if (c.failOnHang)
        o.insert(QStringLiteral("failOnHang"), *c.failOnHang);
    return o;
}

} // namespace

QJsonObject jobSpecProperties(const JobSpec &s)
{
    return ObjectWriter(s.extra)
        .set("schedulingPriority", s.schedulingPriority)
        .set<ResourceId>("cluster", s.cluster, write)
        .set<MountVolumes>("mountVolumes", s.mountVolumes, write)
        .set("nodeCount", s.nodeCount)
        .set<ContainerSettings>("containerSettings", s.containerSettings, write)
        .set<CntkSettings>("cntkSettings", s.cntkSettings, write)
        .set<PyTorchSettings>("pyTorchSettings", s.pyTorchSettings, write)
        .set<TensorFlowSettings>("tensorFlowSettings", s.tensorFlowSettings, write)
        .set<CaffeSettings>("caffeSettings", s.caffeSettings, write)
        .set<Caffe2Settings>("caffe2Settings", s.caffe2Settings, write)
        .set<ChainerSettings>("chainerSettings", s.chainerSettings, write)
        .set<CustomToolkitSettings>("customToolkitSettings", s.customToolkitSettings, write)
        .set<CustomMpiSettings>("customMpiSettings", s.customMpiSettings, write)
        .set<HorovodSettings>("horovodSettings", s.horovodSettings, write)
        .set<JobPreparation>("jobPreparation", s.jobPreparation, write)
        .set("stdOutErrPathPrefix", s.stdOutErrPathPrefix)
        .set<InputDirectory>("inputDirectories", s.inputDirectories, write)
        .set<OutputDirectory>("outputDirectories", s.outputDirectories, write)
        .set<EnvironmentVariable>("environmentVariables", s.environmentVariables, write)
        .set<EnvironmentVariableWithSecretValue>("secrets", s.secrets, write)
        .set<JobConstraints>("constraints", s.constraints, write)
        .object();
}

QByteArray writeJobSpec(const JobSpec &spec)
{
    const QJsonObject properties = jobSpecProperties(spec);
    if (!spec.fileShape)
        return QJsonDocument(properties).toJson(QJsonDocument::Indented);
    QJsonObject file = spec.fileExtra;
    if (spec.schema)
        file.insert(QStringLiteral("$schema"), *spec.schema);
    file.insert(QStringLiteral("properties"), properties);
    return QJsonDocument(file).toJson(QJsonDocument::Indented);
}

} // namespace TrainDesk
