#include "LaunchPlan.h"

#include "ContainerCommands.h"
#include "JobNetwork.h"
#include "LaunchScript.h"
#include "RankBinding.h"
#include "RendezvousPorts.h"
#include "SlurmBatchScript.h"
#include "TaskOutputs.h"
#include "jobspec/JobSpecFields.h"
#include "jobspec/ShareMapping.h"
#include "common/PathConfinement.h"
#include "common/ShellQuote.h"

#include <QJsonArray>
#include <QRegularExpression>

#include <algorithm>

namespace TrainDesk {

namespace {

QString joinPath(const QString &a, const QString &b)
{
    if (b.isEmpty())
        return a;
    if (a.endsWith(QLatin1Char('/')))
        return a + b;
    return a + QLatin1Char('/') + b;
}

void setVariable(EnvironmentList &env, const QString &name, const QString &value)
{
    for (auto &entry : env) {
        if (entry.first == name) {
            entry.second = value;
            return;
        }
    }
    env.append({name, value});
}

// Counted on the head node when the job starts: the nodes' GPUs are not in the database.
const QString gpuCount = QStringLiteral("nvidia-smi -L 2>/dev/null | grep -c '^GPU'");

// A line of the hostfile: one host and the slots of every job node on it.
struct HostLine
{
    QString host;
    int slotCount = 0;
    QList<int> nodeIndexes;  // the job's nodes on this host, in node order
};

// How many of `processes` ranks mpirun puts on each hostfile line when it maps by slot: it
// fills each host's slots in hostfile order; ranks beyond all the slots (--oversubscribe)
// are spread evenly, one more on each of the first hosts. Ranks are then numbered host by
// host. Read in Open MPI 4.1's round-robin mapper and checked with real runs.
QList<int> ranksPerHost(const QList<HostLine> &lines, int processes)
{
    QList<int> counts;
    int left = qMax(0, processes);
    for (const HostLine &line : lines) {
        counts << qMin(line.slotCount, left);
        left -= counts.last();
    }
    const int hosts = int(counts.size());
    for (int h = 0; left > 0 && h < hosts; ++h)
        counts[h] += left / hosts + (h < left % hosts ? 1 : 0);
    return counts;
}

struct Builder
{
    const JobSpec &spec;
    const LaunchContext &context;
    LaunchPlan plan;
    QList<Node> nodes;
    QList<ShareMount> mounts;
    EnvironmentList secrets;
    std::optional<ContainerCommands> container;
    QStringList jobFolders;  // stdOutErrPathPrefix and the output directories' prefixes, resolved

    // Each job has its own mount root on every node, so that its mounts (a share under another
    // name, a file server's folder, an unmanaged file system) never meet another job's.
    QString jobMountRoot() const { return joinPath(context.mountRoot, QStringLiteral(".jobs/") + context.uuid); }
    QString jobMountPath(const MountReference &r) const { return joinPath(jobMountRoot(), r.relativeMountPath); }

    // A path resolved before the job starts: variables expanded, and a path under the job's
    // mount root (made by the launch script) read through the share's own link under the
    // cluster's mount root, which the runner makes before it writes anything.
    Result<QString> resolvePath(const QString &jsonPath, const QString &text)
    {
        QString path = expandBatchAiVariables(text, plan.environment);
        if (path.isEmpty())
            return fail(QStringLiteral("%1: expected a path, found nothing").arg(jsonPath));
        if (path.contains(QLatin1Char('$'))) {
            return fail(QStringLiteral("%1: expected a path TrainDesk can resolve before the job starts (absolute, or under "
                                       "$AZ_BATCHAI_MOUNT_ROOT or $AZ_BATCHAI_JOB_MOUNT_ROOT), found '%2'").arg(jsonPath, text));
        }
        if (!path.startsWith(QLatin1Char('/')))
            return fail(QStringLiteral("%1: expected an absolute path, found '%2'").arg(jsonPath, path));
        if (!PathConfinement::isUnder(path, jobMountRoot()))
            return path;
        for (const ShareMount &m : mounts) {
            const QString mountPath = jobMountPath(m.reference);
            if (!PathConfinement::isUnder(path, mountPath))
                continue;
            if (m.reference.kind == MountReference::Kind::UnmanagedFileSystem) {
                return fail(QStringLiteral("%1: expected a path on a TrainDesk share, found '%2' on the unmanaged file "
                                           "system of %3, which is mounted only when the job starts")
                                .arg(jsonPath, path, m.reference.path));
            }
            const QString own = joinPath(joinPath(context.mountRoot, m.shareName), m.reference.sourceDirectory);
            return own + path.mid(mountPath.size());
        }
        // Every share is also in the job's mount root under its own name.
        return context.mountRoot + path.mid(jobMountRoot().size());
    }

    VoidResult resolveMounts()
    {
        QStringList shareNames;
        for (const Share &s : context.shares)
            shareNames << s.name;
        for (const MountReference &r : mountReferences(spec)) {
            ShareMount m;
            m.reference = r;
            PlannedMount planned;
            planned.jsonPath = r.path;
            planned.mountPath = jobMountPath(r);
            if (r.kind == MountReference::Kind::UnmanagedFileSystem) {
                planned.target = r.mountCommand;
            } else {
                m.shareName = matchShare(r, shareNames);
                if (m.shareName.isEmpty()) {
                    return fail(QStringLiteral("%1: expected a share of workspace '%2' named '%3', found none")
                                    .arg(r.path, context.workspace, r.candidateNames.join(QStringLiteral("' or '"))));
                }
                for (const Share &s : context.shares) {
                    if (s.name == m.shareName)
                        m.sharePath = joinPath(s.path, r.sourceDirectory);
                }
                planned.share = m.shareName;
                planned.target = m.sharePath;
            }
            mounts.append(m);
            plan.mounts.append(planned);
        }
        return {};
    }

    // The links of the job's mount root: every share by name, then the mountVolumes (which
    // may take a share's name for another share or folder).
    QList<QPair<QString, QString>> links() const
    {
        QList<QPair<QString, QString>> list;  // link -> target
        // A mount path takes the name of its first folder: a share of that name is not linked.
        QStringList declared;
        for (const ShareMount &m : mounts)
            declared << m.reference.relativeMountPath.section(QLatin1Char('/'), 0, 0);
        for (const Share &s : context.shares) {
            if (!declared.contains(s.name))
                list.append({joinPath(jobMountRoot(), s.name), s.path});
        }
        for (const ShareMount &m : mounts) {
            if (m.reference.kind != MountReference::Kind::UnmanagedFileSystem)
                list.append({jobMountPath(m.reference), m.sharePath});
        }
        return list;
    }

    // The job's mount root, its links and unmanaged mounts, and the container, on one node.
    QString setupText(const Node &node) const
    {
        const QString who = QStringLiteral("node %1 (%2)").arg(node.name, node.host);
        QStringList lines;
        lines << QStringLiteral("mkdir -p \"$AZ_BATCHAI_JOB_TEMP\" \"$AZ_BATCHAI_STDOUTERR_DIR\" %1 || exit 1")
                     .arg(shellQuote(jobMountRoot()));
        for (const auto &[link, target] : links()) {
            const QString parent = link.left(link.lastIndexOf(QLatin1Char('/')));
            lines << QStringLiteral("mkdir -p %1 && { [ ! -e %2 ] || [ -L %2 ]; } && ln -sfn %3 %2 || { echo %4 >&2; exit 1; }")
                         .arg(shellQuote(parent), shellQuote(link), shellQuote(target),
                              shellQuote(QStringLiteral("%1: cannot link %2 to %3").arg(who, link, target)));
        }
        for (const ShareMount &m : mounts) {
            if (m.reference.kind != MountReference::Kind::UnmanagedFileSystem)
                continue;
            // As on the service, the mount path goes after the user's mount command.
            const QString mountPath = jobMountPath(m.reference);
            lines << QStringLiteral("mkdir -p %1 && { mountpoint -q %1 || { %2 %1 && echo %1 >> \"$AZ_BATCHAI_JOB_TEMP\"/%3; }; } "
                                    "|| { echo %4 >&2; exit 1; }")
                         .arg(shellQuote(mountPath), m.reference.mountCommand,
                              shellQuote(QStringLiteral("mounted-%1").arg(node.name)),
                              shellQuote(QStringLiteral("%1: the mount command of %2 failed for %3")
                                             .arg(who, m.reference.path, mountPath)));
        }
        if (container)
            lines << container->startText(node.name, node.host);
        else if (const auto named = namedPythonInterpreter(spec))
            lines << interpreterCheck(who, *named);
        return lines.join(QLatin1Char('\n'));
    }

    // A named interpreter that a node lacks fails its setup, naming the node and the setting,
    // before any rank starts (it failed as exit code 127 of the job; in a container the
    // image has its own).
    QString interpreterCheck(const QString &who, const QString &interpreter) const
    {
        QString key;
        for (const ToolkitEntry &t : toolkitEntries())
            key = t.toolkit == spec.toolkit() ? t.key : key;
        return QStringLiteral("command -v %1 >/dev/null 2>&1 || { echo %2 >&2; exit 1; }")
            .arg(shellWordWithVariables(interpreter),
                 shellQuote(QStringLiteral("%1: properties.%2.pythonInterpreterPath: %3 is not there (no such file or command)")
                                .arg(who, key, interpreter)));
    }

    // Undoes the setup: only what this job mounted is unmounted, and only links are removed
    // (never a recursive delete: a mount that would not go away keeps its files).
    QString cleanupText(const Node &node) const
    {
        QStringList lines;
        if (container)
            lines << container->stopText();
        for (const ShareMount &m : mounts) {
            if (m.reference.kind != MountReference::Kind::UnmanagedFileSystem)
                continue;
            lines << QStringLiteral("grep -qxF %1 \"$AZ_BATCHAI_JOB_TEMP\"/%2 2>/dev/null && umount %1")
                         .arg(shellQuote(jobMountPath(m.reference)), shellQuote(QStringLiteral("mounted-%1").arg(node.name)));
        }
        QStringList linkPaths;
        for (const auto &[link, target] : links())
            linkPaths << link;
        if (!linkPaths.isEmpty())
            lines << QStringLiteral("for l in %1; do [ -L \"$l\" ] && rm -f \"$l\"; done").arg(shellJoin(linkPaths));
        // The folders the setup made, deepest first; rmdir leaves anything not empty (or mounted).
        QStringList folders;
        auto addParents = [&](QString path, bool withItself) {
            if (!withItself)
                path = path.left(path.lastIndexOf(QLatin1Char('/')));
            while (path.size() > jobMountRoot().size() && !folders.contains(path)) {
                folders << path;
                path = path.left(path.lastIndexOf(QLatin1Char('/')));
            }
        };
        for (const QString &link : linkPaths)
            addParents(link, false);
        for (const ShareMount &m : mounts) {
            if (m.reference.kind == MountReference::Kind::UnmanagedFileSystem)
                addParents(jobMountPath(m.reference), true);
        }
        std::sort(folders.begin(), folders.end(), [](const QString &a, const QString &b) { return a.size() > b.size(); });
        // Not the shared .jobs folder above it: removed while another job on the node made
        // its own folder in it (mkdir -p), that job's setup failed (1 trial in 300-1,000 of a
        // sweep 2 at a time on one node, bench/agent/run_sweep_scale.sh).
        folders << jobMountRoot();
        lines << QStringLiteral("rmdir %1 2>/dev/null; true").arg(shellJoin(folders));
        return lines.join(QLatin1Char('\n'));
    }

    QString preparationText(const Node &node, const QStringList &passed) const
    {
        const QString command = container ? container->execText(plan.preparationCommand, passed, ContainerCommands::Step::Preparation)
                                          : QStringLiteral("/bin/sh -c ") + shellQuote(plan.preparationCommand);
        return QStringLiteral("mkdir -p \"$AZ_BATCHAI_STDOUTERR_DIR\" && { %1; } > \"$AZ_BATCHAI_STDOUTERR_DIR\"/%2 "
                              "2> \"$AZ_BATCHAI_STDOUTERR_DIR\"/%3")
            .arg(command, shellQuote(QStringLiteral("stdout-job_prep-%1.txt").arg(node.name)),
                 shellQuote(QStringLiteral("stderr-job_prep-%1.txt").arg(node.name)));
    }

    // mpirun and its options; `passed` are the variables for the (single) app context.
    QString mpirun(const QStringList &passed, const QStringList &placement, const QStringList &mapping = {}) const
    {
        QStringList args{QStringLiteral("mpirun"), QStringLiteral("--hostfile"), plan.hostfilePath()};
        args += placement;
        // Slots are cores; a user asking for more ranks than cores gets them.
        args << QStringLiteral("--oversubscribe") << QStringLiteral("--tag-output");
        args += mapping;
        args += exportOptions(passed);
        return shellJoin(args);
    }

    // Batch AI's placement of an MPI job's ranks: each node runs processCount / nodeCount of
    // them, the first processCount % nodeCount nodes one more (a node's cores do not count).
    QList<int> ranksPerNode(int processes) const
    {
        QList<int> shares;
        const int n = int(nodes.size());
        for (int i = 0; i < n; ++i)
            shares << processes / n + (i < processes % n ? 1 : 0);
        return shares;
    }

    // One line per host: Open MPI refuses a host given twice (two nodes on one machine).
    // A node's slots are its share of the ranks (`shares`, an MPI job) or its cores; at
    // least 1, so every node can run the per-node steps (preparation, set-up, clean-up).
    QList<HostLine> hostLines(const QList<int> &shares = {}) const
    {
        QList<HostLine> lines;
        for (int i = 0; i < nodes.size(); ++i) {
            const Node &n = nodes.at(i);
            auto line = std::find_if(lines.begin(), lines.end(), [&](const HostLine &l) { return l.host == n.host; });
            if (line == lines.end())
                line = lines.insert(lines.end(), HostLine{n.host, 0, {}});
            line->slotCount += qMax(1, shares.isEmpty() ? n.slotCount : shares.at(i));
            line->nodeIndexes << i;
        }
        return lines;
    }

    QList<int> sharesOf(const ToolkitLaunch &launch) const
    {
        return launch.kind == ToolkitLaunch::Kind::Mpi ? ranksPerNode(launch.processCount) : QList<int>{};
    }

    // The node of each rank. mpirun sees hosts, not nodes: a host's ranks go to its nodes
    // in node order, each taking its share, and the last one any beyond them.
    QStringList rankNodesOf(const ToolkitLaunch &launch) const
    {
        QStringList result;
        switch (launch.kind) {
        case ToolkitLaunch::Kind::HeadNode:
            return {nodes.first().name};
        case ToolkitLaunch::Kind::Tasks:
            // One app context per task, ranked in the order given.
            for (const LaunchTask &t : launch.tasks)
                result << nodes.at(t.nodeIndex).name;
            return result;
        case ToolkitLaunch::Kind::Mpi: break;
        }
        const QList<int> shares = sharesOf(launch);
        const QList<HostLine> lines = hostLines(shares);
        const QList<int> counts = ranksPerHost(lines, launch.processCount);
        for (int h = 0; h < lines.size(); ++h) {
            int left = counts.at(h);
            const QList<int> &onHost = lines.at(h).nodeIndexes;
            for (int k = 0; k < onHost.size(); ++k) {
                const Node &n = nodes.at(onHost.at(k));
                const int take = k + 1 == onHost.size() ? left : qMin(left, qMax(1, shares.value(onHost.at(k), n.slotCount)));
                for (int r = 0; r < take; ++r)
                    result << n.name;
                left -= take;
            }
        }
        return result;
    }

    static QStringList exportOptions(const QStringList &names)
    {
        QStringList options;
        for (const QString &name : names)
            options << QStringLiteral("-x") << name;
        return options;
    }

    // The program as each process runs it: itself, or inside the job's container.
    QString inContainer(const QString &program, const QStringList &passed) const
    {
        if (!container)
            return program;
        return QStringLiteral("/bin/sh -c ") + shellQuote(container->execText(program, passed));
    }

    QString command(const ToolkitLaunch &launch, const QStringList &passed)
    {
        switch (launch.kind) {
        case ToolkitLaunch::Kind::Mpi:
            // The program part is the user's shell text: the launch script's shell expands it.
            // By slot, said outright: a default mapping policy set on the head node (an MCA
            // parameter) would move ranks to other nodes than rankNodes says.
            return mpirun(passed, {QStringLiteral("-np"), QString::number(launch.processCount)},
                          {QStringLiteral("--map-by"), QStringLiteral("slot")})
                + QLatin1Char(' ') + inContainer(launch.program, passed);
        case ToolkitLaunch::Kind::HeadNode:
            return container ? container->execText(launch.program, passed) : launch.program;
        case ToolkitLaunch::Kind::Tasks: break;
        }
        QStringList contexts;
        QString single;
        for (const LaunchTask &t : launch.tasks) {
            QStringList exports;
            for (const auto &[name, value] : t.environment)
                exports << name + QLatin1Char('=') + RendezvousPorts::shellWord(value);
            QString text = exports.isEmpty()
                ? t.program
                : QStringLiteral("export %1; %2").arg(exports.join(QLatin1Char(' ')), t.program);
            if (!t.setup.isEmpty())
                text = t.setup + QStringLiteral("; ") + text;
            const Node &node = nodes.at(t.nodeIndex);
            plan.tasks.append({t.role, t.index, node.name, node.host,
                               (exports + QStringList{t.program}).join(QLatin1Char(' '))});
            single = QStringLiteral("/bin/sh -c ") + shellQuote(container ? container->execText(text, passed) : text);
            // Open MPI applies -x to the app context it is given in: each context has the list.
            // In a Slurm allocation mpirun knows the nodes by their Slurm names.
            const QString host = context.slurm ? slurmNodePlaceholder(QString::number(t.nodeIndex)) : node.host;
            contexts << QStringLiteral("-np 1 --host %1 %2 %3").arg(shellQuote(host), shellJoin(exportOptions(passed)), single);
        }
        // One task on the head node needs no launcher.
        if (launch.tasks.size() == 1 && launch.tasks.first().nodeIndex == 0)
            return single;
        return mpirun({}, {}) + QLatin1Char(' ') + contexts.join(QStringLiteral(" : "));
    }

    // A packed job sees only its GPUs (CUDA's and, in a container, the NVIDIA runtime's
    // variable); the job's own environmentVariables, set after, still win.
    QStringList grantGpus(EnvironmentList &env) const
    {
        if (nodes.isEmpty() || nodes.first().gpuCount == 0)
            return {};
        QStringList indices;
        for (int i : context.grant->gpus)
            indices << QString::number(i);
        const QString list = indices.join(QLatin1Char(','));
        setVariable(env, QStringLiteral("CUDA_VISIBLE_DEVICES"), list);
        setVariable(env, QStringLiteral("NVIDIA_VISIBLE_DEVICES"), list.isEmpty() ? QStringLiteral("none") : list);
        return {QStringLiteral("GPUs: %1 of %2's %3 (CUDA_VISIBLE_DEVICES=%4; the job's share)")
                    .arg(indices.isEmpty() ? QStringLiteral("none") : RankBinding::rangesText(context.grant->gpus),
                         nodes.first().name)
                    .arg(nodes.first().gpuCount)
                    .arg(list)};
    }

    // The plan: the job's nodes, folders and variables, its container, how its toolkit
    // launches, then what each node runs and the launch script around it all.
    Result<LaunchPlan> build()
    {
        if (auto ok = takeNodes(); !ok)
            return ok.failure();
        plan.environment.append({QStringLiteral("AZ_BATCHAI_MOUNT_ROOT"), context.mountRoot});
        plan.environment.append({QStringLiteral("AZ_BATCHAI_JOB_MOUNT_ROOT"), jobMountRoot()});
        if (auto ok = resolveMounts(); !ok)
            return ok.failure();
        if (auto ok = placeDirectories(); !ok)
            return ok.failure();
        addJobVariables();
        prepareContainer();
        auto launch = toolkitLaunch(spec, nodes, container.has_value());
        if (!launch)
            return launch.failure();
        QStringList notes = addLaunchVariables(*launch);
        addSecrets();
        if (auto ok = readWallClockTime(); !ok)
            return ok.failure();
        describeLaunch(*launch);
        const bool defaultPython = usesDefaultPython(*launch);
        const QStringList passed = passedNames(defaultPython);
        plan.commandLine = command(*launch, passed);
        plan.rankNodes = rankNodesOf(*launch);
        plan.warnings = oversubscription(*launch);
        notes += plan.warnings;
        const LaunchScriptInput in = scriptInput(*launch, passed, defaultPython, notes);
        plan.launchScript = launchScript(in);
        plan.launchScriptShown = plan.launchScript;
        plan.secretsFile = secretsFileText(in);
        return plan;
    }

    // An MPI job's processCount over its nodes' cores runs, as Batch AI placed the ranks
    // (processCount / nodeCount on each node, the cores not counted) and mpirun ran them
    // (--oversubscribe): said, naming the setting, nodeCount and the slotTotal (PyTorch and
    // TensorFlow tasks over the slotTotal are refused by their plans).
    QStringList oversubscription(const ToolkitLaunch &launch) const
    {
        if (launch.kind != ToolkitLaunch::Kind::Mpi)
            return {};
        const QStringList hosts = RankBinding::oversubscribed(nodes, plan.rankNodes);
        if (hosts.isEmpty())
            return {};
        QString key = QStringLiteral("processCount");
        for (const ToolkitEntry &t : toolkitEntries())
            key = t.toolkit == spec.toolkit() ? t.key + QStringLiteral(".processCount") : key;
        int slotTotal = 0;
        for (const Node &n : nodes)
            slotTotal += qMax(1, n.slotCount);
        return {QStringLiteral("ranks oversubscribed: properties.%1 %2 over nodeCount %3 with %4 slot%5 (cores) "
                               "puts %6; they run, sharing cores, as Batch AI placed them")
                    .arg(key)
                    .arg(launch.processCount)
                    .arg(nodes.size())
                    .arg(slotTotal)
                    .arg(slotTotal == 1 ? QString() : QStringLiteral("s"))
                    .arg(hosts.join(QStringLiteral(", ")))};
    }

    // The first nodeCount of the assigned nodes.
    VoidResult takeNodes()
    {
        if (context.nodes.size() < spec.nodeCount) {
            return fail(QStringLiteral("properties.nodeCount: expected at most %1 (the nodes assigned to the job), found %2")
                            .arg(context.nodes.size()).arg(spec.nodeCount));
        }
        nodes = context.nodes.mid(0, spec.nodeCount);
        // A packed job's node is its cores: the hostfile's slots and the threads per rank.
        if (context.grant && !nodes.isEmpty())
            nodes[0].slotCount = qMax(1, int(context.grant->cores.size()));
        for (const Node &n : nodes)
            plan.nodes << n.name;
        return {};
    }

    // The job's folder (where its stdout and stderr go) and its input and output directories,
    // each with its variables.
    VoidResult placeDirectories()
    {
        const auto prefix = resolvePath(QStringLiteral("properties.stdOutErrPathPrefix"), spec.stdOutErrPathPrefix);
        if (!prefix)
            return prefix.failure();
        plan.jobDir = joinPath(*prefix, jobFolder(context.uuid));
        jobFolders << *prefix;
        plan.stdOutErrDir = joinPath(plan.jobDir, QStringLiteral("stdouterr"));
        addInputDirectories();
        return addOutputDirectories();
    }

    // An attempt's folder under a path prefix, as the service names it.
    QString jobFolder(const QString &uuid) const
    {
        return QStringLiteral("workspaces/%1/experiments/%2/jobs/%3/%4").arg(context.workspace, context.experiment, context.job, uuid);
    }

    // $AZ_BATCHAI_<KIND>_<ID> for a directory: the id as written and upper-cased (recipes
    // use $AZ_BATCHAI_INPUT_<ID> in capitals).
    void addDirectoryVariables(const QString &kind, const QString &id, const QString &path)
    {
        plan.environment.append({QStringLiteral("AZ_BATCHAI_%1_%2").arg(kind, id.toUpper()), path});
        if (id != id.toUpper())
            plan.environment.append({QStringLiteral("AZ_BATCHAI_%1_%2").arg(kind, id), path});
    }

    void addInputDirectories()
    {
        if (!spec.inputDirectories)
            return;
        for (const InputDirectory &in : *spec.inputDirectories) {
            // Inputs are read where the job runs; links made at node setup are there by then.
            const QString path = expandBatchAiVariables(in.path, plan.environment);
            plan.inputDirectories.append({in.id, path});
            addDirectoryVariables(QStringLiteral("INPUT"), in.id, path);
        }
    }

    VoidResult addOutputDirectories()
    {
        if (!spec.outputDirectories)
            return {};
        for (qsizetype i = 0; i < spec.outputDirectories->size(); ++i) {
            const OutputDirectory &out = spec.outputDirectories->at(i);
            const auto outPrefix = resolvePath(QStringLiteral("properties.outputDirectories[%1].pathPrefix").arg(i),
                                               out.pathPrefix);
            if (!outPrefix)
                return outPrefix.failure();
            jobFolders << *outPrefix;
            const auto pathOf = [&](const QString &uuid) {
                return joinPath(joinPath(joinPath(*outPrefix, jobFolder(uuid)), QStringLiteral("outputs")),
                                out.pathSuffix.value_or(QString()));
            };
            const QString path = pathOf(context.uuid);
            plan.outputDirectories.append({out.id, path});
            addDirectoryVariables(QStringLiteral("OUTPUT"), out.id, path);
            // The service's name (from its preview) for the same folder of the attempt
            // before: what a retried script resumes from.
            if (!context.previousUuid.isEmpty())
                addDirectoryVariables(QStringLiteral("PREV_OUTPUT"), out.id, pathOf(context.previousUuid));
        }
        return {};
    }

    // The job's own folders, its nodes, and the marks that tell its processes and attempts apart.
    void addJobVariables()
    {
        EnvironmentList &env = plan.environment;
        QStringList workerHosts;
        for (const Node &n : nodes)
            workerHosts << n.host;
        env.append({QStringLiteral("AZ_BATCHAI_JOB_TEMP"), joinPath(plan.jobDir, QStringLiteral("tmp"))});
        env.append({QStringLiteral("AZ_BATCHAI_SHARED_JOB_TEMP"), joinPath(plan.jobDir, QStringLiteral("shared"))});
        env.append({QStringLiteral("AZ_BATCHAI_STDOUTERR_DIR"), plan.stdOutErrDir});
        env.append({QStringLiteral("AZ_BATCHAI_MPI_HOST_FILE"), plan.hostfilePath()});
        env.append({QStringLiteral("AZ_BATCHAI_TASK_INDEX"), QStringLiteral("0")});
        env.append({QStringLiteral("AZ_BATCHAI_WORKER_HOSTS"), workerHosts.join(QLatin1Char(','))});
        // Inherited by every process of the job on every node (mpirun -x passes it on), so
        // that what a job left behind can be found and ended (StrayProcessCleanup).
        env.append({jobMarkerVariable(), context.uuid});
        // Which attempt of a retried job this is (1: the first run).
        env.append({QStringLiteral("TRAINDESK_ATTEMPT"), QString::number(context.attempt)});
    }

    void prepareContainer()
    {
        if (!spec.containerSettings)
            return;
        QStringList bindPaths{context.mountRoot};
        for (const Share &s : context.shares)
            bindPaths << s.path;
        container = ContainerCommands::from(*spec.containerSettings, context.uuid, bindPaths, context.trainerDirectory);
        // Folders of the job outside the shares and the mount root are seen inside too.
        container->addJobFolders(jobFolders);
        for (const auto &input : std::as_const(plan.inputDirectories))
            container->addInputFolders({input.second.contains(QLatin1Char('$')) ? QString() : input.second});
        // A packed job's container has its GPUs and cores only, as its processes see them
        // without a container (CUDA_VISIBLE_DEVICES, the ranks' binding).
        if (context.grant) {
            container->gpuDevices = context.grant->gpus;
            if (!context.slurm)
                container->cpuCores = context.grant->cores;
        }
        plan.containerImage = container->image;
        plan.containerOptions = container->resourceOptions();
    }

    // The toolkit's variables, the network's, the ranks' binding and a packed job's GPUs,
    // then the job's own environmentVariables over them; returns the notes for the log.
    QStringList addLaunchVariables(ToolkitLaunch &launch)
    {
        EnvironmentList &env = plan.environment;
        for (const auto &[name, value] : launch.environment)
            setVariable(env, name, value);
        // Gloo, NCCL and Open MPI told which interface the nodes share; the user's own win.
        QStringList userVariables;
        if (spec.environmentVariables) {
            for (const EnvironmentVariable &e : *spec.environmentVariables)
                userVariables << e.name;
        }
        const QString userCommand = spec.customMpiSettings ? spec.customMpiSettings->commandLine : QString();
        QStringList notes = context.slurm ? JobNetwork::applyInSlurm(launch, userVariables, nodes)
                                          : JobNetwork::of(nodes).applyTo(launch, env, userVariables, userCommand, nodes);
        notes += RankBinding::applyTo(launch, env, userVariables, nodes, rankNodesOf(launch), context.slurm);
        if (context.grant)
            notes += grantGpus(env);
        if (spec.environmentVariables) {
            // Values may name the job's variables, as on the service.
            for (const EnvironmentVariable &e : *spec.environmentVariables)
                setVariable(env, e.name, expandBatchAiVariables(e.value, env));
        }
        return notes;
    }

    void addSecrets()
    {
        if (!spec.secrets)
            return;
        for (const EnvironmentVariableWithSecretValue &s : *spec.secrets) {
            secrets.append({s.name, s.value.value_or(QString())});
            plan.secretNames << s.name;
        }
    }

    VoidResult readWallClockTime()
    {
        if (!spec.constraints || !spec.constraints->maxWallClockTime)
            return {};
        QString error;
        const auto limit = parseWallClockTime(*spec.constraints->maxWallClockTime, &error);
        if (!limit)
            return fail(QStringLiteral("properties.constraints.maxWallClockTime: %1").arg(error));
        plan.maxWallClockTime = *limit;
        plan.maxWallClockTimeIsDefault = false;
        return {};
    }

    // The hostfile and what the plan says of the launch.
    void describeLaunch(const ToolkitLaunch &launch)
    {
        for (const HostLine &line : hostLines(sharesOf(launch))) {
            // What the batch script writes in a Slurm allocation: the nodes' Slurm names.
            const QString host = context.slurm ? slurmNodePlaceholder(QString::number(line.nodeIndexes.first())) : line.host;
            plan.hostfile += QStringLiteral("%1 slots=%2\n").arg(host).arg(line.slotCount);
        }
        plan.preparationCommand = spec.jobPreparationCommandLine().value_or(QString());
        plan.toolkit = toString(spec.toolkit());
        plan.launcher = toString(launch.kind);
        plan.summary = launch.summary;
        plan.processCount = launch.kind == ToolkitLaunch::Kind::HeadNode ? 1 : launch.processCount;
        plan.portCount = launch.portCount;
        plan.portSearchStart = launch.portCount > 0 ? RendezvousPorts::searchStart(context.uuid) : 0;
    }

    // Whether a program runs "$TRAINDESK_PYTHON", the interpreter the head node picks.
    static bool usesDefaultPython(const ToolkitLaunch &launch)
    {
        const QString pythonWord = QStringLiteral("\"$%1\"").arg(defaultPythonVariable);
        bool defaultPython = launch.program.contains(pythonWord);
        for (const LaunchTask &task : launch.tasks)
            defaultPython = defaultPython || task.program.contains(pythonWord);
        return defaultPython;
    }

    // The variables every process gets (mpirun -x, srun, the container).
    QStringList passedNames(bool defaultPython) const
    {
        QStringList passed;
        for (const auto &[name, value] : plan.environment)
            passed << name;
        passed << plan.secretNames << QStringLiteral("AZ_BATCHAI_NUM_GPUS");
        if (plan.portCount > 0)
            passed << RendezvousPorts::variable();
        if (defaultPython)
            passed << defaultPythonVariable;
        // The launch script puts the bundled trainer's folder on PATH: every rank needs it.
        if (!context.trainerDirectory.isEmpty())
            passed << QStringLiteral("PATH");
        return passed;
    }

    LaunchScriptInput scriptInput(const ToolkitLaunch &launch, const QStringList &passed, bool defaultPython,
                                  QStringList notes) const
    {
        LaunchScriptInput in;
        in.title = QStringLiteral("%1/%2/%3 (%4)").arg(context.workspace, context.experiment, context.job, context.uuid);
        in.jobDir = plan.jobDir;
        in.hostfilePath = plan.hostfilePath();
        in.nodes = nodes;
        in.environment = plan.environment;
        in.secrets = secrets;
        in.computed = {{QStringLiteral("AZ_BATCHAI_NUM_GPUS"), gpuCount}};
        if (context.grant && !nodes.isEmpty() && nodes.first().gpuCount > 0)
            in.computed = {{QStringLiteral("AZ_BATCHAI_NUM_GPUS"), QStringLiteral("echo %1").arg(context.grant->gpus.size())}};
        choosePython(launch, defaultPython, in, notes);
        choosePorts(in);
        for (const QString &note : std::as_const(notes))
            in.beforeCommand += (in.beforeCommand.isEmpty() ? QString() : QStringLiteral("\n")) + QStringLiteral("log ") + shellQuote(note);
        if (context.grant && !context.slurm)
            in.beforeCommand += (in.beforeCommand.isEmpty() ? QString() : QStringLiteral("\n")) + RankBinding::pinText(context.grant->cores);
        // Each task's own stdout-<i>.txt and stderr-<i>.txt beside the combined files.
        in.taskOutputNames = TaskOutputs::names(launch);
        if (launch.kind == ToolkitLaunch::Kind::Tasks && launch.tasks.size() == 1 && launch.tasks.first().nodeIndex == 0)
            in.untaggedTaskOutput = in.taskOutputNames.value(0);
        // The allocation's hosts, in the variables too, are filled in by the batch script.
        in.slurm = context.slurm;
        in.trainerDirectory = context.trainerDirectory;
        for (const auto &[id, path] : plan.outputDirectories)
            in.outputDirectories << path;
        for (const Node &n : nodes) {
            in.setupTexts << setupText(n);
            in.cleanupTexts << cleanupText(n);
            if (!plan.preparationCommand.isEmpty())
                in.preparationTexts << preparationText(n, passed);
        }
        in.command = plan.commandLine;
        in.rankNodes = plan.rankNodes;
        if (spec.containerSettings && spec.containerSettings->imageSourceRegistry.credentials)
            in.registryPassword = spec.containerSettings->imageSourceRegistry.credentials->password.value_or(QString());
        in.limit = plan.maxWallClockTime;
        return in;
    }

    // The job's own rendezvous ports, picked on the head node before anything else and said
    // in its log: packed jobs on one node never share one.
    void choosePorts(LaunchScriptInput &in) const
    {
        if (plan.portCount == 0)
            return;
        in.portChoice = RendezvousPorts::choiceText(plan.portSearchStart, plan.portCount);
        const QString v = RendezvousPorts::variable();
        const QString ports = plan.portCount == 1 ? QStringLiteral("port $%1").arg(v)
                                                  : QStringLiteral("ports $%1-$((%1+%2))").arg(v).arg(plan.portCount - 1);
        in.beforeCommand += (in.beforeCommand.isEmpty() ? QString() : QStringLiteral("\n"))
            + QStringLiteral("log \"rendezvous %1 on this node: free at start (searched from %2; the job's own %3 in "
                             "environmentVariables fixes it)\"").arg(ports).arg(plan.portSearchStart).arg(v);
    }

    // Which Python runs the job's script, said in the head node's log: the default the head
    // node picks, the job's own pythonInterpreterPath, or the container image's python.
    void choosePython(const ToolkitLaunch &launch, bool defaultPython, LaunchScriptInput &in, QStringList &notes) const
    {
        if (defaultPython) {
            // Decided on the head node, said once in its log; every rank gets the same name.
            in.computed.append({defaultPythonVariable,
                                QStringLiteral("command -v python >/dev/null 2>&1 && echo python || echo python3")});
            in.beforeCommand = QStringLiteral(
                "py_found=\"$(command -v \"$%1\" || echo 'not on the PATH'), $(\"$%1\" --version 2>&1 | head -1)\"\n"
                "if [ \"$%1\" = python ]; then log \"Python interpreter: python ($py_found): the job names no "
                "pythonInterpreterPath and the head node has python\"; else log \"Python interpreter: python3 ($py_found): "
                "the job names no pythonInterpreterPath and there is no 'python' on this node: the job's Python script runs "
                "with python3\"; fi").arg(defaultPythonVariable);
        } else if (const auto named = namedPythonInterpreter(spec)) {
            notes << QStringLiteral("Python interpreter: %1 (the job's pythonInterpreterPath)").arg(*named);
        } else if (container && (launch.program.startsWith(QLatin1String("python "))
                                 || std::any_of(launch.tasks.cbegin(), launch.tasks.cend(), [](const LaunchTask &t) {
                                        return t.program.startsWith(QLatin1String("python "));
                                    }))) {
            notes << QStringLiteral("Python interpreter: python in the container image (the job names no "
                                    "pythonInterpreterPath; Batch AI ran python)");
        }
    }
};

} // namespace

QString LaunchPlan::secretsFilePath() const { return jobDir + QLatin1Char('/') + secretsFileName(); }

QString rankNodesText(const QStringList &rankNodes)
{
    QStringList runs;
    qsizetype first = 0;
    for (qsizetype r = 1; r <= rankNodes.size(); ++r) {
        if (r < rankNodes.size() && rankNodes.at(r) == rankNodes.at(first))
            continue;
        const QString ranks = r - 1 == first ? QString::number(first) : QStringLiteral("%1-%2").arg(first).arg(r - 1);
        runs << ranks + QLatin1Char(' ') + rankNodes.at(first);
        first = r;
    }
    return runs.join(QStringLiteral(", "));
}

QString expandBatchAiVariables(const QString &text, const QList<QPair<QString, QString>> &environment)
{
    static const QRegularExpression both(QStringLiteral("\\$\\{(AZ_BATCHAI_[A-Za-z0-9_]+)\\}|\\$(AZ_BATCHAI_[A-Za-z0-9_]+)"));
    QString out;
    qsizetype last = 0;
    auto it = both.globalMatch(text);
    while (it.hasNext()) {
        const auto m = it.next();
        const QString name = m.captured(1).isEmpty() ? m.captured(2) : m.captured(1);
        out += text.mid(last, m.capturedStart() - last);
        QString replacement = m.captured(0);
        for (const auto &[n, v] : environment) {
            if (n == name) {
                replacement = v;
                break;
            }
        }
        out += replacement;
        last = m.capturedEnd();
    }
    out += text.mid(last);
    return out;
}

QByteArray LaunchPlan::outputDirectoriesText() const
{
    QByteArray text;
    for (const auto &[id, path] : outputDirectories)
        text += path.toUtf8() + '\n';
    return text;
}

QString LaunchPlan::describe() const
{
    QString text;
    text += QStringLiteral("Toolkit: %1 (%2)\n").arg(toolkit, summary);
    QStringList nodeList;
    for (int i = 0; i < nodes.size(); ++i)
        nodeList << (i == 0 ? nodes.at(i) + QStringLiteral(" (head)") : nodes.at(i));
    text += QStringLiteral("Nodes: %1\n").arg(nodeList.join(QStringLiteral(", ")));
    if (!rankNodes.isEmpty())
        text += QStringLiteral("Ranks: %1\n").arg(rankNodesText(rankNodes));
    text += QStringLiteral("Job directory: %1\n").arg(jobDir);
    if (!mounts.isEmpty()) {
        text += QStringLiteral("Mounts:\n");
        for (const PlannedMount &m : mounts) {
            if (m.share.isEmpty())
                text += QStringLiteral("  %1: mounted on every node by: %2 %1\n").arg(m.mountPath, m.target);
            else
                text += QStringLiteral("  %1: share '%2' (%3)\n").arg(m.mountPath, m.share, m.target);
        }
    }
    for (const auto &[id, path] : inputDirectories)
        text += QStringLiteral("Input %1: %2\n").arg(id, path);
    for (const auto &[id, path] : outputDirectories)
        text += QStringLiteral("Output %1: %2\n").arg(id, path);
    if (!containerImage.isEmpty())
        text += QStringLiteral("Container: %1 (apptainer or docker on each node%2)\n")
                    .arg(containerImage, containerOptions.isEmpty() ? QString()
                                                                    : QStringLiteral("; docker run ") + shellJoin(containerOptions));
    text += QStringLiteral("Max wall clock time: %1%2\n")
                .arg(maxWallClockTime.toString(), maxWallClockTimeIsDefault ? QStringLiteral(" (default)") : QString());
    text += QStringLiteral("Hostfile:\n");
    for (const QString &line : hostfile.split(QLatin1Char('\n'), Qt::SkipEmptyParts))
        text += QStringLiteral("  %1\n").arg(line);
    text += QStringLiteral("Environment:\n");
    for (const auto &[name, value] : environment)
        text += QStringLiteral("  %1=%2\n").arg(name, value);
    for (const QString &name : secretNames)
        text += QStringLiteral("  %1=<secret>\n").arg(name);
    text += QStringLiteral("  AZ_BATCHAI_NUM_GPUS=<the head node's GPUs, counted at start>\n");
    if (portCount > 0)
        text += QStringLiteral("  TRAINDESK_PORT=<the first of %1 port%2 free on the head node at start, searched from %3>\n")
                    .arg(portCount).arg(portCount == 1 ? QString() : QStringLiteral("s")).arg(portSearchStart);
    if (!preparationCommand.isEmpty())
        text += QStringLiteral("Preparation (every node): %1\n").arg(preparationCommand);
    if (!tasks.isEmpty()) {
        text += QStringLiteral("Tasks:\n");
        for (const PlannedTask &t : tasks)
            text += QStringLiteral("  %1 %2 on %3 (%4): %5\n").arg(t.role).arg(t.index).arg(t.node, t.host, t.commandLine);
    }
    for (const QString &warning : warnings)
        text += QStringLiteral("Warning: %1\n").arg(warning);
    text += QStringLiteral("Command (head node): %1\n").arg(commandLine);
    return text;
}

QJsonObject LaunchPlan::toJson() const
{
    QJsonObject env;
    for (const auto &[name, value] : environment)
        env.insert(name, value);
    for (const QString &name : secretNames)
        env.insert(name, QStringLiteral("<secret>"));
    QJsonArray mountArray;
    for (const PlannedMount &m : mounts) {
        mountArray.append(QJsonObject{{QStringLiteral("path"), m.mountPath}, {QStringLiteral("volume"), m.jsonPath},
                                      {QStringLiteral("share"), m.share}, {QStringLiteral("target"), m.target}});
    }
    auto directories = [](const QList<QPair<QString, QString>> &list) {
        QJsonObject o;
        for (const auto &[id, path] : list)
            o.insert(id, path);
        return o;
    };
    QJsonArray taskArray;
    for (const PlannedTask &t : tasks) {
        taskArray.append(QJsonObject{{QStringLiteral("role"), t.role}, {QStringLiteral("index"), t.index},
                                     {QStringLiteral("node"), t.node}, {QStringLiteral("commandLine"), t.commandLine}});
    }
    return QJsonObject{{QStringLiteral("toolkit"), toolkit},
                       {QStringLiteral("launcher"), launcher},
                       {QStringLiteral("summary"), summary},
                       {QStringLiteral("processCount"), processCount},
                       {QStringLiteral("rendezvousPorts"), QJsonObject{{QStringLiteral("count"), portCount},
                                                                       {QStringLiteral("searchStart"), portSearchStart}}},
                       {QStringLiteral("nodes"), QJsonArray::fromStringList(nodes)},
                       {QStringLiteral("rankNodes"), QJsonArray::fromStringList(rankNodes)},
                       {QStringLiteral("jobDirectory"), jobDir},
                       {QStringLiteral("mounts"), mountArray},
                       {QStringLiteral("inputDirectories"), directories(inputDirectories)},
                       {QStringLiteral("outputDirectories"), directories(outputDirectories)},
                       {QStringLiteral("container"), containerImage},
                       {QStringLiteral("containerOptions"), QJsonArray::fromStringList(containerOptions)},
                       {QStringLiteral("maxWallClockTime"), maxWallClockTime.toString()},
                       {QStringLiteral("hostfile"), hostfile},
                       {QStringLiteral("environment"), env},
                       {QStringLiteral("preparation"), preparationCommand},
                       {QStringLiteral("tasks"), taskArray},
                       {QStringLiteral("warnings"), QJsonArray::fromStringList(warnings)},
                       {QStringLiteral("commandLine"), commandLine},
                       {QStringLiteral("launchScript"), launchScriptShown}};
}

Result<LaunchPlan> buildLaunchPlan(const JobSpec &spec, const LaunchContext &context)
{
    Builder builder{spec, context, {}, {}, {}, {}, {}};
    return builder.build();
}

} // namespace TrainDesk
