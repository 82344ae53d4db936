#include "ScreenshotMode.h"

#include "MainWindow.h"

#include <QApplication>
#include <QTabWidget>
#include <QTimer>

namespace TrainDesk::Ui::ScreenshotMode {

void installFromEnvironment(MainWindow *window)
{
    const QString path = qEnvironmentVariable("TRAINDESK_SCREENSHOT");
    if (path.isEmpty())
        return;
    const QString select = qEnvironmentVariable("TRAINDESK_SCREENSHOT_SELECT");
    const QString tab = qEnvironmentVariable("TRAINDESK_SCREENSHOT_TAB");
    bool ok = false;
    const double delay = qEnvironmentVariable("TRAINDESK_SCREENSHOT_DELAY").toDouble(&ok);
    const int delayMs = ok && delay > 0 ? int(delay * 1000) : 5000;

    // Selecting needs the first snapshot: try a few times, early.
    auto *chooser = new QTimer(window);
    chooser->setInterval(200);
    QObject::connect(chooser, &QTimer::timeout, window, [window, chooser, select, tab, tries = 0]() mutable {
        const bool selected = select.isEmpty() || window->selectByName(select);
        if (selected) {
            if (auto *tabs = qobject_cast<QTabWidget *>(window->currentView()); tabs && !tab.isEmpty()) {
                for (int i = 0; i < tabs->count(); ++i) {
                    if (tabs->tabText(i).remove(QLatin1Char('&')).compare(tab, Qt::CaseInsensitive) == 0)
                        tabs->setCurrentIndex(i);
                }
            }
        }
        if (selected || ++tries > 25)
            chooser->stop();
    });
    chooser->start();
    QTimer::singleShot(delayMs, window, [window, path] {
        const bool saved = window->grab().save(path, "PNG");
        qInfo("screenshot %s: %s", qPrintable(path), saved ? "saved" : "FAILED");
        QApplication::exit(saved ? 0 : 1);
    });
}

} // namespace TrainDesk::Ui::ScreenshotMode
