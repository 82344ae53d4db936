#pragma once

#include <QByteArray>
#include <QIcon>

namespace TrainDesk::Ui {

// The app's own SVG icons (resources/icons, compiled into traindesk_ui.qrc), by file name
// without ".svg": "new-job", "clone", "upload"..., drawn for the light or dark palette
// (ThemedSvgIconEngine).
QIcon appIcon(const QString &name);
// A file of the ui resources (":/traindesk/ui/<path>"), e.g. a job template.
QByteArray uiResource(const QString &path);

} // namespace TrainDesk::Ui
