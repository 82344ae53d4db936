// The dark theme can be read: each text role of the dark palette against its background,
// every icon of the app and of the main window's toolbar, and check boxes, reach 4.5:1
// (WCAG 2's contrast for text) against the window they are drawn on.
#include "BackendFixture.h"
#include "MainWindow.h"
#include "TestHome.h"
#include "common/Contrast.h"
#include "common/ErrorText.h"
#include "common/Icons.h"
#include "common/Theme.h"
#include "common/ThemedSvgIconEngine.h"

#include <QApplication>
#include <QCheckBox>
#include <QImage>
#include <QLabel>
#include <QPainter>
#include <QStyle>
#include <QStyleOptionButton>
#include <QTest>
#include <QToolBar>

using namespace TrainDesk;
using namespace TrainDesk::Ui;

namespace {

// The share of the icon's area (`image`, drawn over `background`) that stands out from the
// background by 4.5:1 or more: its strokes and marks (its fills may be quiet).
double readableShare(const QImage &image, const QColor &background)
{
    int readable = 0;
    for (int y = 0; y < image.height(); ++y) {
        for (int x = 0; x < image.width(); ++x)
            readable += Contrast::ratio(image.pixelColor(x, y), background) >= Contrast::minimumRatio ? 1 : 0;
    }
    return double(readable) / (image.width() * image.height());
}

QImage iconOver(const QIcon &icon, const QColor &background, int size = 24)
{
    QImage image(size, size, QImage::Format_ARGB32);
    image.fill(background);
    QPainter painter(&image);
    icon.paint(&painter, image.rect());
    return image;
}

// An icon is readable when its strokes reach 4.5:1: a 24-pixel icon's outline covers about a
// tenth of it, a black stop square on a dark window none.
constexpr double readableIconShare = 0.06;

} // namespace

class TestContrast : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_home.isValid());
        Theme::applyOnly(Theme::Choice::Dark);
        QVERIFY(Theme::isDark(QApplication::palette()));
    }

    void ratioIsWcags()
    {
        QCOMPARE(Contrast::ratio(Qt::black, Qt::white), 21.0);
        QCOMPARE(Contrast::ratio(Qt::white, Qt::white), 1.0);
        // #767676 on white is the lightest grey WCAG's examples give 4.5:1.
        QVERIFY(Contrast::ratio(QColor(0x76, 0x76, 0x76), Qt::white) >= 4.5);
        QVERIFY(Contrast::ratio(QColor(0x77, 0x77, 0x77), Qt::white) < 4.5);
    }

    void darkPaletteRoles_data()
    {
        QTest::addColumn<int>("group");
        QTest::addColumn<int>("text");
        QTest::addColumn<int>("background");
        const QList<std::tuple<const char *, QPalette::ColorRole, QPalette::ColorRole>> pairs{
            {"WindowText on Window", QPalette::WindowText, QPalette::Window},
            {"Text on Base", QPalette::Text, QPalette::Base},
            {"Text on AlternateBase", QPalette::Text, QPalette::AlternateBase},
            {"ButtonText on Button", QPalette::ButtonText, QPalette::Button},
            {"ToolTipText on ToolTipBase", QPalette::ToolTipText, QPalette::ToolTipBase},
            {"HighlightedText on Highlight", QPalette::HighlightedText, QPalette::Highlight},
            {"PlaceholderText on Base", QPalette::PlaceholderText, QPalette::Base},
            {"Link on Base", QPalette::Link, QPalette::Base},
            {"LinkVisited on Base", QPalette::LinkVisited, QPalette::Base},
            {"BrightText on Window", QPalette::BrightText, QPalette::Window},
        };
        for (const auto &[name, text, background] : pairs)
            QTest::newRow(name) << int(QPalette::Active) << int(text) << int(background);
        QTest::newRow("disabled WindowText on Window") << int(QPalette::Disabled) << int(QPalette::WindowText)
                                                       << int(QPalette::Window);
    }

    void darkPaletteRoles()
    {
        QFETCH(int, group);
        QFETCH(int, text);
        QFETCH(int, background);
        const QPalette p = Theme::darkPalette();
        const auto g = QPalette::ColorGroup(group);
        const double ratio = Contrast::ratio(p.color(g, QPalette::ColorRole(text)), p.color(g, QPalette::ColorRole(background)));
        QVERIFY2(ratio >= Contrast::minimumRatio, qPrintable(QString::number(ratio, 'f', 2)));
    }

    void appIcons_data()
    {
        QTest::addColumn<QString>("name");
        for (const char *name : {"new-job", "clone", "import", "export", "new-workspace", "new-experiment", "new-share",
                                 "upload", "start", "terminate"})
            QTest::newRow(name) << QString::fromLatin1(name);
    }

    void appIcons()
    {
        QFETCH(QString, name);
        const QIcon icon = appIcon(name);
        QVERIFY(!icon.isNull());
        for (const QPalette &palette : {Theme::darkPalette(), QApplication::style()->standardPalette()}) {
            // Drawn for the palette the application has when painted.
            QApplication::setPalette(palette);
            for (QPalette::ColorRole role : {QPalette::Window, QPalette::Button}) {
                const double share = readableShare(iconOver(icon, palette.color(role)), palette.color(role));
                QVERIFY2(share >= readableIconShare,
                         qPrintable(QStringLiteral("%1 on %2 (%3): %4 of its area reaches 4.5:1")
                                        .arg(name, palette.color(role).name(),
                                             Theme::isDark(palette) ? QStringLiteral("dark") : QStringLiteral("light"))
                                        .arg(share, 0, 'f', 2)));
            }
        }
        QApplication::setPalette(Theme::darkPalette());
    }

    void toolbarIcons()
    {
        QVERIFY(startBackend(m_store, m_backend));
        MainWindow window(m_backend.get());
        QStringList problems;
        for (QToolBar *bar : window.findChildren<QToolBar *>()) {
            for (QAction *action : bar->actions()) {
                if (action->isSeparator() || action->icon().isNull())
                    continue;
                const QColor window = QApplication::palette().color(QPalette::Window);
                const double share = readableShare(iconOver(action->icon(), window), window);
                if (share < readableIconShare)
                    problems << QStringLiteral("%1: %2").arg(action->iconText()).arg(share, 0, 'f', 2);
            }
        }
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QStringLiteral("; "))));
    }

    void cleanupTestCase() { m_backend.reset(); }

    void checkBoxesShow()
    {
        for (bool checked : {false, true}) {
            QCheckBox box(QStringLiteral("Per rank"));
            box.setChecked(checked);
            box.resize(box.sizeHint());
            const QImage image = box.grab().toImage();
            QStyleOptionButton option;
            option.initFrom(&box);
            const QRect indicator = box.style()->subElementRect(QStyle::SE_CheckBoxIndicator, &option, &box);
            const QColor window = box.palette().color(QPalette::Window);
            int readable = 0;
            for (int y = indicator.top(); y <= indicator.bottom(); ++y) {
                for (int x = indicator.left(); x <= indicator.right(); ++x)
                    readable += Contrast::ratio(image.pixelColor(x, y), window) >= Contrast::minimumRatio ? 1 : 0;
            }
            // At least half its frame stands out from the window.
            QVERIFY2(readable >= indicator.width() * 2, qPrintable(QStringLiteral("checked %1: %2 pixels of %3x%4")
                                                                      .arg(checked).arg(readable)
                                                                      .arg(indicator.width()).arg(indicator.height())));
        }
    }

    void errorTextReadable()
    {
        // The red of error messages against the window and the fields, in both themes
        // (#9C0722 on #2B2D31 was 1.62:1, issue 43); a marked label takes the theme's red
        // when View > Theme changes.
        const QPalette light = QApplication::style()->standardPalette();
        for (const QPalette &palette : {Theme::darkPalette(), light}) {
            const QColor red = ErrorText::color(palette);
            QVERIFY2(red.red() > red.green() && red.red() > red.blue(), qPrintable(red.name()));  // still red
            for (QPalette::ColorRole background : {QPalette::Window, QPalette::Base}) {
                const double ratio = Contrast::ratio(red, palette.color(background));
                QVERIFY2(ratio >= Contrast::minimumRatio, qPrintable(QStringLiteral("%1 on %2: %3").arg(red.name(),
                    palette.color(background).name()).arg(ratio, 0, 'f', 2)));
            }
        }
        QWidget page;  // a label on a page, as in a wizard (top-level widgets hear it otherwise)
        QLabel &label = *new QLabel(QStringLiteral("The name is taken"), &page);
        ErrorText::mark(&label);
        QCOMPARE(label.palette().color(QPalette::WindowText), ErrorText::color(Theme::darkPalette()));
        QApplication::setPalette(light);
        QCOMPARE(label.palette().color(QPalette::WindowText), ErrorText::color(light));
        QApplication::setPalette(Theme::darkPalette());
        QCOMPARE(label.palette().color(QPalette::WindowText), ErrorText::color(Theme::darkPalette()));
        ErrorText::clear(&label);
        QCOMPARE(label.palette().color(QPalette::WindowText), Theme::darkPalette().color(QPalette::WindowText));
    }

private:
    TestHome m_home;
    Store m_store;
    std::unique_ptr<Backend> m_backend;
};

QTEST_MAIN(TestContrast)
#include "tst_contrast.moc"
