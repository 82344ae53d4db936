#include "ContainerCommands.h"

#include "common/ShellQuote.h"

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

} // namespace

ContainerCommands ContainerCommands::from(const ContainerSettings &settings, const QString &jobUuid,
                                          const QStringList &bindPaths)
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
    return c;
}

QString ContainerCommands::startText(const QString &nodeName, const QString &host) const
{
    const QString node = QStringLiteral("node %1 (%2)").arg(nodeName, host);
    auto failWith = [&](const QString &message) {
        return QStringLiteral("{ echo %1 >&2; exit 1; }").arg(shellQuote(node + QStringLiteral(": ") + message));
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
    for (const QString &p : bindPaths)
        dockerMounts << QStringLiteral("-v") << p + QLatin1Char(':') + p;
    // The container lives as long as the job: a process that waits for nothing.
    QStringList run{QStringLiteral("docker"), QStringLiteral("run"), QStringLiteral("-d"), QStringLiteral("--name"), name,
                    QStringLiteral("--network"), QStringLiteral("host"), QStringLiteral("--ipc"), QStringLiteral("host"),
                    QStringLiteral("--pid"), QStringLiteral("host")};
    if (!shmSize.isEmpty())
        run << QStringLiteral("--shm-size") << shmSize;
    t += QStringLiteral("if [ \"$td_rt\" = docker ]; then\n");
    if (!registryUser.isEmpty()) {
        t += QStringLiteral("  printf '%s' %1 | docker login --username %2 --password-stdin %3 >/dev/null || %4\n")
                 .arg(password, shellQuote(registryUser), shellQuote(registryServer),
                      failWith(QStringLiteral("docker login to %1 failed").arg(registryServer)));
    }
    t += QStringLiteral("  docker rm -f %1 >/dev/null 2>&1\n").arg(shellQuote(name));
    // /tmp is shared because Open MPI's ranks reach their node's daemon through files there.
    t += QStringLiteral("  %1 $(command -v nvidia-smi >/dev/null 2>&1 && echo --gpus all) %2 %3 tail -f /dev/null >/dev/null || %4\n")
             .arg(shellJoin(run), shellJoin(dockerMounts), shellQuote(image),
                  failWith(QStringLiteral("docker could not start a container of %1").arg(image)));
    t += QStringLiteral("else\n");
    QString login;
    if (!registryUser.isEmpty()) {
        login = QStringLiteral("APPTAINER_DOCKER_USERNAME=%1 APPTAINER_DOCKER_PASSWORD=%2 "
                               "SINGULARITY_DOCKER_USERNAME=%1 SINGULARITY_DOCKER_PASSWORD=%2 ")
                    .arg(shellQuote(registryUser), password);
    }
    t += QStringLiteral("  %1\"$td_rt\" instance start $(command -v nvidia-smi >/dev/null 2>&1 && echo --nv) --bind %2 %3 %4 "
                        ">/dev/null || %5\n")
             .arg(login, shellQuote(bindPaths.join(QLatin1Char(','))), shellQuote(QStringLiteral("docker://") + image),
                  shellQuote(name),
                  failWith(QStringLiteral("apptainer could not start an instance of %1").arg(image)));
    t += QStringLiteral("fi");
    return t;
}

QString ContainerCommands::execText(const QString &command, const QStringList &environment) const
{
    QStringList passed;
    for (const QString &name : environment) {
        // The image has its own PATH; the node's would hide the image's programs.
        if (name != QLatin1String("PATH"))
            passed << QStringLiteral("-e") << name;
    }
    return apptainerFirst
        + QStringLiteral("if [ \"$td_rt\" = docker ]; then docker exec -w \"$PWD\" %1 "
                         "$(env | awk -F= '/^(OMPI|PMIX)_/ { printf \"-e %s \", $1 }') %2 /bin/sh -c %3; "
                         "else \"$td_rt\" exec %4 /bin/sh -c %3; fi")
              .arg(shellJoin(passed), shellQuote(name), shellQuote(command),
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
