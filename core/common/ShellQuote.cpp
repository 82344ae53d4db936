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

} // namespace TrainDesk
