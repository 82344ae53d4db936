#include "ShellPlaceholder.h"

#include "common/ShellQuote.h"

namespace TrainDesk {

void ShellPlaceholder::read(QStringView text)
{
    for (qsizetype i = 0; i < text.size(); ++i) {
        const QChar c = text.at(i);
        if (m_escaped) {
            m_escaped = false;
            continue;
        }
        if (m_quotes == Quotes::Single) {
            if (c == QLatin1Char('\''))
                m_quotes = Quotes::None;
            continue;
        }
        if (c == QLatin1Char('\\')) {
            m_escaped = true;
        } else if (c == QLatin1Char('`')) {
            m_backquote = !m_backquote;
        } else if (c == QLatin1Char('$') && i + 1 < text.size()
                   && (text.at(i + 1) == QLatin1Char('(') || text.at(i + 1) == QLatin1Char('{'))) {
            ++m_nested;
            ++i;
        } else if ((c == QLatin1Char(')') || c == QLatin1Char('}')) && m_nested > 0) {
            --m_nested;
        } else if (c == QLatin1Char('"')) {
            m_quotes = m_quotes == Quotes::Double ? Quotes::None : Quotes::Double;
        } else if (c == QLatin1Char('\'') && m_quotes == Quotes::None) {
            m_quotes = Quotes::Single;
        }
    }
}

Result<QString> ShellPlaceholder::word(const QString &value) const
{
    // shellQuote leaves a word alone when every character means itself to a shell.
    const QString quoted = shellQuote(value);
    if (quoted == value)
        return value;
    if (m_escaped)
        return fail(QStringLiteral("the placeholder follows a backslash"));
    if (m_nested > 0 || m_backquote)
        return fail(QStringLiteral("the placeholder is inside $(...), ${...} or `...`"));
    if (m_quotes == Quotes::None)
        return quoted;
    QString escaped = value;
    if (m_quotes == Quotes::Single)
        return escaped.replace(QLatin1Char('\''), QStringLiteral("'\\''"));
    // In double quotes only these four are special.
    QString out;
    for (const QChar c : value) {
        if (c == QLatin1Char('\\') || c == QLatin1Char('"') || c == QLatin1Char('$') || c == QLatin1Char('`'))
            out += QLatin1Char('\\');
        out += c;
    }
    return out;
}

} // namespace TrainDesk
