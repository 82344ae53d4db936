#pragma once

#include <QString>

#include <functional>

class QWidget;

namespace TrainDesk::Ui {

// For docs/screenshots/render.sh: with TRAINDESK_SCREENSHOT=file.png the window selects
// TRAINDESK_SCREENSHOT_SELECT (a name in the tree), opens tab TRAINDESK_SCREENSHOT_TAB,
// saves a grab of itself after TRAINDESK_SCREENSHOT_DELAY seconds (default 5) and quits;
// TRAINDESK_SCREENSHOT_FILL=1 makes the window as big as the screen first.
// TRAINDESK_SCREENSHOT_ACTION (an action's objectName, e.g. newJobAction) opens a wizard,
// TRAINDESK_SCREENSHOT_STEPS ("next|jobNameEdit=x|activate:issueList=0|files:/a", see the .cpp)
// drives it, and then the wizard is what is saved. Without an action the steps act on the
// main window ("perRankCheck=1", "menu:compareButton=job-name").
// It knows the window by these three (not MainWindow's header: MainWindow installs it).
namespace ScreenshotMode {
struct Target
{
    QWidget *window = nullptr;
    // Selects a resource by its name in the tree; false while the tree does not have it yet.
    std::function<bool(const QString &name)> selectByName;
    // The view shown for the selection (a QTabWidget for jobs, sweeps, ...).
    std::function<QWidget *()> currentView;
};
void installFromEnvironment(const Target &target);
}

} // namespace TrainDesk::Ui
