#pragma once

namespace TrainDesk::Ui {

class MainWindow;

// For docs/screenshots/render.sh: with TRAINDESK_SCREENSHOT=file.png the window selects
// TRAINDESK_SCREENSHOT_SELECT (a name in the tree), opens tab TRAINDESK_SCREENSHOT_TAB,
// saves a grab of itself after TRAINDESK_SCREENSHOT_DELAY seconds (default 5) and quits;
// TRAINDESK_SCREENSHOT_FILL=1 makes the window as big as the screen first.
// TRAINDESK_SCREENSHOT_ACTION (an action's objectName, e.g. newJobAction) opens a wizard,
// TRAINDESK_SCREENSHOT_STEPS ("next|jobNameEdit=x|activate:issueList=0|files:/a", see the .cpp)
// drives it, and then the wizard is what is saved. Without an action the steps act on the
// main window ("perRankCheck=1", "menu:compareButton=job-name").
namespace ScreenshotMode {
void installFromEnvironment(MainWindow *window);
}

} // namespace TrainDesk::Ui
