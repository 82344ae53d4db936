// Where a job's launch runs: in a cgroup scope of the node's user systemd when
// `systemd-run --user --scope` works there, else directly with the environment marker only;
// the choice made on the node, silently, and the stray-process clean-up ending the job's
// processes either way.
#include "jobs/JobScope.h"
#include "jobs/StrayProcessCleanup.h"
#include "launch/LaunchPlan.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>
#include <QUuid>

using namespace TrainDesk;

class TestJobScope : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    // Fresh per run: the same test in another build tree on this machine must not see these.
    const QString m_uuid = QUuid::createUuid().toString(QUuid::WithoutBraces);

    static bool scopesOffered()
    {
        QProcess probe;
        probe.start(QStringLiteral("systemd-run"), {"--user", "--scope", "--quiet", "true"});
        return probe.waitForFinished(10000) && probe.exitStatus() == QProcess::NormalExit && probe.exitCode() == 0;
    }

    // Runs the launch command as the head node's detached shell would, with `path` as PATH;
    // the launch script records its pid, its marker and its cgroup.
    struct Launch
    {
        qint64 shellPid = 0;
        QByteArray stdErr;
        QByteArray tracking, seenPid, seenMarker, cgroup;
    };
    Launch launch(const QString &path, const QString &scriptBody = {})
    {
        const QString jobDir = m_dir.filePath(QStringLiteral("job-%1").arg(++m_launches));
        QDir().mkpath(jobDir);
        const QString script = jobDir + QStringLiteral("/launch.sh");
        QFile f(script);
        f.open(QIODevice::WriteOnly);
        // Builtins only: PATH may name nothing.
        f.write(QStringLiteral("cd %1\necho $$ > seen_pid\necho \"$%2\" > seen_marker\nwhile read -r l; do echo \"$l\"; done "
                               "< /proc/self/cgroup > cgroup\n%3\n")
                    .arg(jobDir, jobMarkerVariable(), scriptBody)
                    .toUtf8());
        f.close();
        QProcess shell;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("PATH"), path);
        env.remove(jobMarkerVariable());
        shell.setProcessEnvironment(env);
        shell.start(QStringLiteral("/bin/sh"), {"-c", JobScope::launchCommand(m_uuid, jobDir, script)});
        Launch l;
        shell.waitForStarted();
        l.shellPid = shell.processId();
        shell.waitForFinished(30000);
        l.stdErr = shell.readAllStandardError();
        const auto read = [&](const QString &name) {
            QFile in(jobDir + QLatin1Char('/') + name);
            in.open(QIODevice::ReadOnly);
            return in.readAll().trimmed();
        };
        l.tracking = read(JobScope::trackingFileName());
        l.seenPid = read(QStringLiteral("seen_pid"));
        l.seenMarker = read(QStringLiteral("seen_marker"));
        l.cgroup = read(QStringLiteral("cgroup"));
        return l;
    }
    int m_launches = 0;

    // A PATH with systemd-run and no perl: the launch's choice after the reaper.
    QString systemdOnlyPath()
    {
        const QString bin = m_dir.filePath(QStringLiteral("systemd-bin"));
        QDir().mkpath(bin);
        QFile::link(QStandardPaths::findExecutable(QStringLiteral("systemd-run")), bin + QStringLiteral("/systemd-run"));
        return bin;
    }

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void withoutSystemdRunTheMarkerAlone()
    {
        // A node without systemd-run at all: the script runs directly, marked, same pid.
        const Launch l = launch(m_dir.filePath(QStringLiteral("empty-bin")));
        QCOMPARE(l.tracking, QByteArray("marker"));
        QCOMPARE(l.seenMarker, m_uuid.toUtf8());
        QCOMPARE(l.seenPid, QByteArray::number(l.shellPid));
        QVERIFY2(l.stdErr.isEmpty(), l.stdErr.constData());
    }

    void withPerlTheReaperRunsTheScriptMarked()
    {
        if (QStandardPaths::findExecutable(QStringLiteral("perl")).isEmpty())
            QSKIP("this machine has no perl");
        // The reaper (JobReaper) is the launch's process; the script its child, marked.
        const Launch l = launch(QString::fromLocal8Bit(qgetenv("PATH")));
        QVERIFY2(l.tracking.startsWith("reaper"), l.tracking.constData());
        QCOMPARE(l.seenMarker, m_uuid.toUtf8());
        QVERIFY(l.seenPid != QByteArray::number(l.shellPid));
        QVERIFY2(l.stdErr.isEmpty(), l.stdErr.constData());
        // Where cgroup v2 is writable the script runs in the job's own cgroup.
        if (l.tracking.contains("cgroup"))
            QVERIFY2(l.cgroup.contains(("traindesk-job-" + m_uuid).toUtf8()), l.cgroup.constData());
        else
            qInfo("cgroup v2 is not writable here: the subreaper alone");
    }

    void systemdRunThatCannotMakeAScopeFallsBackSilently()
    {
        if (QStandardPaths::findExecutable(QStringLiteral("systemd-run")).isEmpty())
            QSKIP("this machine has no systemd-run");
        if (scopesOffered())
            QSKIP("this machine's user systemd makes scopes: see launchesInTheJobsScope");
        // systemd-run is there (perl is not: no reaper) but has no user manager to ask (a
        // container, no login session): the launch goes on without a scope, saying nothing.
        const Launch l = launch(systemdOnlyPath());
        QCOMPARE(l.tracking, QByteArray("marker"));
        QCOMPARE(l.seenMarker, m_uuid.toUtf8());
        QCOMPARE(l.seenPid, QByteArray::number(l.shellPid));
        QVERIFY2(l.stdErr.isEmpty(), l.stdErr.constData());
        QVERIFY2(!l.cgroup.contains(JobScope::unitName(m_uuid).toUtf8()), l.cgroup.constData());
    }

    void launchesInTheJobsScope()
    {
        if (!scopesOffered())
            QSKIP("`systemd-run --user --scope` does not work on this machine (no user systemd)");
        const Launch l = launch(systemdOnlyPath());
        QCOMPARE(l.tracking, ("scope " + JobScope::unitName(m_uuid)).toUtf8());
        QCOMPARE(l.seenMarker, m_uuid.toUtf8());
        QCOMPARE(l.seenPid, QByteArray::number(l.shellPid));  // systemd-run --scope execs: the pid stays
        QVERIFY2(l.cgroup.contains(JobScope::unitName(m_uuid).toUtf8()), l.cgroup.constData());
    }

    void cleanupEndsWhatDroppedTheMarkerInTheScope()
    {
        if (!scopesOffered())
            QSKIP("`systemd-run --user --scope` does not work on this machine (no user systemd)");
        // A child that cleared its environment is found by the scope alone.
        launch(systemdOnlyPath(), QStringLiteral("setsid env -i /bin/sleep 300 >/dev/null 2>&1 &"));
        QProcess active;
        active.start(QStringLiteral("/bin/sh"), {"-c", JobScope::activeCommand(m_uuid)});
        active.waitForFinished(10000);
        QCOMPARE(active.exitCode(), 0);
        QProcess cleanup;
        cleanup.start(QStringLiteral("/bin/sh"), {"-c", StrayProcessCleanup::cleanupCommand(m_uuid, 2)});
        QVERIFY(cleanup.waitForFinished(20000));
        active.start(QStringLiteral("/bin/sh"), {"-c", JobScope::activeCommand(m_uuid)});
        active.waitForFinished(10000);
        QVERIFY(active.exitCode() != 0);
    }

    void cleanupEndsMarkedProcessesWithoutAScope()
    {
        // The fallback's clean-up: TERM-ignoring and detached children, found by the marker.
        const QString uuid = QUuid::createUuid().toString(QUuid::WithoutBraces);
        QProcess job;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(jobMarkerVariable(), uuid);
        job.setProcessEnvironment(env);
        job.start(QStringLiteral("/bin/sh"),
                  {"-c", "setsid sleep 301 >/dev/null 2>&1 & sh -c 'trap \"\" TERM; sleep 302' >/dev/null 2>&1 & exit 0"});
        QVERIFY(job.waitForFinished(10000));
        const auto marked = [&] {
            QProcess p;
            p.start(QStringLiteral("/bin/sh"), {"-c", StrayProcessCleanup::listMarkedCommand(uuid)});
            p.waitForFinished(10000);
            return p.readAllStandardOutput().trimmed();
        };
        for (int i = 0; i < 50 && marked().split('\n').size() < 2; ++i)
            QThread::msleep(100);
        QVERIFY2(marked().split('\n').size() >= 2, marked().constData());
        QProcess cleanup;
        cleanup.start(QStringLiteral("/bin/sh"), {"-c", StrayProcessCleanup::cleanupCommand(uuid, 1)});
        QVERIFY(cleanup.waitForFinished(20000));
        QCOMPARE(cleanup.exitCode(), 0);
        QVERIFY2(marked().isEmpty(), marked().constData());
    }
};

QTEST_GUILESS_MAIN(TestJobScope)
#include "tst_jobscope.moc"
