#include "LogBuffer.h"

#include <QRegularExpression>

#include <algorithm>

namespace TrainDesk::Ui {

LogBuffer::LogBuffer(int maxLines) : m_maxLines(qMax(1, maxLines)) {}

LogBuffer::Line LogBuffer::parse(const QString &text)
{
    static const QRegularExpression tag(QStringLiteral("^\\[\\d+,(\\d+)\\]<std(?:out|err)>:"));
    const QRegularExpressionMatch match = tag.match(text);
    if (!match.hasMatch())
        return {text, -1, 0};
    return {text, match.captured(1).toInt(), int(match.capturedLength(0))};
}

QString LogBuffer::Line::display() const
{
    if (rank < 0)
        return text;
    return QStringLiteral("%1\u2502 %2").arg(rank).arg(QStringView(text).mid(tagLength));
}

void LogBuffer::keep(const Line &line)
{
    m_lines.append(line);
    if (line.rank >= 0)
        m_ranks.insert(line.rank);
    if (m_lines.size() > m_maxLines) {
        // Drop in batches: removing from the front one by one would be quadratic.
        const qsizetype excess = m_lines.size() - m_maxLines + m_maxLines / 10;
        const qsizetype n = std::min(excess, m_lines.size() - 1);
        m_lines.remove(0, n);
        m_dropped += n;
    }
}

QList<LogBuffer::Line> LogBuffer::append(const QByteArray &chunk)
{
    QString text = m_pending + m_decoder.decode(chunk);
    QList<Line> done;
    qsizetype start = 0;
    while (true) {
        const qsizetype newline = text.indexOf(QLatin1Char('\n'), start);
        if (newline < 0)
            break;
        qsizetype end = newline;
        if (end > start && text.at(end - 1) == QLatin1Char('\r'))
            --end;
        const Line line = parse(text.mid(start, end - start));
        keep(line);
        done.append(line);
        start = newline + 1;
    }
    m_pending = text.mid(start);
    return done;
}

QList<LogBuffer::Line> LogBuffer::flush()
{
    if (m_pending.isEmpty())
        return {};
    const Line line = parse(m_pending);
    m_pending.clear();
    keep(line);
    return {line};
}

void LogBuffer::clear()
{
    m_lines.clear();
    m_pending.clear();
    m_decoder.resetState();
    m_ranks.clear();
    m_dropped = 0;
}

QList<int> LogBuffer::ranks() const
{
    QList<int> result(m_ranks.cbegin(), m_ranks.cend());
    std::sort(result.begin(), result.end());
    return result;
}

} // namespace TrainDesk::Ui
