// A cell too narrow for its text shows the whole text as a tooltip; one that fits, or has
// a tooltip of its own, does not get ours.
#include "common/ElidedToolTips.h"

#include <QApplication>
#include <QHeaderView>
#include <QHelpEvent>
#include <QStandardItemModel>
#include <QTest>
#include <QToolTip>
#include <QTreeView>

using namespace TrainDesk::Ui;

class TestElidedToolTips : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void wholeTextOfElidedCells()
    {
        ElidedToolTips::install();
        QStandardItemModel model;
        const QString longName = QStringLiteral("fashion-mnist-resnet-lr-0.001-batch-256-augment-on");
        model.appendRow(new QStandardItem(longName));
        model.appendRow(new QStandardItem(QStringLiteral("short")));
        auto *own = new QStandardItem(longName);
        own->setToolTip(QStringLiteral("its own tip"));
        model.appendRow(own);
        QTreeView view;
        view.setModel(&model);
        view.header()->setStretchLastSection(false);
        view.setColumnWidth(0, 80);
        view.resize(200, 200);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));

        const auto tipAt = [&](int row) {
            QToolTip::hideText();
            // A tooltip that stays would be read as the next row's: say so instead.
            if (!QTest::qWaitFor([] { return !QToolTip::isVisible(); }, 2000))
                return QStringLiteral("(the previous tooltip did not hide)");
            const QRect cell = view.visualRect(model.index(row, 0));
            QHelpEvent help(QEvent::ToolTip, cell.center(), view.viewport()->mapToGlobal(cell.center()));
            QApplication::sendEvent(view.viewport(), &help);
            return QToolTip::isVisible() ? QToolTip::text() : QString();
        };
        QCOMPARE(tipAt(0), longName);
        QCOMPARE(tipAt(1), QString());
        QCOMPARE(tipAt(2), QStringLiteral("its own tip"));  // the view's own handling
        view.setColumnWidth(0, 900);
        QCOMPARE(tipAt(0), QString());
    }
};

QTEST_MAIN(TestElidedToolTips)
#include "tst_elidedtooltips.moc"
