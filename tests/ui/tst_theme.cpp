// View > Theme: Dark gives the application a dark palette (Fusion) and every chart the
// dark Qt Charts theme, Light gives both back; the choice is remembered.
#include "BackendFixture.h"
#include "MainWindow.h"
#include "TestHome.h"
#include "charts/ChartPanel.h"
#include "charts/MetricsChartView.h"
#include "charts/SystemChartsView.h"
#include "common/ContrastStyle.h"
#include "common/Theme.h"
#include "common/ThemeMenu.h"
#include "job/JobView.h"

#include <QApplication>
#include <QChart>
#include <QMenuBar>
#include <QSettings>
#include <QStyle>
#include <QTest>

using namespace TrainDesk;
using namespace TrainDesk::Ui;

class TestTheme : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_home.isValid());
        QVERIFY(startBackend(m_store, m_backend));
    }

    void switchChangesChartBackground()
    {
        MainWindow window(m_backend.get());
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        auto *menu = window.findChild<ThemeMenu *>(QStringLiteral("themeMenu"));
        QVERIFY(menu);
        QChart *loss = window.jobView()->charts()->lossPanel()->chart();
        QChart *usage = window.jobView()->systemCharts()->usagePanel()->chart();

        menu->actionFor(Theme::Choice::Light)->trigger();
        QVERIFY(!Theme::isDark(qApp->palette()));
        QTRY_VERIFY(loss->backgroundBrush().color().lightness() > 200);
        QCOMPARE(loss->theme(), QChart::ChartThemeLight);
        const QColor lightLabels = loss->axes().first()->labelsBrush().color();

        menu->actionFor(Theme::Choice::Dark)->trigger();
        QVERIFY(Theme::isDark(qApp->palette()));
        QVERIFY(qobject_cast<ContrastStyle *>(QApplication::style()));  // Fusion, check boxes that show
        QTRY_VERIFY(loss->backgroundBrush().color().lightness() < 60);
        QCOMPARE(loss->theme(), QChart::ChartThemeDark);
        QVERIFY(usage->backgroundBrush().color().lightness() < 60);
        // Axis labels stay readable on it: light on dark.
        QVERIFY(loss->axes().first()->labelsBrush().color().lightness() > lightLabels.lightness());
        QCOMPARE(QSettings().value(QStringLiteral("View/theme")).toString(), QStringLiteral("dark"));
        QCOMPARE(Theme::stored(), Theme::Choice::Dark);

        // A window made later starts dark, with Dark ticked.
        MainWindow second(m_backend.get());
        QVERIFY(second.findChild<ThemeMenu *>()->actionFor(Theme::Choice::Dark)->isChecked());
        QVERIFY(second.jobView()->charts()->accuracyPanel()->chart()->backgroundBrush().color().lightness() < 60);

        menu->actionFor(Theme::Choice::Light)->trigger();
        QTRY_VERIFY(loss->backgroundBrush().color().lightness() > 200);
        QCOMPARE(Theme::stored(), Theme::Choice::Light);
    }

private:
    TestHome m_home;
    Store m_store;
    std::unique_ptr<Backend> m_backend;
};

QTEST_MAIN(TestTheme)
#include "tst_theme.moc"
