#include "PathConfinement.h"

#include "ShellQuote.h"

#include <QDir>
#include <QFileInfo>

namespace TrainDesk::PathConfinement {

Result<QString> confined(const QString &root, const QString &path, const QString &what)
{
    const QString realRoot = QFileInfo(root).canonicalFilePath();
    if (realRoot.isEmpty())
        return fail(QStringLiteral("%1 %2 does not exist").arg(what, root));
    // Resolve the longest part that exists; what follows it cannot be a link yet.
    QString existing = QDir::cleanPath(path);
    QString rest;
    while (!QFileInfo::exists(existing) && !QFileInfo(existing).isSymLink() && existing != QLatin1String("/")) {
        rest = QFileInfo(existing).fileName() + (rest.isEmpty() ? QString() : QLatin1Char('/') + rest);
        existing = QFileInfo(existing).path();
    }
    QString resolved = QFileInfo(existing).canonicalFilePath();
    if (resolved.isEmpty())  // a dangling link: where it points is outside anything we know
        return fail(QStringLiteral("'%1' is a link to nothing inside %2 %3").arg(path, what, root));
    if (!rest.isEmpty())
        resolved = QDir::cleanPath(resolved + QLatin1Char('/') + rest);
    if (resolved != realRoot && !resolved.startsWith(realRoot + QLatin1Char('/')))
        return fail(QStringLiteral("'%1' is outside %2 %3 (it leads to %4)").arg(path, what, root, resolved));
    return resolved;
}

QString confinedCommand(const QString &root, const QString &path)
{
    return QStringLiteral("r=$(realpath -m -- %1) && p=$(realpath -m -- %2) && "
                          "case \"$p/\" in \"$r\"/*) printf '%s' \"$p\" ;; *) printf '%s' \"$p\"; exit 3 ;; esac")
        .arg(shellQuote(root), shellQuote(path));
}

bool isUnder(const QString &path, const QString &root)
{
    return path == root || path.startsWith(root.endsWith(QLatin1Char('/')) ? root : root + QLatin1Char('/'));
}

} // namespace TrainDesk::PathConfinement
