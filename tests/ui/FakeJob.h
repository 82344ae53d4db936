#pragma once

#include "common/DataPaths.h"
#include "defaults/EmbeddedDefaults.h"
#include "store/Store.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QProcess>

// A job that looks running to the core without running anything: its job directory is a
// folder of the test's and its launch pid a small waiter that lives until `exit_code`
// appears in the folder (a job ends when its launch process has, as under the reaper).
// Writing `exit_code` into the folder ends it. Lets the views be tested on files the test
// writes itself.
inline qint64 createFakeRunningJob(TrainDesk::Store &store, const QString &name, const QString &jobDir)
{
    using namespace TrainDesk;
    const auto ws = store.workspace(QLatin1String(EmbeddedDefaults::workspaceName));
    const auto exp = store.experiment(ws->id, QLatin1String(EmbeddedDefaults::experimentName));
    const auto cluster = store.cluster(ws->id, QLatin1String(EmbeddedDefaults::clusterName));
    Job job;
    job.experimentId = exp->id;
    job.clusterId = cluster->id;
    job.name = name;
    job.spec = EmbeddedDefaults::demoJobSpec();
    // A draft until it looks running: a queued job could be started for real by a Backend's
    // worker polling meanwhile.
    job.state = JobState::Draft;
    job.uuid = QStringLiteral("00000000-0000-0000-0000-000000000001");
    auto created = store.createJob(job);
    if (!created)
        return 0;
    job = *created;
    QDir().mkpath(jobDir + QStringLiteral("/stdouterr"));
    job.state = JobState::Running;
    job.started = QDateTime::currentDateTimeUtc();
    job.jobDir = jobDir;
    job.nodes = {QStringLiteral("localhost")};
    // Gone within 0.1 s of `exit_code`, or of the test's end. It holds none of the test's
    // output (ctest waits for every holder of the test's stdout and stderr to close them).
    qint64 waiter = 0;
    QProcess process;
    process.setProgram(QStringLiteral("/bin/sh"));
    process.setArguments({QStringLiteral("-c"),
                          QStringLiteral("exec </dev/null >/dev/null 2>&1; "
                                         "while [ ! -e \"$1/exit_code\" ] && kill -0 \"$2\"; do sleep 0.1; done"),
                          QStringLiteral("fake-job"), jobDir, QString::number(QCoreApplication::applicationPid())});
    process.setStandardInputFile(QProcess::nullDevice());
    process.setStandardOutputFile(QProcess::nullDevice());
    process.setStandardErrorFile(QProcess::nullDevice());
    if (!process.startDetached(&waiter))
        return 0;
    job.pid = waiter;
    if (!store.updateJob(job))
        return 0;
    // As the runner does when it starts a job: its node runs it.
    for (const Node &n : store.nodes(cluster->id)) {
        if (n.name == job.nodes.first() && !store.setNodeState(n.id, NodeState::Running))
            return 0;
    }
    return job.id;
}

inline bool appendToFile(const QString &path, const QByteArray &data)
{
    QFile file(path);
    return file.open(QIODevice::Append) && file.write(data) == data.size();
}
