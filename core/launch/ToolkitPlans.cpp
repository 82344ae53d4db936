#include "ToolkitPlans.h"

#include "RendezvousPorts.h"
#include "common/ShellQuote.h"

#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace TrainDesk {

const QString defaultPythonVariable = QStringLiteral("TRAINDESK_PYTHON");

QString toString(ToolkitLaunch::Kind kind)
{
    switch (kind) {
    case ToolkitLaunch::Kind::Mpi: return QStringLiteral("mpi");
    case ToolkitLaunch::Kind::Tasks: return QStringLiteral("tasks");
    case ToolkitLaunch::Kind::HeadNode: return QStringLiteral("head node");
    }
    return QString();
}

namespace {

QString python(const std::optional<QString> &interpreter, bool inContainer)
{
    if (interpreter && !interpreter->isEmpty())
        return shellWordWithVariables(*interpreter);
    // On a node, the launch script sets the variable to python, or python3 where there is no
    // python (Debian, Ubuntu): scripts written for the service's images run unchanged.
    return inContainer ? QStringLiteral("python") : QStringLiteral("\"$%1\"").arg(defaultPythonVariable);
}

// The interpreter and the script are paths: one word each, in which only $AZ_BATCHAI_*
// (and other variables) expand on the node. The arguments are the user's shell text, as
// the service passed them.
QString pythonProgram(const std::optional<QString> &interpreter, const QString &script,
                      const std::optional<QString> &args, bool inContainer)
{
    QString program = python(interpreter, inContainer) + QLatin1Char(' ') + shellWordWithVariables(script);
    if (args && !args->isEmpty())
        program += QLatin1Char(' ') + *args;
    return program;
}

ToolkitLaunch mpi(int processes, const QString &program, const QString &name, int nodes)
{
    ToolkitLaunch l;
    l.kind = ToolkitLaunch::Kind::Mpi;
    l.processCount = processes;
    l.program = program;
    l.summary = QStringLiteral("%1: %2 MPI process%3 on %4 node%5")
                    .arg(name)
                    .arg(processes)
                    .arg(processes == 1 ? QString() : QStringLiteral("es"))
                    .arg(nodes)
                    .arg(nodes == 1 ? QString() : QStringLiteral("s"));
    return l;
}

int totalSlots(const QList<Node> &nodes)
{
    int total = 0;
    for (const Node &n : nodes)
        total += qMax(1, n.slotCount);
    return total;
}

Result<ToolkitLaunch> tensorFlow(const JobSpec &spec, const QList<Node> &nodes, bool inContainer,
                                 const RendezvousPorts::Ports &ports)
{
    const TensorFlowSettings &s = *spec.tensorFlowSettings;
    const QString path = QStringLiteral("properties.tensorFlowSettings");
    auto program = [&](const std::optional<QString> &args) {
        return pythonProgram(s.pythonInterpreterPath, s.pythonScriptFilePath, args, inContainer);
    };
    const bool distributed = s.workerCount || s.parameterServerCount || spec.nodeCount > 1;
    if (!distributed) {
        // One master task on the head node.
        ToolkitLaunch l;
        l.kind = ToolkitLaunch::Kind::Tasks;
        l.tasks.append({QStringLiteral("master"), 0, 0, {{QStringLiteral("AZ_BATCHAI_TASK_INDEX"), QStringLiteral("0")}},
                        program(s.masterCommandLineArgs)});
        l.processCount = 1;
        l.summary = QStringLiteral("TensorFlow: one master task on the head node");
        return l;
    }
    const int workers = s.workerCount.value_or(spec.nodeCount);
    const int servers = s.parameterServerCount.value_or(1);
    const int n = int(nodes.size());
    if (servers > n) {
        return fail(QStringLiteral("%1.parameterServerCount: expected at most %2 (nodeCount), found %3")
                        .arg(path).arg(n).arg(servers));
    }
    if (workers > totalSlots(nodes)) {
        return fail(QStringLiteral("%1.workerCount: expected at most %2 (the MPI slots of the job's %3 nodes), found %4")
                        .arg(path).arg(totalSlots(nodes)).arg(n).arg(workers));
    }
    // Ports as the service handed them out, parameter servers first, but from the job's own
    // first port (the service had 2222 on each node): counted per host, as nodes of a test
    // cluster may share one machine.
    QHash<QString, int> nextPort;
    QStringList psHosts;
    QStringList workerHosts;
    QList<int> psNodes;
    QList<int> workerNodes;
    for (int j = 0; j < servers; ++j) {
        const int node = j % n;
        psNodes << node;
        psHosts << QStringLiteral("%1:%2").arg(nodes.at(node).host, ports.port(nextPort[nodes.at(node).host]++));
    }
    for (int i = 0; i < workers; ++i) {
        const int node = i % n;
        workerNodes << node;
        workerHosts << QStringLiteral("%1:%2").arg(nodes.at(node).host, ports.port(nextPort[nodes.at(node).host]++));
    }
    QJsonObject cluster{{QStringLiteral("worker"), QJsonArray::fromStringList(workerHosts)}};
    if (servers > 0)
        cluster.insert(QStringLiteral("ps"), QJsonArray::fromStringList(psHosts));
    auto tfConfig = [&](const QString &type, int index) {
        const QJsonObject config{{QStringLiteral("cluster"), cluster},
                                 {QStringLiteral("task"), QJsonObject{{QStringLiteral("type"), type}, {QStringLiteral("index"), index}}},
                                 {QStringLiteral("environment"), QStringLiteral("cloud")}};
        return QString::fromUtf8(QJsonDocument(config).toJson(QJsonDocument::Compact));
    };

    ToolkitLaunch l;
    l.kind = ToolkitLaunch::Kind::Tasks;
    for (int j = 0; j < servers; ++j) {
        l.tasks.append({QStringLiteral("ps"), j, psNodes.at(j),
                        {{QStringLiteral("AZ_BATCHAI_TASK_INDEX"), QString::number(j)},
                         {QStringLiteral("TF_CONFIG"), tfConfig(QStringLiteral("ps"), j)}},
                        program(s.parameterServerCommandLineArgs)});
    }
    for (int i = 0; i < workers; ++i) {
        // Worker 0 is the master (chief): it gets masterCommandLineArgs when they are given.
        const auto &args = i == 0 && s.masterCommandLineArgs ? s.masterCommandLineArgs : s.workerCommandLineArgs;
        l.tasks.append({QStringLiteral("worker"), i, workerNodes.at(i),
                        {{QStringLiteral("AZ_BATCHAI_TASK_INDEX"), QString::number(i)},
                         {QStringLiteral("TF_CONFIG"), tfConfig(QStringLiteral("worker"), i)}},
                        program(args)});
    }
    l.processCount = servers + workers;
    for (const int used : std::as_const(nextPort))
        l.portCount = ports.fixed ? 0 : qMax(l.portCount, used);
    l.environment = {{QStringLiteral("AZ_BATCHAI_PS_HOSTS"), psHosts.join(QLatin1Char(','))},
                     {QStringLiteral("AZ_BATCHAI_WORKER_HOSTS"), workerHosts.join(QLatin1Char(','))}};
    l.summary = QStringLiteral("TensorFlow: %1 parameter server%2 and %3 worker%4 on %5 node%6")
                    .arg(servers)
                    .arg(servers == 1 ? QString() : QStringLiteral("s"))
                    .arg(workers)
                    .arg(workers == 1 ? QString() : QStringLiteral("s"))
                    .arg(n)
                    .arg(n == 1 ? QString() : QStringLiteral("s"));
    return l;
}

Result<ToolkitLaunch> pyTorch(const JobSpec &spec, const QList<Node> &nodes, bool inContainer,
                              const RendezvousPorts::Ports &ports)
{
    const PyTorchSettings &s = *spec.pyTorchSettings;
    const int processes = s.processCount.value_or(spec.nodeCount);
    const QString program = pythonProgram(s.pythonInterpreterPath, s.pythonScriptFilePath, s.commandLineArgs, inContainer);
    const QString backend = s.communicationBackend.value_or(QString()).toLower();
    const int n = int(nodes.size());
    if (backend == QLatin1String("mpi")) {
        ToolkitLaunch l = mpi(processes, program, QStringLiteral("PyTorch (MPI backend)"), n);
        l.environment = {{QStringLiteral("AZ_BATCHAI_PYTORCH_BACKEND"), backend}};
        return l;
    }
    // TCP and Gloo: one process per rank, ranks filled node by node, rendezvous on the head node.
    if (processes > totalSlots(nodes)) {
        return fail(QStringLiteral("properties.pyTorchSettings.processCount: expected at most %1 (the MPI slots of the job's "
                                   "%2 nodes) with the %3 backend, found %4")
                        .arg(totalSlots(nodes)).arg(n).arg(s.communicationBackend.value_or(QString())).arg(processes));
    }
    const QString head = nodes.first().host;
    ToolkitLaunch l;
    l.kind = ToolkitLaunch::Kind::Tasks;
    l.processCount = processes;
    const int perNode = (processes + n - 1) / n;
    for (int r = 0; r < processes; ++r) {
        l.tasks.append({QStringLiteral("rank"), r, r / perNode,
                        {{QStringLiteral("AZ_BATCHAI_TASK_INDEX"), QString::number(r)},
                         {QStringLiteral("RANK"), QString::number(r)},
                         {QStringLiteral("LOCAL_RANK"), QString::number(r % perNode)}},
                        program});
    }
    if (backend.isEmpty()) {
        // Not distributed (the validator asks for a backend otherwise).
        l.summary = QStringLiteral("PyTorch: one process on the head node");
        return l;
    }
    // The service's variables, and the ones torch.distributed reads with init_method env://.
    // The port is the job's own (the service had 23456: packed jobs clashed on it).
    l.environment = {{QStringLiteral("AZ_BATCHAI_PYTORCH_BACKEND"), backend},
                     {QStringLiteral("AZ_BATCHAI_PYTORCH_INIT_METHOD"), QStringLiteral("tcp://%1:%2").arg(head, ports.port(0))},
                     {QStringLiteral("MASTER_ADDR"), head},
                     {QStringLiteral("MASTER_PORT"), ports.port(0)},
                     {QStringLiteral("WORLD_SIZE"), QString::number(processes)}};
    l.portCount = ports.fixed ? 0 : 1;
    l.summary = QStringLiteral("PyTorch (%1): %2 process%3 on %4 node%5, rendezvous at %6, port %7")
                    .arg(backend)
                    .arg(processes)
                    .arg(processes == 1 ? QString() : QStringLiteral("es"))
                    .arg(n)
                    .arg(n == 1 ? QString() : QStringLiteral("s"))
                    .arg(head, ports.fixed ? ports.port(0) : QStringLiteral("chosen free there at start"));
    return l;
}

ToolkitLaunch cntk(const JobSpec &spec, int nodes, bool inContainer)
{
    const CntkSettings &s = *spec.cntkSettings;
    const int processes = s.processCount.value_or(spec.nodeCount);
    const bool python = s.languageType ? s.languageType->compare(QLatin1String("python"), Qt::CaseInsensitive) == 0
                                       : s.pythonScriptFilePath && !s.configFilePath;
    if (python) {
        return mpi(processes, pythonProgram(s.pythonInterpreterPath, s.pythonScriptFilePath.value_or(QString()),
                                            s.commandLineArgs, inContainer),
                   QStringLiteral("CNTK (Python)"), nodes);
    }
    QString program = QStringLiteral("cntk configFile=") + shellWordWithVariables(s.configFilePath.value_or(QString()));
    if (s.commandLineArgs && !s.commandLineArgs->isEmpty())
        program += QLatin1Char(' ') + *s.commandLineArgs;
    return mpi(processes, program, QStringLiteral("CNTK (BrainScript)"), nodes);
}

ToolkitLaunch caffe(const JobSpec &spec, int nodes, bool inContainer)
{
    const CaffeSettings &s = *spec.caffeSettings;
    const int processes = s.processCount.value_or(spec.nodeCount);
    if (s.pythonScriptFilePath) {
        return mpi(processes, pythonProgram(s.pythonInterpreterPath, *s.pythonScriptFilePath, s.commandLineArgs, inContainer),
                   QStringLiteral("Caffe (Python)"), nodes);
    }
    QString program = QStringLiteral("caffe train --solver=") + shellWordWithVariables(s.configFilePath.value_or(QString()));
    if (s.commandLineArgs && !s.commandLineArgs->isEmpty())
        program += QLatin1Char(' ') + *s.commandLineArgs;
    return mpi(processes, program, QStringLiteral("Caffe"), nodes);
}

ToolkitLaunch caffe2(const JobSpec &spec, const QList<Node> &nodes, bool inContainer)
{
    const Caffe2Settings &s = *spec.caffe2Settings;
    // One shard per node, told apart by AZ_BATCHAI_TASK_INDEX (the script's --shard_id).
    ToolkitLaunch l;
    l.kind = ToolkitLaunch::Kind::Tasks;
    l.processCount = int(nodes.size());
    const QString program = pythonProgram(s.pythonInterpreterPath, s.pythonScriptFilePath, s.commandLineArgs, inContainer);
    for (int i = 0; i < nodes.size(); ++i)
        l.tasks.append({QStringLiteral("shard"), i, i, {{QStringLiteral("AZ_BATCHAI_TASK_INDEX"), QString::number(i)}}, program});
    l.summary = QStringLiteral("Caffe2: one shard on each of %1 node%2").arg(nodes.size()).arg(nodes.size() == 1 ? QString() : QStringLiteral("s"));
    return l;
}

} // namespace

std::optional<QString> namedPythonInterpreter(const JobSpec &spec)
{
    std::optional<QString> named;
    switch (spec.toolkit()) {
    case Toolkit::Horovod: named = spec.horovodSettings->pythonInterpreterPath; break;
    case Toolkit::Chainer: named = spec.chainerSettings->pythonInterpreterPath; break;
    case Toolkit::Cntk: named = spec.cntkSettings->pythonInterpreterPath; break;
    case Toolkit::Caffe: named = spec.caffeSettings->pythonInterpreterPath; break;
    case Toolkit::Caffe2: named = spec.caffe2Settings->pythonInterpreterPath; break;
    case Toolkit::PyTorch: named = spec.pyTorchSettings->pythonInterpreterPath; break;
    case Toolkit::TensorFlow: named = spec.tensorFlowSettings->pythonInterpreterPath; break;
    default: break;
    }
    if (named && named->isEmpty())
        return std::nullopt;
    return named;
}

Result<ToolkitLaunch> toolkitLaunch(const JobSpec &spec, const QList<Node> &nodes, bool inContainer)
{
    if (nodes.isEmpty())
        return fail(QStringLiteral("properties.nodeCount: expected at least one node for the job, found none"));
    const int n = int(nodes.size());
    switch (spec.toolkit()) {
    case Toolkit::CustomMpi:
        return mpi(spec.processCount(), spec.customMpiSettings->commandLine, QStringLiteral("custom MPI"), n);
    case Toolkit::Horovod: {
        const HorovodSettings &h = *spec.horovodSettings;
        return mpi(spec.processCount(), pythonProgram(h.pythonInterpreterPath, h.pythonScriptFilePath, h.commandLineArgs, inContainer),
                   QStringLiteral("Horovod"), n);
    }
    case Toolkit::Chainer: {
        const ChainerSettings &c = *spec.chainerSettings;
        return mpi(spec.processCount(), pythonProgram(c.pythonInterpreterPath, c.pythonScriptFilePath, c.commandLineArgs, inContainer),
                   QStringLiteral("Chainer"), n);
    }
    case Toolkit::Cntk: return cntk(spec, n, inContainer);
    case Toolkit::Caffe: return caffe(spec, n, inContainer);
    case Toolkit::Caffe2: return caffe2(spec, nodes, inContainer);
    case Toolkit::PyTorch:
    case Toolkit::TensorFlow: {
        const auto ports = RendezvousPorts::of(spec);
        if (!ports)
            return ports.failure();
        return spec.toolkit() == Toolkit::PyTorch ? pyTorch(spec, nodes, inContainer, *ports)
                                                  : tensorFlow(spec, nodes, inContainer, *ports);
    }
    case Toolkit::CustomToolkit: {
        ToolkitLaunch l;
        l.kind = ToolkitLaunch::Kind::HeadNode;
        l.program = spec.customToolkitSettings->commandLine.value_or(QString());
        l.summary = QStringLiteral("custom toolkit: the command line on the head node (hostfile in $AZ_BATCHAI_MPI_HOST_FILE)");
        return l;
    }
    case Toolkit::None: break;
    }
    return fail(QStringLiteral("properties: expected one toolkit setting, found none"));
}

} // namespace TrainDesk
