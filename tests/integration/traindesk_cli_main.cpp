// The CLI alone (traindesk without the GUI library), for the integration tests.
#include "Cli.h"

#include <QCoreApplication>

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    return TrainDesk::Cli::run(app.arguments().mid(1));
}
