// The job.json table: every field of the 2018-05-01 schema (and TrainDesk's extensions),
// once, bound to its model member. The reader reads the entries of an object in this order.
// Checks that need more than one field or the cluster (which toolkit, CNTK's languageType,
// unique ids, mount paths, durations) are the validator's own; the rules here are per field.
#include "FieldBinding.h"

namespace TrainDesk {

namespace SpecFields {

namespace {

// Fields several objects share, described once.
const FieldInfo pythonScript{.key = "pythonScriptFilePath",
                             .help = "the script every process runs, usually on a share",
                             .nonEmpty = "the path of a Python script",
                             .placeholders = true};
const FieldInfo pythonInterpreter{.key = "pythonInterpreterPath",
                                  .help = "the Python that runs the script",
                                  .defaultText = "python, or python3 where there is no python",
                                  .nonEmpty = "an interpreter",
                                  .placeholders = true};
const FieldInfo scriptArguments{.key = "commandLineArgs", .help = "given to the script", .placeholders = true};
const FieldInfo processCount{.key = "processCount",
                             .help = "MPI processes in all (the default is one per node)",
                             .defaultText = "one per node",
                             .minimum = 1};
const FieldInfo mpiCommandLine{.key = "commandLine",
                               .help = "what runs; $AZ_BATCHAI_* variables are set on every node",
                               .nonEmpty = "a command line",
                               .placeholders = true};
const FieldInfo configFile{.key = "configFilePath", .help = "the config file (CNTK: BrainScript; Caffe: the solver)",
                           .placeholders = true};
const FieldInfo resourceId{.key = "id", .help = "an ARM resource ID; its last segment names the resource"};
const FieldInfo relativeMountPath{.key = "relativeMountPath",
                                  .help = "where it is mounted, under $AZ_BATCHAI_JOB_MOUNT_ROOT"};
const FieldInfo accountName{.key = "accountName", .help = "the storage account (TrainDesk finds the share by name)"};
const FieldInfo storageCredentials{.key = "credentials", .help = "not used: TrainDesk shares need no account key"};
const FieldInfo mountOptions{.key = "mountOptions", .help = "options of the mount"};
const FieldInfo keyVaultReference{.key = "secretReference", .help = "a Key Vault secret (TrainDesk cannot read one)"};

// CNTK and Caffe need one of their script or config fields depending on the others: the
// validator checks those (checkCntk, checkCaffe), the table only for placeholders.
FieldInfo conditional(FieldInfo info)
{
    info.nonEmpty.clear();
    return info;
}

FieldInfo unchecked(FieldInfo info)
{
    info.nonEmpty.clear();
    info.placeholders = false;
    return info;
}

FieldInfo named(FieldInfo info, const QString &key)
{
    info.key = key;
    return info;
}

} // namespace

template<> const FieldList<ResourceId> &fieldsOf<ResourceId>()
{
    static const FieldList<ResourceId> list{bind<&ResourceId::id>(resourceId)};
    return list;
}

template<> const FieldList<KeyVaultSecretReference> &fieldsOf<KeyVaultSecretReference>()
{
    static const FieldList<KeyVaultSecretReference> list{
        bind<&KeyVaultSecretReference::sourceVault>({.key = "sourceVault", .help = "the Key Vault"}),
        bind<&KeyVaultSecretReference::secretUrl>({.key = "secretUrl", .help = "the secret's URL in the Key Vault"}),
    };
    return list;
}

template<> const FieldList<AzureStorageCredentials> &fieldsOf<AzureStorageCredentials>()
{
    static const FieldList<AzureStorageCredentials> list{
        bind<&AzureStorageCredentials::accountKey>({.key = "accountKey", .help = "the storage account key (a secret)"}),
        bind<&AzureStorageCredentials::accountKeySecretReference>(named(keyVaultReference, "accountKeySecretReference")),
    };
    return list;
}

template<> const FieldList<AzureFileShareReference> &fieldsOf<AzureFileShareReference>()
{
    static const FieldList<AzureFileShareReference> list{
        bind<&AzureFileShareReference::accountName>(accountName),
        bind<&AzureFileShareReference::azureFileUrl>(
            {.key = "azureFileUrl", .help = "the share's URL; its last segment names the TrainDesk share"}),
        bind<&AzureFileShareReference::credentials>(storageCredentials),
        bind<&AzureFileShareReference::relativeMountPath>(relativeMountPath),
        bind<&AzureFileShareReference::fileMode>({.key = "fileMode", .help = "octal mode of files", .defaultText = "0777"}),
        bind<&AzureFileShareReference::directoryMode>(
            {.key = "directoryMode", .help = "octal mode of directories", .defaultText = "0777"}),
    };
    return list;
}

template<> const FieldList<AzureBlobFileSystemReference> &fieldsOf<AzureBlobFileSystemReference>()
{
    static const FieldList<AzureBlobFileSystemReference> list{
        bind<&AzureBlobFileSystemReference::accountName>(accountName),
        bind<&AzureBlobFileSystemReference::containerName>(
            {.key = "containerName", .help = "the container; it names the TrainDesk share"}),
        bind<&AzureBlobFileSystemReference::credentials>(storageCredentials),
        bind<&AzureBlobFileSystemReference::relativeMountPath>(relativeMountPath),
        bind<&AzureBlobFileSystemReference::mountOptions>(mountOptions),
    };
    return list;
}

template<> const FieldList<FileServerReference> &fieldsOf<FileServerReference>()
{
    static const FieldList<FileServerReference> list{
        bind<&FileServerReference::fileServer>({.key = "fileServer", .help = "the file server; it names the share"}),
        bind<&FileServerReference::sourceDirectory>(
            {.key = "sourceDirectory", .help = "a folder of the share to mount instead of all of it"}),
        bind<&FileServerReference::relativeMountPath>(relativeMountPath),
        bind<&FileServerReference::mountOptions>(mountOptions),
    };
    return list;
}

template<> const FieldList<UnmanagedFileSystemReference> &fieldsOf<UnmanagedFileSystemReference>()
{
    static const FieldList<UnmanagedFileSystemReference> list{
        bind<&UnmanagedFileSystemReference::mountCommand>({.key = "mountCommand",
                                                           .help = "the command that mounts it on each node",
                                                           .nonEmpty = "a mount command",
                                                           .placeholders = true}),
        bind<&UnmanagedFileSystemReference::relativeMountPath>(relativeMountPath),
    };
    return list;
}

template<> const FieldList<MountVolumes> &fieldsOf<MountVolumes>()
{
    static const FieldList<MountVolumes> list{
        bind<&MountVolumes::azureFileShares>({.key = "azureFileShares", .help = "Azure file shares: TrainDesk shares"}),
        bind<&MountVolumes::azureBlobFileSystems>(
            {.key = "azureBlobFileSystems", .help = "blob containers: TrainDesk shares"}),
        bind<&MountVolumes::fileServers>({.key = "fileServers", .help = "NFS file servers: TrainDesk shares"}),
        bind<&MountVolumes::unmanagedFileSystems>(
            {.key = "unmanagedFileSystems", .help = "file systems mounted by a command of the job"}),
    };
    return list;
}

template<> const FieldList<PrivateRegistryCredentials> &fieldsOf<PrivateRegistryCredentials>()
{
    static const FieldList<PrivateRegistryCredentials> list{
        bind<&PrivateRegistryCredentials::username>({.key = "username", .help = "the registry's user"}),
        bind<&PrivateRegistryCredentials::password>({.key = "password", .help = "the registry's password (a secret)"}),
        bind<&PrivateRegistryCredentials::passwordSecretReference>(named(keyVaultReference, "passwordSecretReference")),
    };
    return list;
}

template<> const FieldList<ImageSourceRegistry> &fieldsOf<ImageSourceRegistry>()
{
    static const FieldList<ImageSourceRegistry> list{
        bind<&ImageSourceRegistry::serverUrl>(
            {.key = "serverUrl", .help = "the registry", .defaultText = "Docker Hub", .placeholders = true}),
        bind<&ImageSourceRegistry::image>(
            {.key = "image", .help = "the image, e.g. tensorflow/tensorflow:1.8.0-gpu", .placeholders = true}),
        bind<&ImageSourceRegistry::credentials>({.key = "credentials", .help = "the registry's login"}),
    };
    return list;
}

template<> const FieldList<ContainerSettings> &fieldsOf<ContainerSettings>()
{
    static const FieldList<ContainerSettings> list{
        bind<&ContainerSettings::imageSourceRegistry>(
            {.key = "imageSourceRegistry", .help = "the image the job's processes run in"}),
        bind<&ContainerSettings::shmSize>({.key = "shmSize", .help = "the container's /dev/shm, e.g. 1g"}),
    };
    return list;
}

template<> const FieldList<CntkSettings> &fieldsOf<CntkSettings>()
{
    static const FieldList<CntkSettings> list{
        bind<&CntkSettings::languageType>({.key = "languageType",
                                           .help = "BrainScript (a config file) or Python (a script)",
                                           .defaultText = "BrainScript, or Python with only a script",
                                           .allowed = {"BrainScript", "Python"},
                                           .allowedCase = Qt::CaseInsensitive}),
        bind<&CntkSettings::configFilePath>(configFile),
        bind<&CntkSettings::pythonScriptFilePath>(conditional(pythonScript)),
        bind<&CntkSettings::pythonInterpreterPath>(
unchecked(pythonInterpreter)),
        bind<&CntkSettings::commandLineArgs>(scriptArguments),
        bind<&CntkSettings::processCount>(processCount),
    };
    return list;
}

template<> const FieldList<PyTorchSettings> &fieldsOf<PyTorchSettings>()
{
    static const FieldList<PyTorchSettings> list{
        bind<&PyTorchSettings::pythonScriptFilePath>(pythonScript),
        bind<&PyTorchSettings::pythonInterpreterPath>(pythonInterpreter),
        bind<&PyTorchSettings::commandLineArgs>(scriptArguments),
        bind<&PyTorchSettings::processCount>(processCount),
        bind<&PyTorchSettings::communicationBackend>({.key = "communicationBackend",
                                                      .help = "how the processes talk (required for more than one)",
                                                      .allowed = {"TCP", "Gloo", "MPI"},
                                                      .allowedCase = Qt::CaseInsensitive}),
    };
    return list;
}

template<> const FieldList<TensorFlowSettings> &fieldsOf<TensorFlowSettings>()
{
    static const FieldList<TensorFlowSettings> list{
        bind<&TensorFlowSettings::pythonScriptFilePath>(pythonScript),
        bind<&TensorFlowSettings::pythonInterpreterPath>(pythonInterpreter),
        bind<&TensorFlowSettings::masterCommandLineArgs>(named(scriptArguments, "masterCommandLineArgs")),
        bind<&TensorFlowSettings::workerCommandLineArgs>(named(scriptArguments, "workerCommandLineArgs")),
        bind<&TensorFlowSettings::parameterServerCommandLineArgs>(named(scriptArguments, "parameterServerCommandLineArgs")),
        bind<&TensorFlowSettings::workerCount>(
            {.key = "workerCount", .help = "worker tasks", .defaultText = "nodeCount", .minimum = 1}),
        bind<&TensorFlowSettings::parameterServerCount>(
            {.key = "parameterServerCount", .help = "parameter server tasks (at most nodeCount)", .defaultText = "1",
             .minimum = 0}),
    };
    return list;
}

template<> const FieldList<CaffeSettings> &fieldsOf<CaffeSettings>()
{
    static const FieldList<CaffeSettings> list{
        bind<&CaffeSettings::configFilePath>(configFile),
        bind<&CaffeSettings::pythonScriptFilePath>(conditional(pythonScript)),
        bind<&CaffeSettings::pythonInterpreterPath>(
unchecked(pythonInterpreter)),
        bind<&CaffeSettings::commandLineArgs>(scriptArguments),
        bind<&CaffeSettings::processCount>(processCount),
    };
    return list;
}

template<> const FieldList<Caffe2Settings> &fieldsOf<Caffe2Settings>()
{
    static const FieldList<Caffe2Settings> list{
        bind<&Caffe2Settings::pythonScriptFilePath>(pythonScript),
        bind<&Caffe2Settings::pythonInterpreterPath>(pythonInterpreter),
        bind<&Caffe2Settings::commandLineArgs>(scriptArguments),
    };
    return list;
}

template<> const FieldList<ChainerSettings> &fieldsOf<ChainerSettings>()
{
    static const FieldList<ChainerSettings> list{
        bind<&ChainerSettings::pythonScriptFilePath>(pythonScript),
        bind<&ChainerSettings::pythonInterpreterPath>(pythonInterpreter),
        bind<&ChainerSettings::commandLineArgs>(scriptArguments),
        bind<&ChainerSettings::processCount>(processCount),
    };
    return list;
}

template<> const FieldList<CustomToolkitSettings> &fieldsOf<CustomToolkitSettings>()
{
    // Optional in the schema, but there is nothing to run without it: the validator says so.
    static const FieldList<CustomToolkitSettings> list{
        bind<&CustomToolkitSettings::commandLine>({.key = "commandLine",
                                                   .help = "what runs on the head node; $AZ_BATCHAI_* variables are set",
                                                   .nonEmpty = "the command line to run on the head node",
                                                   .placeholders = true}),
    };
    return list;
}

template<> const FieldList<CustomMpiSettings> &fieldsOf<CustomMpiSettings>()
{
    static const FieldList<CustomMpiSettings> list{
        bind<&CustomMpiSettings::commandLine>(mpiCommandLine),
        bind<&CustomMpiSettings::processCount>(processCount),
    };
    return list;
}

template<> const FieldList<HorovodSettings> &fieldsOf<HorovodSettings>()
{
    static const FieldList<HorovodSettings> list{
        bind<&HorovodSettings::pythonScriptFilePath>(pythonScript),
        bind<&HorovodSettings::pythonInterpreterPath>(pythonInterpreter),
        bind<&HorovodSettings::commandLineArgs>(scriptArguments),
        bind<&HorovodSettings::processCount>(processCount),
    };
    return list;
}

template<> const FieldList<JobPreparation> &fieldsOf<JobPreparation>()
{
    static const FieldList<JobPreparation> list{
        bind<&JobPreparation::commandLine>({.key = "commandLine",
                                            .help = "runs on every node before the job; a failure fails the job",
                                            .nonEmpty = "a command line",
                                            .placeholders = true}),
    };
    return list;
}

template<> const FieldList<InputDirectory> &fieldsOf<InputDirectory>()
{
    static const FieldList<InputDirectory> list{
        bind<&InputDirectory::id>({.key = "id", .help = "AZ_BATCHAI_INPUT_<id> names the folder"}),
        bind<&InputDirectory::path>({.key = "path", .help = "the folder", .jobPath = true, .placeholders = true}),
    };
    return list;
}

template<> const FieldList<OutputDirectory> &fieldsOf<OutputDirectory>()
{
    static const FieldList<OutputDirectory> list{
        bind<&OutputDirectory::id>({.key = "id", .help = "AZ_BATCHAI_OUTPUT_<id> names the folder, e.g. MODEL"}),
        bind<&OutputDirectory::pathPrefix>({.key = "pathPrefix",
                                            .help = "where the folder is made, e.g. $AZ_BATCHAI_JOB_MOUNT_ROOT/local",
                                            .jobPath = true,
                                            .placeholders = true}),
        bind<&OutputDirectory::pathSuffix>({.key = "pathSuffix", .help = "appended to the folder's path"}),
    };
    return list;
}

template<> const FieldList<EnvironmentVariable> &fieldsOf<EnvironmentVariable>()
{
    // Names, sizes and placeholders are checked together with the secrets' (checkVariables).
    static const FieldList<EnvironmentVariable> list{
        bind<&EnvironmentVariable::name>({.key = "name", .help = "the variable's name"}),
        bind<&EnvironmentVariable::value>({.key = "value", .help = "its value"}),
    };
    return list;
}

template<> const FieldList<EnvironmentVariableWithSecretValue> &fieldsOf<EnvironmentVariableWithSecretValue>()
{
    static const FieldList<EnvironmentVariableWithSecretValue> list{
        bind<&EnvironmentVariableWithSecretValue::name>({.key = "name", .help = "the variable's name"}),
        bind<&EnvironmentVariableWithSecretValue::value>(
            {.key = "value", .help = "its value, kept out of logs and the launch script"}),
        bind<&EnvironmentVariableWithSecretValue::valueSecretReference>(named(keyVaultReference, "valueSecretReference")),
    };
    return list;
}

template<> const FieldList<JobConstraints> &fieldsOf<JobConstraints>()
{
    static const FieldList<JobConstraints> list{
        bind<&JobConstraints::maxWallClockTime>(
            {.key = "maxWallClockTime", .help = "how long the job may run, e.g. 1.00:00:00"}),
        bind<&JobConstraints::maxRetries>(
            {.key = "maxRetries",
             .help = "a failed attempt is queued again this many times when a node was lost, a process was killed by a "
                     "signal, or it exited with a code of retryOnExitCodes",
             .defaultText = "no retries",
             .minimum = 0,
             .maximum = 100,
             .extension = true}),
        bind<&JobConstraints::retryOnExitCodes>(
            {.key = "retryOnExitCodes", .help = "exit codes that are retried too", .minimum = 1, .maximum = 255,
             .extension = true}),
        bind<&JobConstraints::progressTimeout>(
            {.key = "progressTimeout",
             .help = "when no rank prints and no metric arrives for this long, the silent ranks are named",
             .extension = true}),
        bind<&JobConstraints::failOnHang>(
            {.key = "failOnHang",
             .help = "fail the attempt when the progress timeout passes (it may be retried)",
             .extension = true}),
    };
    return list;
}

template<> const FieldList<JobSpec> &fieldsOf<JobSpec>()
{
    static const FieldList<JobSpec> list{
        bind<&JobSpec::schedulingPriority>({.key = "schedulingPriority",
                                            .help = "higher priority jobs start first when nodes free up",
                                            .defaultText = "normal",
                                            .allowed = {"low", "normal", "high"}}),
        bind<&JobSpec::cluster>({.key = "cluster", .help = "the cluster (-c on the command line wins)"}),
        bind<&JobSpec::mountVolumes>({.key = "mountVolumes", .help = "shares mounted for this job only"}),
        bind<&JobSpec::nodeCount>({.key = "nodeCount",
                                   .help = "how many nodes the job runs on; it starts when that many are idle",
                                   .defaultText = "1",
                                   .minimum = 1}),
        bind<&JobSpec::containerSettings>({.key = "containerSettings", .help = "run the job in a Docker container"}),
        bind<&JobSpec::cntkSettings>({.key = "cntkSettings", .help = "a CNTK job"}),
        bind<&JobSpec::pyTorchSettings>({.key = "pyTorchSettings", .help = "a PyTorch job"}),
        bind<&JobSpec::tensorFlowSettings>({.key = "tensorFlowSettings", .help = "a TensorFlow job"}),
        bind<&JobSpec::caffeSettings>({.key = "caffeSettings", .help = "a Caffe job"}),
        bind<&JobSpec::caffe2Settings>({.key = "caffe2Settings", .help = "a Caffe2 job"}),
        bind<&JobSpec::chainerSettings>({.key = "chainerSettings", .help = "a Chainer job"}),
        bind<&JobSpec::customToolkitSettings>({.key = "customToolkitSettings", .help = "a command line on the head node"}),
        bind<&JobSpec::customMpiSettings>({.key = "customMpiSettings", .help = "mpirun starts a command line"}),
        bind<&JobSpec::horovodSettings>({.key = "horovodSettings", .help = "mpirun starts a Python script"}),
        bind<&JobSpec::jobPreparation>({.key = "jobPreparation", .help = "runs on every node before the job"}),
        bind<&JobSpec::stdOutErrPathPrefix>(
            {.key = "stdOutErrPathPrefix",
             .help = "the job directory (stdout.txt, stderr.txt, logs) is made under it",
             .jobPath = true,
             .placeholders = true}),
        bind<&JobSpec::inputDirectories>({.key = "inputDirectories", .help = "folders the job reads, named by id"}),
        bind<&JobSpec::outputDirectories>({.key = "outputDirectories", .help = "folders made for the job's results"}),
        bind<&JobSpec::environmentVariables>(
            {.key = "environmentVariables", .help = "set for every process of the job"}),
        bind<&JobSpec::secrets>({.key = "secrets", .help = "variables whose values are never logged or shown"}),
        bind<&JobSpec::constraints>({.key = "constraints", .help = "time limit, retries and hang detection"}),
        bind<&JobSpec::gpusPerProcess>(
            {.key = "gpusPerProcess",
             .help = "GPUs each process gets on its node (CUDA_VISIBLE_DEVICES); other jobs may use the node's others",
             .defaultText = "one per process on a node with GPUs",
             .minimum = 0,
             .maximum = 64,
             .extension = true}),
        bind<&JobSpec::coresPerProcess>(
            {.key = "coresPerProcess",
             .help = "cores each process gets on its node (a cpuset); other jobs may use the node's others",
             .defaultText = "1",
             .minimum = 1,
             .maximum = 1024,
             .extension = true}),
        bind<&JobSpec::wholeNodes>(
            {.key = "wholeNodes",
             .help = "the job's nodes run nothing else (the default for several nodes, and on SSH clusters for a job "
                     "that names neither gpusPerProcess nor coresPerProcess)",
             .extension = true}),
    };
    return list;
}

} // namespace SpecFields

QString toString(FieldType type)
{
    switch (type) {
    case FieldType::String: return QStringLiteral("string");
    case FieldType::Integer: return QStringLiteral("integer");
    case FieldType::Boolean: return QStringLiteral("boolean");
    case FieldType::IntegerList: return QStringLiteral("array of integers");
    case FieldType::Object: return QStringLiteral("object");
    case FieldType::ObjectList: return QStringLiteral("array of objects");
    }
    return {};
}

const QList<ToolkitEntry> &toolkitEntries()
{
    static const QList<ToolkitEntry> list{
        {Toolkit::Cntk, "cntkSettings", "CNTK", "a BrainScript config or a Python script"},
        {Toolkit::PyTorch, "pyTorchSettings", "PyTorch", "a Python script"},
        {Toolkit::TensorFlow, "tensorFlowSettings", "TensorFlow", "a Python script as master, workers and parameter servers"},
        {Toolkit::Caffe, "caffeSettings", "Caffe", "caffe train with a solver, or a Python script"},
        {Toolkit::Caffe2, "caffe2Settings", "Caffe2", "a Python script"},
        {Toolkit::Chainer, "chainerSettings", "Chainer", "a Python script"},
        {Toolkit::CustomToolkit, "customToolkitSettings", "Custom toolkit", "a command line on the head node"},
        {Toolkit::CustomMpi, "customMpiSettings", "Custom MPI", "mpirun starts a command line"},
        {Toolkit::Horovod, "horovodSettings", "Horovod", "mpirun starts a Python script"},
    };
    return list;
}

const ToolkitEntry *toolkitEntry(const QString &key)
{
    for (const ToolkitEntry &t : toolkitEntries()) {
        if (t.key == key)
            return &t;
    }
    return nullptr;
}

const QList<FieldRow> &jobSpecFields()
{
    static const QList<FieldRow> rows = [] {
        QList<FieldRow> list;
        SpecFields::describeFields<JobSpec>(QString(), list);
        for (FieldRow &row : list) {
            if (const ToolkitEntry *t = toolkitEntry(row.path.section(QLatin1Char('.'), 0, 0)))
                row.toolkit = t->toolkit;
        }
        return list;
    }();
    return rows;
}

const FieldRow *jobSpecField(const QString &path)
{
    for (const FieldRow &row : jobSpecFields()) {
        if (row.path == path)
            return &row;
    }
    return nullptr;
}

} // namespace TrainDesk
