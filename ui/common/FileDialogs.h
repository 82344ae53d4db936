#pragma once

#include <QStringList>

class QWidget;

namespace TrainDesk::Ui {

// The file dialogs of the app, each opening in the folder last used for the same purpose
// (`purpose`: "export-job", "import-job", "upload", ...; kept in QSettings FileDialogs/),
// or in the home folder the first time. A `current` path the user typed wins.
class FileDialogs
{
public:
    static QString saveFileName(QWidget *parent, const QString &purpose, const QString &title,
                                const QString &fileName, const QString &filter);
    static QString openFileName(QWidget *parent, const QString &purpose, const QString &title,
                                const QString &current = {}, const QString &filter = {});
    static QStringList openFileNames(QWidget *parent, const QString &purpose, const QString &title,
                                     const QString &filter = {});
    static QString existingDirectory(QWidget *parent, const QString &purpose, const QString &title,
                                     const QString &current = {});

    // Where the dialog for `purpose` opens.
    static QString folderFor(const QString &purpose);
    static void remember(const QString &purpose, const QString &pathInFolder, bool isFolder = false);
};

} // namespace TrainDesk::Ui
