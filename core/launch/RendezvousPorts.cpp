#include "RendezvousPorts.h"

#include "common/ShellQuote.h"

#include <QRegularExpression>

namespace TrainDesk::RendezvousPorts {

namespace {

// Below Linux's ephemeral ports (32768-60999), which outgoing connections take at any
// time; above most services' fixed ports.
constexpr int firstSearched = 20000;
constexpr int searchedCount = 12000;

const QRegularExpression &referencePattern()
{
    static const QRegularExpression pattern(QStringLiteral("\\$\\{TRAINDESK_PORT\\}|\\$\\(\\(TRAINDESK_PORT\\+[0-9]+\\)\\)"));
    return pattern;
}

} // namespace

QString variable() { return QStringLiteral("TRAINDESK_PORT"); }

QString Ports::port(int offset) const
{
    if (fixed)
        return QString::number(*fixed + offset);
    return offset == 0 ? QStringLiteral("${TRAINDESK_PORT}") : QStringLiteral("$((TRAINDESK_PORT+%1))").arg(offset);
}

Result<Ports> of(const JobSpec &spec)
{
    Ports ports;
    if (!spec.environmentVariables)
        return ports;
    const QStringList names = spec.pyTorchSettings ? QStringList{variable(), QStringLiteral("MASTER_PORT")} : QStringList{variable()};
    for (const QString &name : names) {
        for (qsizetype i = 0; i < spec.environmentVariables->size(); ++i) {
            const EnvironmentVariable &e = spec.environmentVariables->at(i);
            if (e.name != name)
                continue;
            bool ok = false;
            const int port = e.value.trimmed().toInt(&ok);
            if (!ok || port < 1 || port > 65535) {
                return fail(QStringLiteral("properties.environmentVariables[%1].value: %2 is the job's rendezvous port: "
                                           "expected a port number (1-65535), found '%3'")
                                .arg(i).arg(name, e.value));
            }
            ports.fixed = port;
            return ports;
        }
    }
    return ports;
}

int searchStart(const QString &uuid)
{
    // FNV-1a: the same start for the same uuid in every process (qHash is seeded).
    quint32 h = 2166136261u;
    for (const char c : uuid.toUtf8()) {
        h ^= quint8(c);
        h *= 16777619u;
    }
    return firstSearched + int(h % searchedCount);
}

QString choiceText(int start, int count)
{
    // Every TCP socket's local port (listening, connected, TIME_WAIT): none of the run may be
    // taken. The search wraps within the range; with no /proc it keeps the start.
    const QString program = QStringLiteral(
        "function hex(h, i, v) { v = 0; for (i = 1; i <= length(h); i++) v = v * 16 + index(\"0123456789ABCDEF\", "
        "toupper(substr(h, i, 1))) - 1; return v }\n"
        "$2 ~ /:/ { k = split($2, a, \":\"); used[hex(a[k])] = 1 }\n"
        "END { p = s; for (t = 0; t < m; t++) { ok = 1; for (i = 0; i < n; i++) if ((p + i) in used || p + i >= lo + m) ok = 0;\n"
        "  if (ok) { print p; exit } p++; if (p >= lo + m) p = lo }\n"
        "  print s }");
    return QStringLiteral("%1=\"$(cat /proc/net/tcp /proc/net/tcp6 2>/dev/null | awk -v s=%2 -v n=%3 -v lo=%4 -v m=%5 %6)\"\n"
                          "export %1=\"${%1:-%2}\"\n")
        .arg(variable())
        .arg(start)
        .arg(count)
        .arg(firstSearched)
        .arg(searchedCount)
        .arg(shellQuote(program));
}

QString shellWord(const QString &value)
{
    QString word;
    qsizetype last = 0;
    auto it = referencePattern().globalMatch(value);
    while (it.hasNext()) {
        const auto m = it.next();
        if (m.capturedStart() > last)
            word += shellQuote(value.mid(last, m.capturedStart() - last));
        word += QLatin1Char('"') + m.captured(0) + QLatin1Char('"');
        last = m.capturedEnd();
    }
    if (last == 0)
        return shellQuote(value);
    if (last < value.size())
        word += shellQuote(value.mid(last));
    return word;
}

} // namespace TrainDesk::RendezvousPorts
