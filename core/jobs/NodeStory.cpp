#include "NodeStory.h"

#include <QList>
#include <QRegularExpression>

namespace TrainDesk {

QString nodeStateInJob(const QByteArray &executionLog)
{
    // The last line that moves the node on decides; the others are the steps' output.
    static const QRegularExpression exitCode(QStringLiteral("exit code (-?\\d+)"));
    const QList<QByteArray> lines = executionLog.split('\n');
    for (auto it = lines.crbegin(); it != lines.crend(); ++it) {
        const QString line = QString::fromUtf8(*it);
        const QString code = exitCode.match(line).captured(1);
        if (line.contains(QLatin1String("finished with exit code")))
            return code == QLatin1String("0") ? QStringLiteral("finished") : QStringLiteral("failed (exit code %1)").arg(code);
        if (line.contains(QLatin1String("job started")))
            return QStringLiteral("running");
        for (const char *step : {"job preparation", "node setup"}) {
            const QString s = QString::fromLatin1(step);
            if (line.contains(s + QLatin1String(" failed")))
                return QStringLiteral("%1 failed (exit code %2)").arg(s, code);
            if (line.contains(s + QLatin1String(" succeeded")))
                return QStringLiteral("prepared");
        }
        if (line.contains(QLatin1String("job preparation started")))
            return QStringLiteral("preparing");
        if (line.contains(QLatin1String("node setup started")))
            return QStringLiteral("setting up");
    }
    return QStringLiteral("not started");
}

} // namespace TrainDesk
