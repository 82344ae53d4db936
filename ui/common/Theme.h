#pragma once

#include <QPalette>
#include <QString>

namespace TrainDesk::Ui::Theme {

// What View > Theme offers. System follows the desktop: its own palette where the
// platform gives one, and Fusion with a dark palette where the desktop asks for dark
// (GNOME's color-scheme, GTK_THEME=...:dark) but the platform gives Qt only a light one.
enum class Choice { System, Light, Dark };

QString name(Choice choice);                 // "system", "light", "dark" (the setting's value)
Choice choiceFromName(const QString &name);  // unknown: System

// The remembered choice (QSettings View/theme), System when none.
Choice stored();
// Applies `choice` to the application (style and palette) and remembers it. Widgets get a
// PaletteChange event; charts follow it (ChartPanel).
void apply(Choice choice);
// The same, for this run only (not remembered).
void applyOnly(Choice choice);
// Applies the remembered choice (at start); TRAINDESK_THEME (system, light, dark) overrides
// it for this run without being remembered (docs/screenshots/render.sh --dark).
void applyStored();

bool isDark(const QPalette &palette);
QPalette darkPalette();
// Whether the desktop asks for a dark look, whatever palette Qt was given.
bool desktopPrefersDark();

} // namespace TrainDesk::Ui::Theme
