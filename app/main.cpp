// traindesk: the desktop app when started bare, the CLI when given a command.
#include "cli/Cli.h"

#include "MainWindow.h"

#include <QApplication>
#include <QCoreApplication>

int main(int argc, char *argv[])
{
    QCoreApplication::setOrganizationName(QStringLiteral("TrainDesk"));
    QCoreApplication::setApplicationName(QStringLiteral("TrainDesk"));
    QCoreApplication::setApplicationVersion(QStringLiteral(TRAINDESK_VERSION));
    if (argc > 1) {
        QCoreApplication app(argc, argv);
        return TrainDesk::Cli::run(app.arguments().mid(1));
    }
    QApplication app(argc, argv);
    // Matches the installed .desktop file, so desktops show its icon for the window.
    QGuiApplication::setDesktopFileName(QStringLiteral("io.github.traindesk.TrainDesk"));
    return TrainDesk::Ui::runMainWindow();
}
