#pragma once

#include <QJsonObject>
#include <QList>
#include <QString>

#include <optional>

namespace TrainDesk {

// The 2018-05-01 JobCreateParameters of Batch AI, field for field (see
// batchai-schemas/2018-05-01/job.json). Optional fields are std::optional so that a spec
// written back has exactly the fields it was read with; `extra` keeps fields this schema
// does not know (they are reported as warnings and written back unchanged). Equal specs are
// equal field for field, unknown fields included.

struct SpecObject
{
    bool operator==(const SpecObject &) const = default;
    QJsonObject extra;
};

struct ResourceId : SpecObject
{
    bool operator==(const ResourceId &) const = default;
    QString id;
};

struct KeyVaultSecretReference : SpecObject
{
    bool operator==(const KeyVaultSecretReference &) const = default;
    ResourceId sourceVault;
    QString secretUrl;
};

struct AzureStorageCredentials : SpecObject
{
    bool operator==(const AzureStorageCredentials &) const = default;
    std::optional<QString> accountKey;  // secret
    std::optional<KeyVaultSecretReference> accountKeySecretReference;
};

// accountName and credentials are required by the schema but were filled in by the service's
// CLI, so job files in the wild lack them: TrainDesk finds the share by name instead.
struct AzureFileShareReference : SpecObject
{
    bool operator==(const AzureFileShareReference &) const = default;
    std::optional<QString> accountName;
    QString azureFileUrl;
    std::optional<AzureStorageCredentials> credentials;
    QString relativeMountPath;
    std::optional<QString> fileMode;
    std::optional<QString> directoryMode;
};

struct AzureBlobFileSystemReference : SpecObject
{
    bool operator==(const AzureBlobFileSystemReference &) const = default;
    std::optional<QString> accountName;
    QString containerName;
    std::optional<AzureStorageCredentials> credentials;
    QString relativeMountPath;
    std::optional<QString> mountOptions;
};

struct FileServerReference : SpecObject
{
    bool operator==(const FileServerReference &) const = default;
    ResourceId fileServer;
    std::optional<QString> sourceDirectory;
    QString relativeMountPath;
    std::optional<QString> mountOptions;
};

struct UnmanagedFileSystemReference : SpecObject
{
    bool operator==(const UnmanagedFileSystemReference &) const = default;
    QString mountCommand;
    QString relativeMountPath;
};

struct MountVolumes : SpecObject
{
    bool operator==(const MountVolumes &) const = default;
    std::optional<QList<AzureFileShareReference>> azureFileShares;
    std::optional<QList<AzureBlobFileSystemReference>> azureBlobFileSystems;
    std::optional<QList<FileServerReference>> fileServers;
    std::optional<QList<UnmanagedFileSystemReference>> unmanagedFileSystems;
};

struct PrivateRegistryCredentials : SpecObject
{
    bool operator==(const PrivateRegistryCredentials &) const = default;
    QString username;
    std::optional<QString> password;  // secret
    std::optional<KeyVaultSecretReference> passwordSecretReference;
};

struct ImageSourceRegistry : SpecObject
{
    bool operator==(const ImageSourceRegistry &) const = default;
    std::optional<QString> serverUrl;
    QString image;
    std::optional<PrivateRegistryCredentials> credentials;
};

struct ContainerSettings : SpecObject
{
    bool operator==(const ContainerSettings &) const = default;
    ImageSourceRegistry imageSourceRegistry;
    std::optional<QString> shmSize;
};

struct CntkSettings : SpecObject
{
    bool operator==(const CntkSettings &) const = default;
    std::optional<QString> languageType;  // BrainScript or Python
    std::optional<QString> configFilePath;
    std::optional<QString> pythonScriptFilePath;
    std::optional<QString> pythonInterpreterPath;
    std::optional<QString> commandLineArgs;
    std::optional<int> processCount;
};

struct PyTorchSettings : SpecObject
{
    bool operator==(const PyTorchSettings &) const = default;
    QString pythonScriptFilePath;
    std::optional<QString> pythonInterpreterPath;
    std::optional<QString> commandLineArgs;
    std::optional<int> processCount;
    std::optional<QString> communicationBackend;  // TCP, Gloo or MPI
};

struct TensorFlowSettings : SpecObject
{
    bool operator==(const TensorFlowSettings &) const = default;
    QString pythonScriptFilePath;
    std::optional<QString> pythonInterpreterPath;
    std::optional<QString> masterCommandLineArgs;
    std::optional<QString> workerCommandLineArgs;
    std::optional<QString> parameterServerCommandLineArgs;
    std::optional<int> workerCount;
    std::optional<int> parameterServerCount;
};

struct CaffeSettings : SpecObject
{
    bool operator==(const CaffeSettings &) const = default;
    std::optional<QString> configFilePath;
    std::optional<QString> pythonScriptFilePath;
    std::optional<QString> pythonInterpreterPath;
    std::optional<QString> commandLineArgs;
    std::optional<int> processCount;
};

struct Caffe2Settings : SpecObject
{
    bool operator==(const Caffe2Settings &) const = default;
    QString pythonScriptFilePath;
    std::optional<QString> pythonInterpreterPath;
    std::optional<QString> commandLineArgs;
};

struct ChainerSettings : SpecObject
{
    bool operator==(const ChainerSettings &) const = default;
    QString pythonScriptFilePath;
    std::optional<QString> pythonInterpreterPath;
    std::optional<QString> commandLineArgs;
    std::optional<int> processCount;
};

struct CustomToolkitSettings : SpecObject
{
    bool operator==(const CustomToolkitSettings &) const = default;
    std::optional<QString> commandLine;
};

struct CustomMpiSettings : SpecObject
{
    bool operator==(const CustomMpiSettings &) const = default;
    QString commandLine;
    std::optional<int> processCount;
};
using MpiSettings = CustomMpiSettings;

struct HorovodSettings : SpecObject
{
    bool operator==(const HorovodSettings &) const = default;
    QString pythonScriptFilePath;
    std::optional<QString> pythonInterpreterPath;
    std::optional<QString> commandLineArgs;
    std::optional<int> processCount;
};

struct JobPreparation : SpecObject
{
    bool operator==(const JobPreparation &) const = default;
    QString commandLine;
};

struct InputDirectory : SpecObject
{
    bool operator==(const InputDirectory &) const = default;
    QString id;
    QString path;
};

struct OutputDirectory : SpecObject
{
    bool operator==(const OutputDirectory &) const = default;
    QString id;
    QString pathPrefix;
    std::optional<QString> pathSuffix;
};

struct EnvironmentVariable : SpecObject
{
    bool operator==(const EnvironmentVariable &) const = default;
    QString name;
    QString value;
};

struct EnvironmentVariableWithSecretValue : SpecObject
{
    bool operator==(const EnvironmentVariableWithSecretValue &) const = default;
    QString name;
    std::optional<QString> value;  // secret
    std::optional<KeyVaultSecretReference> valueSecretReference;
};

struct JobConstraints : SpecObject
{
    bool operator==(const JobConstraints &) const = default;
    std::optional<QString> maxWallClockTime;
    // TrainDesk extensions (not in the 2018-05-01 schema; the validator says so): how often
    // a failed attempt is queued again and on which exit codes (besides a lost node and a
    // rank killed by a signal), and how long the job may go without output or a metric
    // before its silent ranks are named (and, with failOnHang, the attempt fails).
    std::optional<int> maxRetries;
    std::optional<QList<int>> retryOnExitCodes;
    std::optional<QString> progressTimeout;
    std::optional<bool> failOnHang;
};

// The toolkit settings, one of which a job names. The names are the JSON keys.
enum class Toolkit { None, CustomMpi, Horovod, CustomToolkit, Cntk, PyTorch, TensorFlow, Caffe, Caffe2, Chainer };
QString toString(Toolkit toolkit);

} // namespace TrainDesk
