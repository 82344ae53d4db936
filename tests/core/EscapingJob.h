#pragma once

// A job command that leaves behind the processes that used to outlive jobs: a TERM-ignoring
// one that cleared its environment and left the session (env -i setsid), one that dropped
// the job's marker and left the session, a double-forked TERM-ignoring one, and a plain
// one in the foreground. Each is a `sleep` of a number of its own, found by that.
#include <QProcess>
#include <QRandomGenerator>
#include <QStringList>

namespace TrainDesk::Testing {

class EscapingJob
{
public:
    EscapingJob()
    {
        const int base = 100000 + int(QRandomGenerator::global()->bounded(800000));
        for (int i = 0; i < 4; ++i)
            m_sleeps << QStringLiteral("sleep %1").arg(base + i);
    }
    // Shell text for the job's command line.
    QString command() const
    {
        return QStringLiteral("env -i setsid sh -c 'trap \"\" TERM; exec %1' >/dev/null 2>&1 &\n"
                              "(unset TRAINDESK_JOB; setsid %2 >/dev/null 2>&1 &)\n"
                              "sh -c 'sh -c \"trap \\\"\\\" TERM; exec %3\" >/dev/null 2>&1 & exit 0'\n"
                              "%4\n")
            .arg(m_sleeps[0], m_sleeps[1], m_sleeps[2], m_sleeps[3]);
    }
    // The foreground one (killing it ends the job's command).
    QString foreground() const { return m_sleeps[3]; }
    // Those of them running on this machine (not zombies), one "pid stat args" a line.
    QString running() const
    {
        QProcess ps;
        ps.start(QStringLiteral("ps"), {"-eo", "pid=,stat=,args="});
        ps.waitForFinished(10000);
        QStringList found;
        for (const QString &line : QString::fromUtf8(ps.readAllStandardOutput()).split(QLatin1Char('\n'))) {
            const QStringList f = line.simplified().split(QLatin1Char(' '));
            if (f.size() >= 3 && !f[1].startsWith(QLatin1Char('Z')) && m_sleeps.contains(f.mid(2).join(QLatin1Char(' '))))
                found << line.simplified();
        }
        return found.join(QLatin1Char('\n'));
    }
    bool allStarted() const
    {
        const QString now = running();
        for (const QString &s : m_sleeps) {
            if (!now.contains(s))
                return false;
        }
        return true;
    }

private:
    QStringList m_sleeps;
};

} // namespace TrainDesk::Testing
