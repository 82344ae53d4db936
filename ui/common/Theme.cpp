#include "Theme.h"

#include "ContrastStyle.h"

#include <QApplication>
#include <QProcess>
#include <QSettings>
#include <QStandardPaths>
#include <QStyle>
#include <QStyleFactory>

namespace TrainDesk::Ui::Theme {

namespace {

const char settingKey[] = "View/theme";

// What the platform gave the application before any choice was applied.
struct Platform
{
    QString styleName;
    QPalette palette;
};

const Platform &platform()
{
    static const Platform p{QApplication::style()->name(), QApplication::palette()};
    return p;
}

void useFusion(bool dark)
{
    // Fusion, with check boxes that show on a dark palette (ContrastStyle).
    if (!qobject_cast<ContrastStyle *>(QApplication::style()))
        QApplication::setStyle(new ContrastStyle);
    QApplication::setPalette(dark ? darkPalette() : QApplication::style()->standardPalette());
}

void usePlatform()
{
    const Platform &p = platform();
    if (QApplication::style()->name() != p.styleName)
        QApplication::setStyle(QStyleFactory::create(p.styleName));
    QApplication::setPalette(p.palette);
}

} // namespace

QString name(Choice choice)
{
    switch (choice) {
    case Choice::Light:
        return QStringLiteral("light");
    case Choice::Dark:
        return QStringLiteral("dark");
    case Choice::System:
        break;
    }
    return QStringLiteral("system");
}

Choice choiceFromName(const QString &name)
{
    if (name == QLatin1String("light"))
        return Choice::Light;
    if (name == QLatin1String("dark"))
        return Choice::Dark;
    return Choice::System;
}

Choice stored()
{
    return choiceFromName(QSettings().value(QLatin1String(settingKey)).toString());
}

bool isDark(const QPalette &palette)
{
    return palette.color(QPalette::Window).lightness() < 128;
}

QPalette darkPalette()
{
    // Fusion's dark colours as KDE's Breeze Dark and Qt Creator's dark theme choose them.
    QPalette p;
    const QColor window(0x2b, 0x2d, 0x31), base(0x1e, 0x1f, 0x22), text(0xe6, 0xe6, 0xe6);
    // Placeholder and disabled text, and white on the selection, at 4.5:1 or more
    // (tests/ui/tst_contrast).
    const QColor disabledText(0x96, 0x96, 0x96), highlight(0x33, 0x6f, 0xcc);
    p.setColor(QPalette::Window, window);
    p.setColor(QPalette::WindowText, text);
    p.setColor(QPalette::Base, base);
    p.setColor(QPalette::AlternateBase, QColor(0x26, 0x28, 0x2c));
    p.setColor(QPalette::ToolTipBase, QColor(0x36, 0x38, 0x3d));
    p.setColor(QPalette::ToolTipText, text);
    p.setColor(QPalette::PlaceholderText, disabledText);
    p.setColor(QPalette::Text, text);
    p.setColor(QPalette::Button, QColor(0x35, 0x37, 0x3c));
    p.setColor(QPalette::ButtonText, text);
    p.setColor(QPalette::BrightText, QColor(0xff, 0x6b, 0x6b));
    p.setColor(QPalette::Light, QColor(0x45, 0x47, 0x4d));
    p.setColor(QPalette::Midlight, QColor(0x3a, 0x3c, 0x41));
    p.setColor(QPalette::Mid, QColor(0x25, 0x26, 0x29));
    p.setColor(QPalette::Dark, QColor(0x18, 0x19, 0x1b));
    p.setColor(QPalette::Shadow, Qt::black);
    p.setColor(QPalette::Highlight, highlight);
    p.setColor(QPalette::HighlightedText, Qt::white);
    p.setColor(QPalette::Link, QColor(0x6c, 0xb0, 0xff));
    p.setColor(QPalette::LinkVisited, QColor(0xb0, 0x8c, 0xff));
    for (QPalette::ColorRole role : {QPalette::WindowText, QPalette::Text, QPalette::ButtonText})
        p.setColor(QPalette::Disabled, role, disabledText);
    p.setColor(QPalette::Disabled, QPalette::Highlight, QColor(0x50, 0x52, 0x57));
    return p;
}

bool desktopPrefersDark()
{
    if (isDark(platform().palette))
        return true;
    if (qEnvironmentVariable("GTK_THEME").endsWith(QLatin1String(":dark"), Qt::CaseInsensitive))
        return true;
    // GNOME 42 and later (and desktops that follow its setting): "'prefer-dark'".
    static const bool gnomeDark = [] {
        const QString gsettings = QStandardPaths::findExecutable(QStringLiteral("gsettings"));
        if (gsettings.isEmpty())
            return false;
        QProcess p;
        p.start(gsettings, {QStringLiteral("get"), QStringLiteral("org.gnome.desktop.interface"),
                            QStringLiteral("color-scheme")});
        if (!p.waitForFinished(1000)) {
            p.kill();
            p.waitForFinished(1000);
            return false;
        }
        return p.exitCode() == 0 && p.readAllStandardOutput().contains("dark");
    }();
    return gnomeDark;
}

void applyOnly(Choice choice)
{
    platform();  // taken before the first change
    const bool platformDark = isDark(platform().palette);
    const bool dark = choice == Choice::Dark || (choice == Choice::System && desktopPrefersDark());
    if (dark == platformDark)
        usePlatform();
    else
        useFusion(dark);
}

void apply(Choice choice)
{
    applyOnly(choice);
    QSettings().setValue(QLatin1String(settingKey), name(choice));
}

void applyStored()
{
    const QString forced = qEnvironmentVariable("TRAINDESK_THEME");
    applyOnly(forced.isEmpty() ? stored() : choiceFromName(forced));
}

} // namespace TrainDesk::Ui::Theme
