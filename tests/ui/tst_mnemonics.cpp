// Every page of every wizard, and the main window's menus: no label shows a literal "&"
// (a label with an ampersand and no buddy draws it), and no two things on one page share
// an Alt key, nor take the wizard's own (Alt+N is Next, Alt+B Back, Alt+F Finish).
#include "BackendFixture.h"
#include "MainWindow.h"
#include "TestHome.h"
#include "wizards/NewJobWizard.h"
#include "wizards/ShareWizard.h"
#include "wizards/WorkspaceWizard.h"
#include "wizards/cluster/ClusterWizard.h"

#include <QAbstractButton>
#include <QGroupBox>
#include <QLabel>
#include <QMenuBar>
#include <QRegularExpression>
#include <QTest>
#include <QWizard>

using namespace TrainDesk;
using namespace TrainDesk::Ui;

namespace {

// The letter after a single "&" ("&&" is an ampersand), lower case; 0 when none.
QChar mnemonic(const QString &text)
{
    for (qsizetype i = 0; i + 1 < text.size(); ++i) {
        if (text.at(i) != QLatin1Char('&'))
            continue;
        if (text.at(i + 1) == QLatin1Char('&')) {
            ++i;
            continue;
        }
        return text.at(i + 1).toLower();
    }
    return QChar();
}

bool showsAmpersand(const QLabel *label)
{
    if (label->buddy())
        return false;
    QString text = label->text();
    text.remove(QStringLiteral("&&"));
    // Rich text writes its own entities (&lt; &amp; &#8230;).
    if (label->textFormat() != Qt::PlainText)
        text.remove(QRegularExpression(QStringLiteral("&(#?\\w+);")));
    return text.contains(QLatin1Char('&'));
}

// "page: problem" for each literal "&" and each clash among `page`'s visible parts.
QStringList problemsOf(QWidget *page, const QString &where, QHash<QChar, QString> taken)
{
    QStringList problems;
    for (QLabel *label : page->findChildren<QLabel *>()) {
        if (!label->isVisibleTo(page))
            continue;
        if (showsAmpersand(label))
            problems << QStringLiteral("%1: label \"%2\" shows its &").arg(where, label->text());
        else if (label->buddy())
            if (const QChar m = mnemonic(label->text()); !m.isNull()) {
                if (taken.contains(m))
                    problems << QStringLiteral("%1: Alt+%2 is \"%3\" and \"%4\"").arg(where, m, taken.value(m), label->text());
                taken.insert(m, label->text());
            }
    }
    for (QAbstractButton *button : page->findChildren<QAbstractButton *>()) {
        if (!button->isVisibleTo(page))
            continue;
        if (const QChar m = mnemonic(button->text()); !m.isNull()) {
            if (taken.contains(m))
                problems << QStringLiteral("%1: Alt+%2 is \"%3\" and \"%4\"").arg(where, m, taken.value(m), button->text());
            taken.insert(m, button->text());
        }
    }
    return problems;
}

QStringList wizardProblems(QWizard *wizard, const QString &name)
{
    // The wizard's own buttons as Qt names them on Linux: Back, Next, Finish.
    QHash<QChar, QString> buttons;
    for (QWizard::WizardButton b : {QWizard::BackButton, QWizard::NextButton, QWizard::FinishButton}) {
        if (const QChar m = mnemonic(wizard->buttonText(b)); !m.isNull())
            buttons.insert(m, wizard->buttonText(b));
    }
    QStringList problems;
    for (int id : wizard->pageIds())
        problems += problemsOf(wizard->page(id), QStringLiteral("%1 page \"%2\"").arg(name, wizard->page(id)->title()),
                               buttons);
    return problems;
}

} // namespace

class TestMnemonics : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_home.isValid());
        QVERIFY(startBackend(m_store, m_backend));
    }

    void wizardsHaveNoLiteralAmpersandNorClash()
    {
        QWidget parent;
        QStringList problems;
        auto *newJob = new NewJobWizard(m_backend.get(), &parent);
        QCOMPARE(mnemonic(newJob->buttonText(QWizard::NextButton)), QLatin1Char('n'));
        problems += wizardProblems(newJob, QStringLiteral("New job"));
        problems += wizardProblems(new WorkspaceWizard(m_backend.get(), WorkspaceWizard::Mode::NewWorkspace, &parent),
                                   QStringLiteral("New workspace"));
        problems += wizardProblems(new ShareWizard(m_backend.get(), &parent), QStringLiteral("New share"));
        problems += wizardProblems(new ClusterWizard(DataPaths::databasePath(), {QStringLiteral("default")}, &parent),
                                   QStringLiteral("New cluster"));
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
    }

    void mainWindowMenusHaveNoClash()
    {
        MainWindow window(m_backend.get());
        QStringList problems;
        QHash<QChar, QString> bar;
        for (QAction *menuAction : window.menuBar()->actions()) {
            const QChar m = mnemonic(menuAction->text());
            if (bar.contains(m))
                problems << QStringLiteral("menu bar: Alt+%1 is %2 and %3").arg(m, bar.value(m), menuAction->text());
            bar.insert(m, menuAction->text());
            QHash<QChar, QString> inMenu;
            for (QAction *a : menuAction->menu()->actions()) {
                const QChar k = mnemonic(a->text());
                if (k.isNull())
                    continue;
                if (inMenu.contains(k))
                    problems << QStringLiteral("%1 menu: %2 is %3 and %4").arg(menuAction->text(), k, inMenu.value(k), a->text());
                inMenu.insert(k, a->text());
            }
        }
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
    }

private:
    TestHome m_home;
    Store m_store;
    std::unique_ptr<Backend> m_backend;
};

QTEST_MAIN(TestMnemonics)
#include "tst_mnemonics.moc"
