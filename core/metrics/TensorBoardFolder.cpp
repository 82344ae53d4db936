#include "TensorBoardFolder.h"

#include "TfEventsReader.h"

#include <QStringDecoder>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <dirent.h>
#include <sys/stat.h>

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

Result<Scan> scan(const QByteArray &root)
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
        DIR *d = ::opendir(dir.path.constData());
        if (!d) {
            const int error = errno;
            const QString why = QString::fromLocal8Bit(std::strerror(error));
            if (first)
                return fail(QStringLiteral("cannot read folder %1: %2").arg(displayName(root), why));
            // A folder removed while the walk went on is simply not there any more.
            if (error != ENOENT && error != ENOTDIR)
                result.problems << QStringLiteral("cannot read folder %1: %2 (left out)").arg(displayName(dir.path), why);
            continue;
        }
        first = false;
        Run run;
        run.folder = dir.path;
        run.name = dir.relative.isEmpty() ? QStringLiteral(".") : displayName(dir.relative);
        QList<Pending> children;
        while (const dirent *entry = ::readdir(d)) {
            const QByteArray name(entry->d_name);
            if (name == "." || name == "..")
                continue;
            unsigned char type = entry->d_type;
            const QByteArray path = dir.path + '/' + name;
            if (type == DT_UNKNOWN) {
                struct stat st {};
                if (::lstat(path.constData(), &st) != 0)
                    continue;  // gone meanwhile
                type = S_ISDIR(st.st_mode) ? DT_DIR : S_ISREG(st.st_mode) ? DT_REG : DT_LNK;
            }
            if (type == DT_DIR) {
                children.append({path, dir.relative.isEmpty() ? name : dir.relative + '/' + name});
            } else if (type == DT_REG) {
                ++result.filesSeen;
                if (TfEventsReader::isEventFile(QString::fromLatin1(name)))
                    run.files.append(name);
            }
        }
        ::closedir(d);
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
