#pragma once

#include <QByteArray>
#include <QString>

#include <cstdio>

namespace TrainDesk::Cli::TerminalText {

// Whether `stream` is a terminal: only then is what TrainDesk prints made safe for one.
bool isTerminal(FILE *stream);

// Text from elsewhere (a job's output, a file name on a node) made harmless on a terminal,
// as less shows it without -R: every control character but newline, tab and carriage
// return (which progress bars use) in caret notation ("^[" for ESC, "^?" for DEL), and the
// 8-bit controls (U+0080 to U+009F, which some terminals obey as ESC sequences) as "<9b>",
// so that no title, clear screen or cursor move reaches the terminal.
QByteArray sanitized(const QByteArray &utf8);
QString sanitized(const QString &text);

} // namespace TrainDesk::Cli::TerminalText
