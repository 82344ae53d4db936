#include "Transport.h"

#include "common/ShellQuote.h"

namespace TrainDesk {

Result<qint64> Transport::startDetached(const QString &shellCommand)
{
    // The background child of a non-interactive shell is not a process group leader, so
    // setsid makes it one without forking: the pid printed is the session's leader and
    // the group id that terminate signals.
    const QString wrapper = QStringLiteral("setsid /bin/sh -c -- %1 </dev/null >/dev/null 2>&1 & echo $!")
                                .arg(shellQuote(shellCommand));
    const auto result = exec(wrapper, 30000);
    if (!result)
        return result.failure();
    bool ok = false;
    const qint64 pid = result->stdOut.trimmed().toLongLong(&ok);
    if (result->exitCode != 0 || !ok || pid <= 0) {
        return fail(QStringLiteral("%1: cannot start a detached process: %2")
                        .arg(nodeName(), QString::fromLocal8Bit(result->stdErr).trimmed()));
    }
    return pid;
}

} // namespace TrainDesk
