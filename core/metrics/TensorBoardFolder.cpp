#include "TensorBoardFolder.h"

#include "EventFiles.h"
#include "TfEventsReader.h"

#include <QStringDecoder>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace TrainDesk::TensorBoardFolder {

QString displayName(const QByteArray &bytes)
{
    QStringDecoder strict(QStringDecoder::Utf8, QStringDecoder::Flag::Stateless);
    QString whole = strict.decode(bytes);
    if (!strict.hasError())
        return whole;
    // Valid runs of UTF-8 as text, every other byte as \xNN (as `ls --quoting-style=escape`).
    QString text;
    qsizetype i = 0;
    while (i < bytes.size()) {
        const auto c = static_cast<unsigned char>(bytes[i]);
        const int length = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
        if (length > 0 && i + length <= bytes.size()) {
            QStringDecoder one(QStringDecoder::Utf8, QStringDecoder::Flag::Stateless);
            const QString piece = one.decode(bytes.mid(i, length));
            if (!one.hasError()) {
                text += piece;
                i += length;
                continue;
            }
        }
        text += QStringLiteral("\\x%1").arg(c, 2, 16, QLatin1Char('0'));
        ++i;
    }
    return text;
}

Result<Scan> scan(EventFiles &files, const QByteArray &root)
{
    Scan result;
    struct Pending
    {
        QByteArray path;
        QByteArray relative;
    };
    QList<Pending> stack{{root, QByteArray()}};
    bool first = true;
    while (!stack.isEmpty()) {
        const Pending dir = stack.takeLast();
        const auto listed = files.list(dir.path);
        if (!listed || !*listed) {
            // Gone is said in the system's words, here and on a node alike.
            const QString why = listed ? QString::fromLocal8Bit(std::strerror(ENOENT)) : listed.error();
            if (first)
                return fail(QStringLiteral("cannot read folder %1%2: %3").arg(files.place(), displayName(root), why));
            // A folder removed while the walk went on is simply not there any more.
            if (!listed)
                result.problems << QStringLiteral("cannot read folder %1%2: %3 (left out)").arg(files.place(), displayName(dir.path), why);
            continue;
        }
        first = false;
        Run run;
        run.folder = dir.path;
        run.name = dir.relative.isEmpty() ? QStringLiteral(".") : displayName(dir.relative);
        QList<Pending> children;
        for (const EventFiles::Entry &entry : **listed) {
            if (entry.kind == EventFiles::Entry::Folder) {
                const QByteArray path = dir.path + '/' + entry.name;
                children.append({path, dir.relative.isEmpty() ? entry.name : dir.relative + '/' + entry.name});
            } else if (entry.kind == EventFiles::Entry::File) {
                ++result.filesSeen;
                if (TfEventsReader::isEventFile(QString::fromLatin1(entry.name)))
                    run.files.append(entry.name);
            }
        }
        if (!run.files.isEmpty()) {
            std::sort(run.files.begin(), run.files.end());
            result.runs.append(run);
        }
        // Reversed, so the stack walks them in name order.
        std::sort(children.begin(), children.end(), [](const Pending &a, const Pending &b) { return a.path > b.path; });
        stack.append(children);
    }
    std::sort(result.runs.begin(), result.runs.end(), [](const Run &a, const Run &b) { return a.folder < b.folder; });
    return result;
}

} // namespace TrainDesk::TensorBoardFolder
