#pragma once

#include <QJsonObject>
#include <QList>
#include <QString>

#include <optional>

namespace TrainDesk {

// The 2018-05-01 JobCreateParameters of Batch AI, field for field (see
// batchai-schemas/2018-05-01/job.json). Optional fields are std::optional so that a spec
// written back has exactly the fields it was read with; `extra` keeps fields this schema
// does not know (they are reported as warnings and written back unchanged).

struct SpecObject
{
    QJsonObject extra;
};

struct ResourceId : SpecObject
{
    QString id;
};

struct KeyVaultSecretReference : SpecObject
{
    ResourceId sourceVault;
    QString secretUrl;
};

struct AzureStorageCredentials : SpecObject
{
    std::optional<QString> accountKey;  // secret
    std::optional<KeyVaultSecretReference> accountKeySecretReference;
};

// accountName and credentials are required by the schema but were filled in by the service's
// CLI, so job files in the wild lack them: TrainDesk finds the share by name instead.
struct AzureFileShareReference : SpecObject
{
    std::optional<QString> accountName;
    QString azureFileUrl;
    std::optional<AzureStorageCredentials> credentials;
    QString relativeMountPath;
    std::optional<QString> fileMode;
    std::optional<QString> directoryMode;
};

struct AzureBlobFileSystemReference : SpecObject
{
    std::optional<QString> accountName;
    QString containerName;
    std::optional<AzureStorageCredentials> credentials;
    QString relativeMountPath;
    std::optional<QString> mountOptions;
};

struct FileServerReference : SpecObject
{
    ResourceId fileServer;
    std::optional<QString> sourceDirectory;
    QString relativeMountPath;
    std::optional<QString> mountOptions;
};

struct UnmanagedFileSystemReference : SpecObject
{
    QString mountCommand;
    QString relativeMountPath;
};

struct MountVolumes : SpecObject
{
    std::optional<QList<AzureFileShareReference>> azureFileShares;
    std::optional<QList<AzureBlobFileSystemReference>> azureBlobFileSystems;
    std::optional<QList<FileServerReference>> fileServers;
    std::optional<QList<UnmanagedFileSystemReference>> unmanagedFileSystems;
};

struct PrivateRegistryCredentials : SpecObject
{
    QString username;
    std::optional<QString> password;  // secret
    std::optional<KeyVaultSecretReference> passwordSecretReference;
};

struct ImageSourceRegistry : SpecObject
{
    std::optional<QString> serverUrl;
    QString image;
    std::optional<PrivateRegistryCredentials> credentials;
};

struct ContainerSettings : SpecObject
{
    ImageSourceRegistry imageSourceRegistry;
    std::optional<QString> shmSize;
};

struct CntkSettings : SpecObject
{
    std::optional<QString> languageType;  // BrainScript or Python
    std::optional<QString> configFilePath;
    std::optional<QString> pythonScriptFilePath;
    std::optional<QString> pythonInterpreterPath;
    std::optional<QString> commandLineArgs;
    std::optional<int> processCount;
};

struct PyTorchSettings : SpecObject
{
    QString pythonScriptFilePath;
    std::optional<QString> pythonInterpreterPath;
    std::optional<QString> commandLineArgs;
    std::optional<int> processCount;
    std::optional<QString> communicationBackend;  // TCP, Gloo or MPI
};

struct TensorFlowSettings : SpecObject
{
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
    std::optional<QString> configFilePath;
    std::optional<QString> pythonScriptFilePath;
    std::optional<QString> pythonInterpreterPath;
    std::optional<QString> commandLineArgs;
    std::optional<int> processCount;
};

struct Caffe2Settings : SpecObject
{
    QString pythonScriptFilePath;
    std::optional<QString> pythonInterpreterPath;
    std::optional<QString> commandLineArgs;
};

struct ChainerSettings : SpecObject
{
    QString pythonScriptFilePath;
    std::optional<QString> pythonInterpreterPath;
    std::optional<QString> commandLineArgs;
    std::optional<int> processCount;
};

struct CustomToolkitSettings : SpecObject
{
    std::optional<QString> commandLine;
};

struct CustomMpiSettings : SpecObject
{
    QString commandLine;
    std::optional<int> processCount;
};
using MpiSettings = CustomMpiSettings;

struct HorovodSettings : SpecObject
{
    QString pythonScriptFilePath;
    std::optional<QString> pythonInterpreterPath;
    std::optional<QString> commandLineArgs;
    std::optional<int> processCount;
};

struct JobPreparation : SpecObject
{
    QString commandLine;
};

struct InputDirectory : SpecObject
{
    QString id;
    QString path;
};

struct OutputDirectory : SpecObject
{
    QString id;
    QString pathPrefix;
    std::optional<QString> pathSuffix;
};

struct EnvironmentVariable : SpecObject
{
    QString name;
    QString value;
};

struct EnvironmentVariableWithSecretValue : SpecObject
{
    QString name;
    std::optional<QString> value;  // secret
    std::optional<KeyVaultSecretReference> valueSecretReference;
};

struct JobConstraints : SpecObject
{
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
