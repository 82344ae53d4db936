#include "ContainerCommands.h"

#include "common/PathConfinement.h"
#include "common/ShellQuote.h"

#include <algorithm>

namespace TrainDesk {

const QString ContainerCommands::registryPasswordVariable = QStringLiteral("TRAINDESK_REGISTRY_PASSWORD");

namespace {

QString registryHost(const QString &serverUrl)
{
    QString host = serverUrl.trimmed();
    const qsizetype scheme = host.indexOf(QLatin1String("://"));
    if (scheme >= 0)
        host = host.mid(scheme + 3);
    while (host.endsWith(QLatin1Char('/')))
        host.chop(1);
    return host;
}

// The same order everywhere, so every step of a job on a node picks the same runtime.
const QString apptainerFirst = QStringLiteral(
    "if command -v apptainer >/dev/null 2>&1; then td_rt=apptainer; "
    "elif command -v singularity >/dev/null 2>&1; then td_rt=singularity; else td_rt=docker; fi; ");

// Folders of the image that a mount at the same path would hide (its programs, libraries,
// configuration) or that the engine owns: a job's folder there is not mounted.
bool isImageSystemFolder(const QString &path)
{
    static const QStringList owned{QStringLiteral("/bin"), QStringLiteral("/dev"), QStringLiteral("/etc"),
                                   QStringLiteral("/lib"), QStringLiteral("/lib32"), QStringLiteral("/lib64"),
                                   QStringLiteral("/libx32"), QStringLiteral("/proc"), QStringLiteral("/sbin"),
                                   QStringLiteral("/sys"), QStringLiteral("/usr")};
    static const QStringList tops{QStringLiteral("/"), QStringLiteral("/home"), QStringLiteral("/opt"),
                                  QStringLiteral("/root"), QStringLiteral("/run"), QStringLiteral("/srv"),
                                  QStringLiteral("/var")};
    QString p = path;
    while (p.size() > 1 && p.endsWith(QLatin1Char('/')))
        p.chop(1);
    if (tops.contains(p))
        return true;
    return std::any_of(owned.cbegin(), owned.cend(), [&](const QString &root) { return PathConfinement::isUnder(p, root); });
}

// Adds each path not visible already (under the node's /tmp, one of `seen`, or another of
// `into`) and not an image system folder.
void addFolders(QStringList &into, const QStringList &paths, const QStringList &seen)
{
    for (const QString &path : paths) {
        if (path.isEmpty() || !path.startsWith(QLatin1Char('/')) || isImageSystemFolder(path) || PathConfinement::isUnder(path, QStringLiteral("/tmp")))
            continue;
        auto covers = [&](const QString &root) { return PathConfinement::isUnder(path, root); };
        if (std::any_of(seen.cbegin(), seen.cend(), covers) || std::any_of(into.cbegin(), into.cend(), covers))
            continue;
        into << path;
    }
}

} // namespace

void ContainerCommands::addJobFolders(const QStringList &paths)
{
    addFolders(jobFolders, paths, bindPaths + inputFolders);
}

void ContainerCommands::addInputFolders(const QStringList &paths)
{
    addFolders(inputFolders, paths, bindPaths + jobFolders);
}

ContainerCommands ContainerCommands::from(const ContainerSettings &settings, const QString &jobUuid,
                                          const QStringList &bindPaths, const QString &trainerDirectory)
{
    ContainerCommands c;
    const ImageSourceRegistry &registry = settings.imageSourceRegistry;
    c.image = registry.image;
    if (registry.serverUrl && !registry.serverUrl->trimmed().isEmpty()) {
        c.registryServer = registryHost(*registry.serverUrl);
        if (!c.image.startsWith(c.registryServer + QLatin1Char('/')))
            c.image = c.registryServer + QLatin1Char('/') + c.image;
    }
    if (registry.credentials)
        c.registryUser = registry.credentials->username;
    c.name = QStringLiteral("td-") + jobUuid;
    c.shmSize = settings.shmSize.value_or(QString());
    c.bindPaths = bindPaths;
    c.trainerDirectory = trainerDirectory;
    c.jobUuid = jobUuid;
    return c;
}

QStringList ContainerCommands::resourceOptions() const
{
    QStringList options;
    if (gpuDevices && !gpuDevices->isEmpty()) {
        QStringList ids;
        for (int i : *gpuDevices)
            ids << QString::number(i);
        // docker reads --gpus as CSV: the list's commas are kept inside double quotes.
        options << QStringLiteral("--gpus") << QStringLiteral("\"device=%1\"").arg(ids.join(QLatin1Char(',')));
    }
    if (!cpuCores.isEmpty()) {
        QStringList ids;
        for (int i : cpuCores)
            ids << QString::number(i);
        options << QStringLiteral("--cpuset-cpus") << ids.join(QLatin1Char(','));
    }
    return options;
}

QString ContainerCommands::startText(const QString &nodeName, const QString &host) const
{
    const QString node = QStringLiteral("node %1 (%2)").arg(nodeName, host);
    auto failWith = [&](const QString &message) {
        return QStringLiteral("{ echo %1 >&2; exit 1; }").arg(shellQuote(node + QStringLiteral(": ") + message));
    };
    // A failure with the engine's own words after it (in $td_err).
    auto failWithEngine = [&](const QString &message) {
        return QStringLiteral("{ printf '%s: %s\\n' %1 \"$td_err\" >&2; exit 1; }").arg(shellQuote(node + QStringLiteral(": ") + message));
    };
    // How to run the job anyway, after either message.
    const QString without = QStringLiteral(" (or submit the job with --no-container to run it on the nodes as they are)");
    QString t;
    t += QStringLiteral("if command -v apptainer >/dev/null 2>&1; then td_rt=apptainer; "
                        "elif command -v singularity >/dev/null 2>&1; then td_rt=singularity; "
                        "elif command -v docker >/dev/null 2>&1 && docker info >/dev/null 2>&1; then td_rt=docker; "
                        "elif command -v docker >/dev/null 2>&1; then %1; else %2; fi\n")
             .arg(failWith(QStringLiteral("containerSettings needs docker or apptainer: docker is installed but its "
                                          "daemon does not answer (docker info failed), and apptainer is not installed") + without),
                  failWith(QStringLiteral("containerSettings needs docker or apptainer, and neither is installed") + without));
    const QString password = QStringLiteral("\"$%1\"").arg(registryPasswordVariable);
    QStringList dockerMounts{QStringLiteral("-v"), QStringLiteral("/tmp:/tmp")};
    for (const QString &p : bindPaths + jobFolders)
        dockerMounts << QStringLiteral("-v") << p + QLatin1Char(':') + p;
    // --mount, not -v: a source that is not there fails (-v would make an empty folder of root's).
    for (const QString &p : inputFolders)
        dockerMounts << QStringLiteral("--mount") << QStringLiteral("type=bind,\"source=%1\",\"target=%1\"").arg(p);
    if (!trainerDirectory.isEmpty())
        dockerMounts << QStringLiteral("-v") << trainerDirectory + QLatin1Char(':') + trainerDirectory + QStringLiteral(":ro");
    // The container lives as long as the job: the image's entry point runs a command that says
    // it runs, then waits for nothing. Host network, IPC and PIDs, as Batch AI ran them: the
    // ranks reach each other and mpirun's daemons as on the node.
    QStringList run{QStringLiteral("docker"), QStringLiteral("run"), QStringLiteral("-d"), QStringLiteral("--name"), name,
                    QStringLiteral("--label"), QStringLiteral("traindesk.job=") + jobUuid,
                    QStringLiteral("--network"), QStringLiteral("host"), QStringLiteral("--ipc"), QStringLiteral("host"),
                    QStringLiteral("--pid"), QStringLiteral("host")};
    if (!shmSize.isEmpty())
        run << QStringLiteral("--shm-size") << shmSize;
    run += resourceOptions();
    const QString keepAlive = QStringLiteral("echo traindesk-container-up; exec tail -f /dev/null");
    if (!jobFolders.isEmpty()) {
        t += QStringLiteral("mkdir -p %1 || %2\n")
                 .arg(shellJoin(jobFolders), failWith(QStringLiteral("cannot make the job's folders %1 to mount them in the container")
                                                          .arg(jobFolders.join(QStringLiteral(", ")))));
    }
    t += QStringLiteral("if [ \"$td_rt\" = docker ]; then\n");
    if (!registryUser.isEmpty()) {
        // The password reaches docker through a pipe from the shell's own printf: never an argument.
        t += QStringLiteral("  td_err=$(printf '%s' %1 | docker login --username %2 --password-stdin %3 2>&1 >/dev/null) || %4\n")
                 .arg(password, shellQuote(registryUser), shellQuote(registryServer),
                      failWithEngine(QStringLiteral("docker login to %1 as %2 failed").arg(registryServer, registryUser)));
    }
    // Every GPU where the node has them, unless the job holds some of them only.
    const QString allGpus = gpuDevices ? QString() : QStringLiteral("$(command -v nvidia-smi >/dev/null 2>&1 && echo --gpus all) ");
    // Started here, or already by another node of the job on the same engine (then it is there,
    // and the wait below sees it run or end).
    // (The engine holds the name before the other's container can be inspected: wait for it.)
    t += QStringLiteral("  if ! td_err=$(%1 %2%3 %4 /bin/sh -c %5 2>&1 >/dev/null); then\n"
                        "    case \"$td_err\" in *Conflict*) ;; *) %7 ;; esac\n"
                        "    td_i=0\n"
                        "    until docker inspect %6 >/dev/null 2>&1; do\n"
                        "      td_i=$((td_i + 1)); [ \"$td_i\" -le 300 ] || %7; sleep 0.2\n"
                        "    done\n"
                        "  fi\n")
             .arg(shellJoin(run), allGpus, shellJoin(dockerMounts), shellQuote(image), shellQuote(keepAlive), shellQuote(name),
                  failWithEngine(QStringLiteral("docker could not start a container of %1").arg(image)));
    // Up when the keep-alive said so; an entry point that ends (or never runs the command) fails
    // the node's setup with its output and exit code, and leaves nothing behind.
    t += QStringLiteral("  td_i=0\n"
                        "  until docker logs %1 2>/dev/null | grep -qx traindesk-container-up; do\n"
                        "    td_state=$(docker inspect -f '{{.State.Status}} (exit code {{.State.ExitCode}})' %1 2>&1)\n"
                        "    case \"$td_state\" in\n"
                        "      running*|created*|restarting*) ;;\n"
                        "      *) td_err=\"the container is ${td_state}: its output: $(docker logs %1 2>&1 | tail -n 20)\"; "
                        "docker rm -f %1 >/dev/null 2>&1; %2 ;;\n"
                        "    esac\n"
                        "    td_i=$((td_i + 1))\n"
                        "    if [ \"$td_i\" -gt 1200 ]; then td_err=\"its entry point did not run the command in 4 minutes: $(docker logs %1 2>&1 | tail -n 20)\"; "
                        "docker rm -f %1 >/dev/null 2>&1; %2; fi\n"
                        "    sleep 0.2\n"
                        "  done\n")
             .arg(shellQuote(name), failWithEngine(QStringLiteral("the container of %1 stopped at its start").arg(image)));
    t += QStringLiteral("else\n");
    QString login;
    if (!registryUser.isEmpty()) {
        login = QStringLiteral("APPTAINER_DOCKER_USERNAME=%1 APPTAINER_DOCKER_PASSWORD=%2 "
                               "SINGULARITY_DOCKER_USERNAME=%1 SINGULARITY_DOCKER_PASSWORD=%2 ")
                    .arg(shellQuote(registryUser), password);
    }
    QStringList binds = bindPaths + jobFolders + inputFolders;
    if (!trainerDirectory.isEmpty())
        binds << trainerDirectory + QStringLiteral(":") + trainerDirectory + QStringLiteral(":ro");
    t += QStringLiteral("  td_err=$(%1\"$td_rt\" instance start $(command -v nvidia-smi >/dev/null 2>&1 && echo --nv) --bind %2 %3 %4 "
                        "2>&1 >/dev/null) || \"$td_rt\" instance list 2>/dev/null | grep -q %5 || %6\n")
             .arg(login, shellQuote(binds.join(QLatin1Char(','))), shellQuote(QStringLiteral("docker://") + image),
                  shellQuote(name), shellQuote(QStringLiteral("^") + name + QStringLiteral(" ")),
                  failWithEngine(QStringLiteral("apptainer could not start an instance of %1").arg(image)));
    t += QStringLiteral("fi");
    return t;
}

QString ContainerCommands::execText(const QString &command, const QStringList &environment, Step step) const
{
    QStringList passed;
    // A container given some GPUs only (--gpus device=...) numbers them from 0: CUDA inside sees
    // those, so the node's numbers in CUDA_VISIBLE_DEVICES would name GPUs it does not have.
    const bool renumbered = gpuDevices && !gpuDevices->isEmpty();
    for (const QString &name : environment) {
        // The image has its own PATH; the node's would hide the image's programs.
        if (name == QLatin1String("PATH") || (renumbered && name == QLatin1String("CUDA_VISIBLE_DEVICES")))
            continue;
        passed << QStringLiteral("-e") << name;
    }
    QStringList dockerOnly;
    if (renumbered) {
        QStringList inside;
        for (qsizetype i = 0; i < gpuDevices->size(); ++i)
            inside << QString::number(i);
        dockerOnly << QStringLiteral("-e") << QStringLiteral("CUDA_VISIBLE_DEVICES=") + inside.join(QLatin1Char(','));
    }
    // The image's PATH first: its python, its mpirun; then the bundled trainer's folder.
    const QString inside = trainerDirectory.isEmpty()
        ? command
        : QStringLiteral("PATH=\"$PATH\":%1; export PATH; %2").arg(shellQuote(trainerDirectory), command);
    // apptainer runs everything as the node's user already.
    const QString asUser = step == Step::Job
        ? QStringLiteral("if [ \"$(id -u)\" = 0 ]; then td_u=; else td_u=\"$(id -u):$(id -g)\"; fi; ")
        : QStringLiteral("td_u=; ");
    return apptainerFirst + asUser
        + QStringLiteral("if [ \"$td_rt\" = docker ]; then docker exec -w \"$PWD\" "
                         "${td_u:+-u \"$td_u\" -e HOME=\"$AZ_BATCHAI_JOB_TEMP\"} %1 "
                         "$(env | awk -F= '/^(OMPI|PMIX)_/ { printf \"-e %s \", $1 }') %2 /bin/sh -c %3; "
                         "else \"$td_rt\" exec %4 /bin/sh -c %3; fi")
              .arg(shellJoin(passed + dockerOnly), shellQuote(name), shellQuote(inside),
                   shellQuote(QStringLiteral("instance://") + name));
}

QString ContainerCommands::stopText() const
{
    return apptainerFirst
        + QStringLiteral("if [ \"$td_rt\" = docker ]; then docker rm -f %1 >/dev/null 2>&1; "
                         "else \"$td_rt\" instance stop %1 >/dev/null 2>&1; fi; true")
              .arg(shellQuote(name));
}

} // namespace TrainDesk
