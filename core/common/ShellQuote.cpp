#include "ShellQuote.h"

namespace TrainDesk {

QString shellQuote(const QString &word)
{
    if (word.isEmpty())
        return QStringLiteral("''");
    // Words made only of these characters mean the same to the shell quoted or not.
    static const QString safe = QStringLiteral(
        "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789@%_+=:,./-");
    bool needsQuotes = false;
    for (QChar c : word) {
        if (!safe.contains(c)) {
            needsQuotes = true;
            break;
        }
    }
    if (!needsQuotes)
        return word;
    // Single quotes keep everything literal; a single quote itself is closed,
    // escaped and reopened.
    QString quoted = word;
    quoted.replace(QLatin1Char('\''), QStringLiteral("'\\''"));
    return QLatin1Char('\'') + quoted + QLatin1Char('\'');
}

QString shellJoin(const QStringList &words)
{
    QStringList quoted;
    quoted.reserve(words.size());
    for (const QString &w : words)
        quoted << shellQuote(w);
    return quoted.join(QLatin1Char(' '));
}

QString shellWordWithVariables(const QString &word)
{
    QString out = QStringLiteral("\"");
    for (qsizetype i = 0; i < word.size(); ++i) {
        const QChar c = word.at(i);
        if (c == QLatin1Char('$')) {
            const QChar next = i + 1 < word.size() ? word.at(i + 1) : QChar();
            const bool variable = next == QLatin1Char('_') || (next.isLetter() && next.unicode() < 128)
                || (next == QLatin1Char('{') && word.indexOf(QLatin1Char('}'), i) > i + 2);
            if (next == QLatin1Char('{') && variable) {
                // ${NAME} only: a name, nothing else inside the braces.
                const qsizetype close = word.indexOf(QLatin1Char('}'), i);
                const QString name = word.mid(i + 2, close - i - 2);
                bool plain = !name.isEmpty() && !name.at(0).isDigit();
                for (const QChar n : name)
                    plain = plain && (n == QLatin1Char('_') || (n.isLetterOrNumber() && n.unicode() < 128));
                if (plain) {
                    out += QStringLiteral("${") + name + QLatin1Char('}');
                    i = close;
                    continue;
                }
                out += QStringLiteral("\\$");
                continue;
            }
            out += variable ? QStringLiteral("$") : QStringLiteral("\\$");
            continue;
        }
        if (c == QLatin1Char('"') || c == QLatin1Char('\\') || c == QLatin1Char('`'))
            out += QLatin1Char('\\');
        out += c;
    }
    return out + QLatin1Char('"');
}

} // namespace TrainDesk
