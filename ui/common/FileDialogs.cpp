#include "FileDialogs.h"

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QSettings>

namespace TrainDesk::Ui {

namespace {

QString key(const QString &purpose)
{
    return QStringLiteral("FileDialogs/") + purpose;
}

// The user's own text when it names a place that exists, else the remembered folder.
QString startFor(const QString &purpose, const QString &current)
{
    if (!current.isEmpty() && QFileInfo::exists(QFileInfo(current).absolutePath()))
        return current;
    return FileDialogs::folderFor(purpose);
}

} // namespace

QString FileDialogs::folderFor(const QString &purpose)
{
    const QString folder = QSettings().value(key(purpose)).toString();
    return !folder.isEmpty() && QFileInfo(folder).isDir() ? folder : QDir::homePath();
}

void FileDialogs::remember(const QString &purpose, const QString &pathInFolder, bool isFolder)
{
    if (pathInFolder.isEmpty())
        return;
    const QFileInfo info(pathInFolder);
    QSettings().setValue(key(purpose), isFolder ? info.absoluteFilePath() : info.absolutePath());
}

QString FileDialogs::saveFileName(QWidget *parent, const QString &purpose, const QString &title,
                                  const QString &fileName, const QString &filter)
{
    const QString path = QFileDialog::getSaveFileName(parent, title, QDir(folderFor(purpose)).filePath(fileName), filter);
    remember(purpose, path);
    return path;
}

QString FileDialogs::openFileName(QWidget *parent, const QString &purpose, const QString &title,
                                  const QString &current, const QString &filter)
{
    const QString path = QFileDialog::getOpenFileName(parent, title, startFor(purpose, current), filter);
    remember(purpose, path);
    return path;
}

QStringList FileDialogs::openFileNames(QWidget *parent, const QString &purpose, const QString &title,
                                       const QString &filter)
{
    const QStringList paths = QFileDialog::getOpenFileNames(parent, title, folderFor(purpose), filter);
    if (!paths.isEmpty())
        remember(purpose, paths.first());
    return paths;
}

QString FileDialogs::existingDirectory(QWidget *parent, const QString &purpose, const QString &title,
                                       const QString &current)
{
    const QString dir = QFileDialog::getExistingDirectory(
        parent, title, !current.isEmpty() && QFileInfo(current).isDir() ? current : folderFor(purpose));
    remember(purpose, dir, true);
    return dir;
}

} // namespace TrainDesk::Ui
