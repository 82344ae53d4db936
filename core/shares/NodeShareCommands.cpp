#include "NodeShareCommands.h"

#include "common/ShellQuote.h"

#include <QDateTime>

namespace TrainDesk::NodeShareCommands {

namespace {

QStringList components(const QString &relative)
{
    QStringList parts;
    for (const QString &part : relative.split(QLatin1Char('/'), Qt::SkipEmptyParts)) {
        if (part != QLatin1String("."))
            parts << part;
    }
    return parts;
}

QString parentOf(const QString &relative)
{
    QStringList parts = components(relative);
    if (!parts.isEmpty())
        parts.removeLast();
    return parts.join(QLatin1Char('/'));
}

QString lastOf(const QString &relative)
{
    const QStringList parts = components(relative);
    return parts.isEmpty() ? QString() : parts.last();
}

} // namespace

QString enter(const QString &root, const QString &relative, bool create)
{
    // td_step: one component. The device:inode looked at (lstat) must be the folder entered:
    // a link there, or a swap between the look and the cd, stops the walk.
    QString text = QStringLiteral(
                       "CDPATH=\n"
                       "cd -P -- %1 || { printf 'cannot enter %s\\n' %1 >&2; exit 4; }\n"
                       "td_step() {\n"
                       "  if [ -L \"$1\" ]; then printf '%s\\n' \"$1\" >&2; exit 3; fi\n"
                       "  %2\n"
                       "  [ -e \"$1\" ] || exit 5\n"
                       "  td_a=$(stat -c %d:%i -- \"$1\") || exit 4\n"
                       "  if ! cd -P -- \"$1\" 2>/dev/null; then\n"
                       "    if [ -L \"$1\" ]; then printf '%s\\n' \"$1\" >&2; exit 3; fi\n"
                       "    printf '%s is not a folder\\n' \"$1\" >&2; exit 4\n"
                       "  fi\n"
                       "  [ \"$(stat -c %d:%i .)\" = \"$td_a\" ] || { printf '%s\\n' \"$1\" >&2; exit 3; }\n"
                       "}\n")
                       .arg(shellQuote(root),
                            create ? QStringLiteral("[ -e \"$1\" ] || mkdir -- \"$1\" 2>/dev/null")
                                   : QStringLiteral(":"));
    for (const QString &part : components(relative))
        text += QStringLiteral("td_step %1\n").arg(shellQuote(part));
    return text;
}

QString inFolder(const QString &root, const QString &relative, const QString &body)
{
    return enter(root, relative, false) + body;
}

QString stagingFolderCommand()
{
    return QStringLiteral(
        "td_d=\"${HOME:?}/.traindesk/staging\"\n"
        "mkdir -p -m 700 -- \"$td_d\" && cd -P -- \"$td_d\" || exit 4\n"
        "[ -O . ] || { printf '%s belongs to another user: remove it\\n' \"$td_d\" >&2; exit 4; }\n"
        "[ \"$(stat -c %a .)\" = 700 ] || { printf '%s may be read or written by others: chmod 700 %s\\n' \"$td_d\" \"$td_d\" >&2; exit 4; }\n"
        "find . -maxdepth 1 -type f -mmin +1440 -exec rm -f -- {} + 2>/dev/null\n"
        "pwd -P\n");
}

QString moveInCommand(const QString &root, const QString &relative, const QString &staged, const QString &partName)
{
    // -T: a link or folder of the part's name is replaced, never entered.
    return enter(root, relative, false)
           + QStringLiteral("td_s=%1; td_p=%2\n"
                            "mv -fT -- \"$td_s\" \"./$td_p\" || { rm -f -- \"$td_s\" \"./$td_p\"; exit 4; }\n")
                 .arg(shellQuote(staged), shellQuote(partName));
}

QString commitCommand(const QString &root, const QString &relative, const QString &partName, const QString &name)
{
    return enter(root, relative, false)
           + QStringLiteral("td_p=%1; td_n=%2\n"
                            "if [ -d \"$td_n\" ] && [ ! -L \"$td_n\" ]; then rm -f -- \"./$td_p\"; exit 6; fi\n"
                            "mv -fT -- \"./$td_p\" \"./$td_n\" || { rm -f -- \"./$td_p\"; exit 4; }\n")
                 .arg(shellQuote(partName), shellQuote(name));
}

QString readCommand(const QString &root, const QString &relative)
{
    return enter(root, parentOf(relative), false)
           + QStringLiteral("td_n=%1\n"
                            "if [ -L \"$td_n\" ]; then printf '%s\\n' \"$td_n\" >&2; exit 3; fi\n"
                            "[ -f \"$td_n\" ] || exit 5\n"
                            "exec 3< \"$td_n\" || exit 4\n"
                            // What was opened is the file of that name here, not a link swapped in.
                            "[ \"$(stat -L -c %d:%i /dev/fd/3)\" = \"$(stat -c %d:%i -- \"$td_n\")\" ] || "
                            "{ printf '%s\\n' \"$td_n\" >&2; exit 3; }\n"
                            "exec cat <&3\n")
                 .arg(shellQuote(lastOf(relative)));
}

QString listCommand(const QString &root, const QString &relative)
{
    return enter(root, relative, false) + QStringLiteral("find . -mindepth 1 -maxdepth 1 -printf '%y/%s/%T@/%P/%l\\0'\n");
}

Result<QList<RemoteFileInfo>> parseList(const QByteArray &output)
{
    QList<RemoteFileInfo> entries;
    for (const QByteArray &record : output.split('\0')) {
        if (record.isEmpty())
            continue;
        const QString text = QString::fromUtf8(record);
        const QStringList fields = text.split(QLatin1Char('/'));
        if (fields.size() < 5)
            return fail(QStringLiteral("unreadable listing line '%1'").arg(text));
        RemoteFileInfo e;
        e.isDirectory = fields[0] == QLatin1String("d");
        e.isLink = fields[0] == QLatin1String("l");
        e.size = e.isDirectory || e.isLink ? 0 : fields[1].toLongLong();
        e.modified = QDateTime::fromMSecsSinceEpoch(qint64(fields[2].toDouble() * 1000), Qt::UTC);
        e.name = fields[3];
        e.linkTarget = e.isLink ? fields.mid(4).join(QLatin1Char('/')) : QString();
        entries.append(e);
    }
    return entries;
}

QString removeCommand(const QString &root, const QString &relative)
{
    return enter(root, parentOf(relative), false)
           + QStringLiteral("td_n=%1\n"
                            "[ -e \"$td_n\" ] || [ -L \"$td_n\" ] || exit 5\n"
                            "rm -rf -- \"./$td_n\"\n")
                 .arg(shellQuote(lastOf(relative)));
}

QString reason(const QString &path, const ExecResult &result)
{
    const QString said = QString::fromLocal8Bit(result.stdErr).trimmed();
    switch (result.exitCode) {
    case linkOnTheWay:
        return QStringLiteral("'%1' passes through the link %2: share files are reached without following links").arg(path, said);
    case missing:
        return QStringLiteral("no file or folder %1").arg(path);
    case folderInTheWay:
        return QStringLiteral("%1 is a folder: nothing was replaced").arg(path);
    default:
        return QStringLiteral("%1: %2 (exit %3)").arg(path, said.isEmpty() ? QStringLiteral("failed") : said).arg(result.exitCode);
    }
}

} // namespace TrainDesk::NodeShareCommands
