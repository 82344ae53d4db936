#include "JsonLocator.h"

#include <QSet>

#include <algorithm>

namespace TrainDesk {

namespace {

// Deeper than Qt's parser goes; a guard for text it did not check.
constexpr int maxDepth = 1100;

// An empty key (JSON allows one) is written [""], as the spec reader writes it, so that a
// path always names something and the two agree.
QString memberPath(const QString &parent, const QString &key)
{
    if (key.isEmpty())
        return parent + QStringLiteral("[\"\"]");
    return parent.isEmpty() ? key : parent + QLatin1Char('.') + key;
}

int hexValue(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

} // namespace

JsonLocator::JsonLocator(const QByteArray &text) : m_text(text)
{
    m_lineStarts.append(0);
    for (qsizetype i = 0; i < m_text.size(); ++i) {
        if (m_text.at(i) == '\n')
            m_lineStarts.append(i + 1);
    }
    qsizetype start = 0;
    // A UTF-8 byte order mark is not part of the document.
    if (m_text.startsWith("\xEF\xBB\xBF"))
        start = 3;
    value(start, QString(), 0);
}

JsonLocator::Position JsonLocator::position(qsizetype offset) const
{
    offset = std::clamp<qsizetype>(offset, 0, m_text.size());
    const auto it = std::upper_bound(m_lineStarts.cbegin(), m_lineStarts.cend(), offset);
    const qsizetype lineIndex = (it - m_lineStarts.cbegin()) - 1;
    const qsizetype lineStart = m_lineStarts.at(lineIndex);
    int column = 1;
    for (qsizetype i = lineStart; i < offset; ++i) {
        // Count characters, not bytes: skip UTF-8 continuation bytes.
        if ((static_cast<unsigned char>(m_text.at(i)) & 0xC0) != 0x80)
            ++column;
    }
    return {int(lineIndex + 1), column};
}

qsizetype JsonLocator::nearestOffset(const QString &path) const
{
    QString p = path;
    for (;;) {
        const auto it = m_offsets.constFind(p);
        if (it != m_offsets.constEnd())
            return it.value();
        if (p.isEmpty())
            return -1;
        const qsizetype cut = std::max(p.lastIndexOf(QLatin1Char('.')), p.lastIndexOf(QLatin1Char('[')));
        p = cut > 0 ? p.left(cut) : QString();
    }
}

JsonLocator::Position JsonLocator::locate(const QString &path) const
{
    const qsizetype offset = nearestOffset(path);
    return offset < 0 ? Position{} : position(offset);
}

QList<JsonLocator::Position> JsonLocator::locateAll(const QStringList &paths) const
{
    QList<std::pair<qsizetype, qsizetype>> byOffset;  // (offset, index into paths)
    byOffset.reserve(paths.size());
    for (qsizetype i = 0; i < paths.size(); ++i) {
        if (const qsizetype offset = nearestOffset(paths.at(i)); offset >= 0)
            byOffset.append({std::min(offset, m_text.size()), i});
    }
    std::sort(byOffset.begin(), byOffset.end());
    QList<Position> positions(paths.size());
    // One cursor walks the text forward: each byte is counted once for all the paths.
    qsizetype at = 0;
    qsizetype lineIndex = 0;
    int column = 1;
    for (const auto &[offset, index] : std::as_const(byOffset)) {
        const auto it = std::upper_bound(m_lineStarts.cbegin(), m_lineStarts.cend(), offset);
        const qsizetype line = (it - m_lineStarts.cbegin()) - 1;
        if (line != lineIndex) {
            lineIndex = line;
            at = m_lineStarts.at(line);
            column = 1;
        }
        for (; at < offset; ++at) {
            // Count characters, not bytes: skip UTF-8 continuation bytes.
            if ((static_cast<unsigned char>(m_text.at(at)) & 0xC0) != 0x80)
                ++column;
        }
        positions[index] = {int(lineIndex + 1), column};
    }
    return positions;
}

QString JsonLocator::syntaxError(const QByteArray &text, const QJsonParseError &error, qsizetype *offset)
{
    auto isSpace = [&](qsizetype i) {
        const char c = text.at(i);
        return c == ' ' || c == '\t' || c == '\n' || c == '\r';
    };
    // Qt reports the offset after the offending token for most errors, at it for the others.
    qsizetype p = error.offset;
    if (error.error != QJsonParseError::IllegalNumber && error.error != QJsonParseError::GarbageAtEnd
        && error.error != QJsonParseError::UnterminatedString && p > 0)
        --p;
    p = std::clamp<qsizetype>(p, 0, text.size());
    while (p < text.size() && isSpace(p))
        ++p;
    *offset = p;
    QString found = QStringLiteral("the end of the text");
    if (p < text.size()) {
        // One character, decoded (a UTF-8 sequence is up to four bytes).
        const QString c = QString::fromUtf8(text.mid(p, 4)).left(1);
        found = c.at(0).isPrint() ? QStringLiteral("'%1'").arg(c) : QStringLiteral("byte 0x%1").arg(
                    static_cast<unsigned char>(text.at(p)), 2, 16, QLatin1Char('0'));
    }
    if (text.trimmed().isEmpty())
        return QStringLiteral("expected a JSON object, found an empty file");
    switch (error.error) {
    case QJsonParseError::UnterminatedObject: {
        // Qt says the same after '{' or ',' (where a name was due) as after a member.
        qsizetype before = std::min(p, text.size()) - 1;
        while (before >= 0 && isSpace(before))
            --before;
        if (before >= 0 && (text.at(before) == ',' || text.at(before) == '{'))
            return QStringLiteral("expected a member's name in double quotes, found %1").arg(found);
        return QStringLiteral("expected ',' or '}' after a member, found %1").arg(found);
    }
    case QJsonParseError::MissingNameSeparator:
        return QStringLiteral("expected ':' after a member's name, found %1").arg(found);
    case QJsonParseError::UnterminatedArray:
        return QStringLiteral("expected ',' or ']' after an element, found %1").arg(found);
    case QJsonParseError::MissingValueSeparator:
        return QStringLiteral("expected ',' between elements, found %1").arg(found);
    case QJsonParseError::IllegalValue:
        return QStringLiteral("expected a value (a string in double quotes, a number, an object, an array, true, false "
                              "or null), found %1").arg(found);
    case QJsonParseError::TerminationByNumber:
        return QStringLiteral("expected more after a number, found the end of the text");
    case QJsonParseError::IllegalNumber:
        return QStringLiteral("expected a number, found %1").arg(found);
    case QJsonParseError::IllegalEscapeSequence:
        return QStringLiteral("expected an escape sequence such as \\n, \\\" or \\u00e9 in a string, found %1").arg(found);
    case QJsonParseError::IllegalUTF8String:
        return QStringLiteral("expected UTF-8 text in a string, found %1").arg(found);
    case QJsonParseError::UnterminatedString:
        return QStringLiteral("expected the closing '\"' of a string, found the end of the text");
    case QJsonParseError::MissingObject:
        return QStringLiteral("expected another member or element after ',', found %1 (a trailing comma?)").arg(found);
    case QJsonParseError::DeepNesting:
        return QStringLiteral("expected at most %1 levels of nesting, found more").arg(1024);
    case QJsonParseError::DocumentTooLarge:
        return QStringLiteral("expected a document Qt can hold, found one too large");
    case QJsonParseError::GarbageAtEnd:
        return QStringLiteral("expected the end of the text after the top-level value, found %1").arg(found);
    default:
        break;
    }
    return error.errorString();
}

qsizetype JsonLocator::skipSpace(qsizetype pos) const
{
    while (pos < m_text.size()) {
        const char c = m_text.at(pos);
        if (c != ' ' && c != '\t' && c != '\n' && c != '\r')
            break;
        ++pos;
    }
    return pos;
}

qsizetype JsonLocator::readString(qsizetype pos, QString *decoded) const
{
    // pos is at the opening quote.
    ++pos;
    QByteArray run;
    while (pos < m_text.size()) {
        const char c = m_text.at(pos);
        if (c == '"') {
            if (decoded)
                decoded->append(QString::fromUtf8(run));
            return pos + 1;
        }
        if (c != '\\') {
            run.append(c);
            ++pos;
            continue;
        }
        if (pos + 1 >= m_text.size())
            return -1;
        const char e = m_text.at(pos + 1);
        pos += 2;
        char plain = 0;
        switch (e) {
        case '"': plain = '"'; break;
        case '\\': plain = '\\'; break;
        case '/': plain = '/'; break;
        case 'b': plain = '\b'; break;
        case 'f': plain = '\f'; break;
        case 'n': plain = '\n'; break;
        case 'r': plain = '\r'; break;
        case 't': plain = '\t'; break;
        case 'u': {
            if (pos + 4 > m_text.size())
                return -1;
            int code = 0;
            for (int k = 0; k < 4; ++k) {
                const int h = hexValue(m_text.at(pos + k));
                if (h < 0)
                    return -1;
                code = code * 16 + h;
            }
            pos += 4;
            if (decoded) {
                decoded->append(QString::fromUtf8(run));
                run.clear();
                decoded->append(QChar(char16_t(code)));
            }
            continue;
        }
        default: return -1;
        }
        run.append(plain);
    }
    return -1;
}

qsizetype JsonLocator::value(qsizetype pos, const QString &path, int depth)
{
    if (depth > maxDepth)
        return -1;
    pos = skipSpace(pos);
    if (pos >= m_text.size())
        return -1;
    if (path.isEmpty() && depth == 0)
        m_offsets.insert(QString(), pos);
    const char c = m_text.at(pos);
    if (c == '{') {
        QSet<QString> seen;
        pos = skipSpace(pos + 1);
        if (pos < m_text.size() && m_text.at(pos) == '}')
            return pos + 1;
        while (pos < m_text.size()) {
            if (m_text.at(pos) != '"')
                return -1;
            const qsizetype keyStart = pos;
            QString key;
            pos = readString(pos, &key);
            if (pos < 0)
                return -1;
            pos = skipSpace(pos);
            if (pos >= m_text.size() || m_text.at(pos) != ':')
                return -1;
            const QString child = memberPath(path, key);
            if (seen.contains(key))
                m_duplicates.append(child);
            seen.insert(key);
            m_offsets.insert(child, keyStart);  // the last one counts, as in QJsonDocument
            pos = value(pos + 1, child, depth + 1);
            if (pos < 0)
                return -1;
            pos = skipSpace(pos);
            if (pos >= m_text.size())
                return -1;
            if (m_text.at(pos) == '}')
                return pos + 1;
            if (m_text.at(pos) != ',')
                return -1;
            pos = skipSpace(pos + 1);
        }
        return -1;
    }
    if (c == '[') {
        pos = skipSpace(pos + 1);
        if (pos < m_text.size() && m_text.at(pos) == ']')
            return pos + 1;
        for (int index = 0; pos < m_text.size(); ++index) {
            const QString child = QStringLiteral("%1[%2]").arg(path).arg(index);
            m_offsets.insert(child, skipSpace(pos));
            pos = value(pos, child, depth + 1);
            if (pos < 0)
                return -1;
            pos = skipSpace(pos);
            if (pos >= m_text.size())
                return -1;
            if (m_text.at(pos) == ']')
                return pos + 1;
            if (m_text.at(pos) != ',')
                return -1;
            pos = pos + 1;
        }
        return -1;
    }
    if (c == '"')
        return readString(pos, nullptr);
    // A number or a literal.
    while (pos < m_text.size()) {
        const char d = m_text.at(pos);
        if (d == ',' || d == '}' || d == ']' || d == ' ' || d == '\t' || d == '\n' || d == '\r')
            break;
        ++pos;
    }
    return pos;
}

} // namespace TrainDesk
