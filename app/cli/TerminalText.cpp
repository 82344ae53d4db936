#include "TerminalText.h"

#include <unistd.h>

namespace TrainDesk::Cli::TerminalText {

bool isTerminal(FILE *stream) { return ::isatty(::fileno(stream)) == 1; }

QByteArray sanitized(const QByteArray &utf8)
{
    QByteArray out;
    out.reserve(utf8.size());
    for (qsizetype i = 0; i < utf8.size(); ++i) {
        const auto c = static_cast<unsigned char>(utf8.at(i));
        if (c == '\n' || c == '\t' || c == '\r') {
            out += char(c);
        } else if (c < 0x20 || c == 0x7f) {
            out += '^';
            out += char(c == 0x7f ? '?' : c + 0x40);
        } else if (c == 0xc2 && i + 1 < utf8.size() && static_cast<unsigned char>(utf8.at(i + 1)) >= 0x80
                   && static_cast<unsigned char>(utf8.at(i + 1)) <= 0x9f) {
            out += '<' + QByteArray::number(static_cast<unsigned char>(utf8.at(i + 1)), 16) + '>';
            ++i;
        } else if (c >= 0x80 && c <= 0x9f && (i == 0 || static_cast<unsigned char>(utf8.at(i - 1)) < 0x80)) {
            out += '<' + QByteArray::number(c, 16) + '>';  // a lone 8-bit control, outside any UTF-8 sequence
        } else {
            out += char(c);
        }
    }
    return out;
}

QString sanitized(const QString &text) { return QString::fromUtf8(sanitized(text.toUtf8())); }

} // namespace TrainDesk::Cli::TerminalText
