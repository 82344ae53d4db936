#include "StateStyle.h"

#include <QHash>
#include <QLocale>
#include <QPainter>
#include <QPixmap>

namespace TrainDesk::Ui {

QColor stateColor(JobState state)
{
    switch (state) {
    case JobState::Draft: return QColor(0x80, 0x80, 0x80);
    case JobState::Queued: return QColor(0xd0, 0x9a, 0x1e);
    case JobState::Running: return QColor(0x2b, 0x7c, 0xd3);
    case JobState::Terminating: return QColor(0xd3, 0x6b, 0x2b);
    case JobState::Succeeded: return QColor(0x2e, 0x9e, 0x4f);
    case JobState::Failed: return QColor(0xc8, 0x32, 0x32);
    }
    return Qt::gray;
}

bool wasTerminated(const Job &job)
{
    return job.state == JobState::Failed && !job.errors.isEmpty()
           && job.errors.first().code == QLatin1String("JobTerminated");
}

QString jobStateText(const Job &job)
{
    return wasTerminated(job) ? QStringLiteral("terminated") : toString(job.state);
}

QColor jobStateColor(const Job &job)
{
    return wasTerminated(job) ? QColor(0x80, 0x6a, 0x5a) : stateColor(job.state);
}

QColor stateColor(NodeState state)
{
    switch (state) {
    case NodeState::Idle: return QColor(0x2e, 0x9e, 0x4f);
    case NodeState::Preparing: return QColor(0xd0, 0x9a, 0x1e);
    case NodeState::Running: return QColor(0x2b, 0x7c, 0xd3);
    case NodeState::Leaving: return QColor(0x80, 0x80, 0x80);
    case NodeState::Unusable: return QColor(0xc8, 0x32, 0x32);
    }
    return Qt::gray;
}

QIcon stateIcon(const QColor &color)
{
    static QHash<QRgb, QIcon> cache;
    const auto it = cache.constFind(color.rgba());
    if (it != cache.constEnd())
        return *it;
    QPixmap pixmap(16, 16);
    pixmap.fill(Qt::transparent);
    QPainter painter(&pixmap);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setPen(color.darker(130));
    painter.setBrush(color);
    painter.drawEllipse(QRectF(3.5, 3.5, 9, 9));
    painter.end();
    const QIcon icon(pixmap);
    cache.insert(color.rgba(), icon);
    return icon;
}

QString formatDuration(qint64 seconds)
{
    if (seconds < 0)
        return QStringLiteral("—");
    if (seconds < 60)
        return QStringLiteral("%1 s").arg(seconds);
    if (seconds < 3600)
        return QStringLiteral("%1 min %2 s").arg(seconds / 60).arg(seconds % 60, 2, 10, QLatin1Char('0'));
    return QStringLiteral("%1 h %2 min").arg(seconds / 3600).arg((seconds % 3600) / 60, 2, 10, QLatin1Char('0'));
}

QString formatTime(const QDateTime &time)
{
    if (!time.isValid())
        return QStringLiteral("—");
    return time.toLocalTime().toString(QStringLiteral("yyyy-MM-dd HH:mm:ss"));
}

QString countOf(qint64 n, const QString &one, const QString &many)
{
    return QStringLiteral("%1 %2").arg(n).arg(n == 1 ? one : many);
}

QString formatBytes(qint64 bytes)
{
    // Powers of 1024 named as such (KiB, MiB): "293.0 kB" for 300,000 bytes mixed the two.
    return QLocale().formattedDataSize(bytes, 1, QLocale::DataSizeIecFormat);
}

} // namespace TrainDesk::Ui
