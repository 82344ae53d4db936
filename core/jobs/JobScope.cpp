#include "JobScope.h"

#include "JobReaper.h"

#include "launch/LaunchPlan.h"
#include "common/ShellQuote.h"

namespace TrainDesk::JobScope {

QString unitName(const QString &jobUuid)
{
    return QStringLiteral("traindesk-job-%1.scope").arg(jobUuid);
}

QString trackingFileName()
{
    return QStringLiteral("tracking");
}

QString launchCommand(const QString &jobUuid, const QString &jobDir, const QString &scriptPath, int graceSeconds)
{
    const QString tracking = shellQuote(jobDir + QLatin1Char('/') + trackingFileName());
    const QString unit = unitName(jobUuid);
    // The probe is a scope of its own: systemd-run exists on many nodes whose user has no
    // systemd instance (containers, no login session), and then it fails at once.
    // The reaper's pid variable is the reaper's to set: never one inherited from elsewhere.
    return QStringLiteral("%1=%2; export %1; unset %3\n").arg(jobMarkerVariable(), shellQuote(jobUuid), JobReaper::pidVariable())
           + JobReaper::launchText(jobUuid, jobDir, scriptPath, graceSeconds)
           + QStringLiteral("if command -v systemd-run >/dev/null 2>&1 && systemd-run --user --scope --quiet true >/dev/null 2>&1; then\n"
                          "  echo %1 > %2\n"
                          "  exec systemd-run --user --scope --quiet --collect --unit=%3 /bin/sh %4\n"
                          "fi\n"
                          "echo marker > %2\n"
                          "exec /bin/sh %4\n")
        .arg(shellQuote(QStringLiteral("scope ") + unit), tracking, shellQuote(unit), shellQuote(scriptPath));
}

QString signalCommand(const QString &jobUuid, const QString &signal)
{
    return QStringLiteral("systemctl --user kill --signal=%1 %2 >/dev/null 2>&1")
        .arg(shellQuote(signal), shellQuote(unitName(jobUuid)));
}

QString activeCommand(const QString &jobUuid)
{
    return QStringLiteral("systemctl --user is-active --quiet %1 2>/dev/null").arg(shellQuote(unitName(jobUuid)));
}

} // namespace TrainDesk::JobScope
