#include "LogBuffer.h"

#include <algorithm>

namespace TrainDesk::Ui {

LogBuffer::LogBuffer(int maxLines) : m_maxLines(qMax(1, maxLines)) {}

LogBuffer::Line LogBuffer::parse(const QString &text)
{
    // "[job,rank]<stdout>:" or "<stderr>:", read by hand: a regular expression per line
    // costs more than everything else a fast log needs.
    const qsizetype size = text.size();
    const QChar *c = text.constData();
    if (size < 12 || c[0] != QLatin1Char('['))
        return {text, -1, 0};
    qsizetype i = 1;
    const auto digits = [&](qsizetype from) {
        qsizetype j = from;
        while (j < size && c[j] >= QLatin1Char('0') && c[j] <= QLatin1Char('9'))
            ++j;
        return j;
    };
    qsizetype end = digits(i);
    if (end == i || end >= size || c[end] != QLatin1Char(','))
        return {text, -1, 0};
    i = end + 1;
    end = digits(i);
    if (end == i || end - i > 9 || end >= size || c[end] != QLatin1Char(']'))
        return {text, -1, 0};
    const int rank = QStringView(text).mid(i, end - i).toInt();
    const QStringView rest = QStringView(text).mid(end + 1);
    for (const QLatin1String stream : {QLatin1String("<stdout>:"), QLatin1String("<stderr>:")}) {
        if (rest.startsWith(stream))
            return {text, rank, int(end + 1 + stream.size())};
    }
    return {text, -1, 0};
}

QString LogBuffer::Line::display() const
{
    if (rank < 0)
        return text;
    QString shown = QString::number(rank);
    shown.reserve(shown.size() + 2 + text.size() - tagLength);
    shown += QStringLiteral("\u2502 ");
    shown += QStringView(text).mid(tagLength);
    return shown;
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
