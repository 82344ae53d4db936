#include "DownloadPaths.h"

#include <QDir>
#include <QFileInfo>
#include <QSettings>
#include <QStandardPaths>

namespace TrainDesk::Ui::DownloadPaths {

namespace {

const QString settingsKey = QStringLiteral("downloads/folder");

QString segment(QString name)
{
    name.replace(QLatin1Char('/'), QLatin1Char('_'));
    if (name.isEmpty() || name == QLatin1String(".") || name == QLatin1String(".."))
        name = QStringLiteral("_");
    return name;
}

} // namespace

QString baseFolder()
{
    const QString chosen = QSettings().value(settingsKey).toString();
    if (!chosen.isEmpty())
        return chosen;
    QString downloads = QStandardPaths::writableLocation(QStandardPaths::DownloadLocation);
    if (downloads.isEmpty())
        downloads = QDir::homePath();
    return downloads + QStringLiteral("/TrainDesk");
}

QString dialogFolder()
{
    QString folder = QDir::cleanPath(baseFolder());
    while (!folder.isEmpty() && !QFileInfo(folder).isDir()) {
        const QString up = QFileInfo(folder).path();
        folder = up == folder ? QString() : up;
    }
    return folder.isEmpty() || folder == QDir::rootPath() ? QDir::homePath() : folder;
}

void setBaseFolder(const QString &folder)
{
    QSettings().setValue(settingsKey, folder);
}

QString jobFolder(const QString &base, const QString &workspace, const QString &experiment, const QString &job)
{
    return QDir::cleanPath(base + QLatin1Char('/') + segment(workspace) + QLatin1Char('/') + segment(experiment)
                           + QLatin1Char('/') + segment(job));
}

QString freePathFor(const QString &path)
{
    const QFileInfo info(path);
    const QString name = info.fileName();
    // The last suffix goes after the number ("model.v2 (2).h5"), ".tar.*" stays whole; a
    // leading dot (".hidden") is part of the name.
    qsizetype dot = name.lastIndexOf(QLatin1Char('.'));
    if (dot > 4 && name.mid(dot - 4, 4) == QLatin1String(".tar"))
        dot -= 4;
    const QString stem = dot > 0 ? name.left(dot) : name;
    const QString suffix = dot > 0 ? name.mid(dot) : QString();
    for (int n = 2;; ++n) {
        const QString candidate = info.dir().filePath(QStringLiteral("%1 (%2)%3").arg(stem).arg(n).arg(suffix));
        if (!QFileInfo::exists(candidate))
            return candidate;
    }
}

} // namespace TrainDesk::Ui::DownloadPaths
