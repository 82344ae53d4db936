#include "RunColors.h"

namespace TrainDesk::Ui {

RunColors *RunColors::instance()
{
    static RunColors colors;
    return &colors;
}

void RunColors::setChosen(qint64 jobId, const QColor &color)
{
    if (m_colors.value(jobId) == color)
        return;
    if (color.isValid())
        m_colors.insert(jobId, color);
    else
        m_colors.remove(jobId);
    Q_EMIT changed();
}

void RunColors::setStored(const QHash<qint64, QString> &colors, const QList<qint64> &jobIds)
{
    QHash<qint64, QColor> next = jobIds.isEmpty() ? QHash<qint64, QColor>() : m_colors;
    for (qint64 id : jobIds)
        next.remove(id);
    for (auto it = colors.cbegin(); it != colors.cend(); ++it) {
        if (const QColor color = QColor::fromString(*it); color.isValid() && (jobIds.isEmpty() || jobIds.contains(it.key())))
            next.insert(it.key(), color);
    }
    if (next == m_colors)
        return;
    m_colors = next;
    Q_EMIT changed();
}

} // namespace TrainDesk::Ui
