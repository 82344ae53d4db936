#pragma once

#include "common/Result.h"

#include <QString>
#include <QStringView>

namespace TrainDesk {

// A sweep value put into shell text (a job.json's commandLine, commandLineArgs) as one word
// that the shell reads back exactly, whatever the quoting around the placeholder: outside
// quotes it is quoted (shellQuote), inside '...' or "..." it is escaped for them. The text
// before each placeholder is followed as a POSIX shell reads it, so that the value is never
// read as the end of a quote. A value only of characters no shell treats specially goes in
// as it is anywhere (numbers: the common case, and what a nested `sh -c '...'` can take).
class ShellPlaceholder
{
public:
    // Reads the template's text up to the next placeholder.
    void read(QStringView text);
    // The value as the shell should see it here; fails where it cannot be one word (after a
    // backslash, inside $(...) or `...`), saying so.
    Result<QString> word(const QString &value) const;

private:
    enum class Quotes { None, Single, Double };
    Quotes m_quotes = Quotes::None;
    bool m_escaped = false;   // a backslash was the last character
    int m_nested = 0;         // inside $(...), ${...} or `...`
    bool m_backquote = false;
};

} // namespace TrainDesk
