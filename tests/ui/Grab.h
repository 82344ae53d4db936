#pragma once

#include <QDir>
#include <QPixmap>
#include <QWidget>

// With TRAINDESK_UI_GRABS=<folder> set, a test saves what its widgets look like at that
// moment as <folder>/<name>.png (the whole window `widget` is in), to be looked at; without
// it nothing happens. Offscreen, so fonts and sizes are those of the tests.
inline void saveGrab(QWidget *widget, const QString &name)
{
    const QString folder = qEnvironmentVariable("TRAINDESK_UI_GRABS");
    if (folder.isEmpty() || !widget)
        return;
    QDir().mkpath(folder);
    widget->window()->grab().save(folder + QLatin1Char('/') + name + QStringLiteral(".png"));
}
