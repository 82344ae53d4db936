#include "ScreenshotMode.h"

#include "wizards/UploadPage.h"

#include <QAbstractButton>
#include <QAbstractItemView>
#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDialog>
#include <QLineEdit>
#include <QListWidget>
#include <QMenu>
#include <QPlainTextEdit>
#include <QSpinBox>
#include <QTabWidget>
#include <QScreen>
#include <QSettings>
#include <QTimer>
#include <QToolButton>
#include <QWizard>

namespace TrainDesk::Ui::ScreenshotMode {

namespace {

// The newest visible wizard or dialog (the Data sets dialog) the action opened.
QDialog *openWizard(QWidget *window)
{
    const QList<QDialog *> wizards = window->findChildren<QDialog *>();
    for (auto it = wizards.crbegin(); it != wizards.crend(); ++it) {
        if ((*it)->isVisible())
            return *it;
    }
    return nullptr;
}

// One step of TRAINDESK_SCREENSHOT_STEPS on the open wizard (or the main window when no
// action opened one): "next", "name=value" (sets the named field), "click:name",
// "activate:name=row" (as Enter on a list row), "select:name=0,2" (rows of a view chosen
// together), "tab:name=1" (a page of a tab widget), "menu:name=text" (the entry of a tool
// button's menu), "files:/a,/b" (files to upload, on the share wizard's upload page).
void runStep(QWidget *root, const QString &step)
{
    auto *wizard = qobject_cast<QWizard *>(root);
    if (step == QLatin1String("next")) {
        if (wizard)
            wizard->next();
        return;
    }
    if (step.startsWith(QLatin1String("menu:"))) {
        const QString entry = step.mid(5);
        const qsizetype eq = entry.indexOf(QLatin1Char('='));
        // The one on screen: the job's charts and the runs view's both have a compareButton.
        for (QToolButton *button : root->findChildren<QToolButton *>(entry.left(eq))) {
            if (!button->isVisible() || !button->menu())
                continue;
            for (QAction *action : button->menu()->actions()) {
                if (action->text() == entry.mid(eq + 1))
                    action->trigger();
            }
        }
        return;
    }
    if (step.startsWith(QLatin1String("files:"))) {
        if (auto *upload = root->findChild<UploadPage *>())
            upload->addFiles(step.mid(6).split(QLatin1Char(','), Qt::SkipEmptyParts));
        return;
    }
    if (step.startsWith(QLatin1String("click:"))) {
        if (auto *button = root->findChild<QAbstractButton *>(step.mid(6)))
            button->click();
        return;
    }
    if (step.startsWith(QLatin1String("tab:"))) {
        // "tab:name=1": that page of a tab widget (the runs view's plots).
        const QString entry = step.mid(4);
        const qsizetype eq = entry.indexOf(QLatin1Char('='));
        if (auto *tabs = root->findChild<QTabWidget *>(entry.left(eq)))
            tabs->setCurrentIndex(entry.mid(eq + 1).toInt());
        return;
    }
    if (step.startsWith(QLatin1String("select:"))) {
        // "select:name=0,2": those rows of a view chosen together (the runs table's overlay).
        const QString entry = step.mid(7);
        const qsizetype eq = entry.indexOf(QLatin1Char('='));
        auto *view = root->findChild<QAbstractItemView *>(entry.left(eq));
        if (!view)
            return;
        QItemSelection rows;
        for (const QString &row : entry.mid(eq + 1).split(QLatin1Char(','), Qt::SkipEmptyParts)) {
            const QModelIndex index = view->model()->index(row.toInt(), 0);
            rows.select(index, index.siblingAtColumn(view->model()->columnCount() - 1));
        }
        view->selectionModel()->select(rows, QItemSelectionModel::ClearAndSelect);
        return;
    }
    const bool activate = step.startsWith(QLatin1String("activate:"));
    const QString assignment = activate ? step.mid(9) : step;
    const qsizetype eq = assignment.indexOf(QLatin1Char('='));
    if (eq < 0)
        return;
    const QString name = assignment.left(eq);
    const QString value = assignment.mid(eq + 1);
    QWidget *field = root->findChild<QWidget *>(name);
    if (auto *view = qobject_cast<QAbstractItemView *>(field)) {
        const QModelIndex index = view->model()->index(value.toInt(), 0);
        view->setCurrentIndex(index);
        if (activate)
            Q_EMIT view->activated(index);
    } else if (auto *edit = qobject_cast<QLineEdit *>(field)) {
        edit->setText(value);
    } else if (auto *text = qobject_cast<QPlainTextEdit *>(field)) {
        text->setPlainText(value);
    } else if (auto *combo = qobject_cast<QComboBox *>(field)) {
        if (combo->isEditable())
            combo->setEditText(value);
        else
            combo->setCurrentIndex(combo->findText(value) >= 0 ? combo->findText(value) : value.toInt());
    } else if (auto *spin = qobject_cast<QSpinBox *>(field)) {
        spin->setValue(value.toInt());
    } else if (auto *button = qobject_cast<QAbstractButton *>(field)) {
        button->setChecked(value == QLatin1String("1") || value == QLatin1String("true"));
    }
}

} // namespace

void installFromEnvironment(const Target &target)
{
    QWidget *window = target.window;
    const QString path = qEnvironmentVariable("TRAINDESK_SCREENSHOT");
    if (path.isEmpty())
        return;
    // The screens as a returning user sees them: Xvfb's pointer rests over a chart, which
    // would show the charts' one-time keys hint in every picture.
    QSettings().setValue(QStringLiteral("Charts/keysHintShown"), true);
    const QString select = qEnvironmentVariable("TRAINDESK_SCREENSHOT_SELECT");
    const QString tab = qEnvironmentVariable("TRAINDESK_SCREENSHOT_TAB");
    const QString action = qEnvironmentVariable("TRAINDESK_SCREENSHOT_ACTION");
    const QStringList steps = qEnvironmentVariable("TRAINDESK_SCREENSHOT_STEPS").split(QLatin1Char('|'), Qt::SkipEmptyParts);
    // The whole screen (render.sh's 1024x700 and 1920x1080 shots), as a maximized window.
    if (qEnvironmentVariable("TRAINDESK_SCREENSHOT_FILL") == QLatin1String("1") && window->screen())
        window->setGeometry(window->screen()->availableGeometry());
    bool ok = false;
    const double delay = qEnvironmentVariable("TRAINDESK_SCREENSHOT_DELAY").toDouble(&ok);
    const int delayMs = ok && delay > 0 ? int(delay * 1000) : 5000;

    // Selecting needs the first snapshot: try a few times, early. Then the action (a
    // wizard) and its steps, half a second apart so that the worker can answer between.
    auto *chooser = new QTimer(window);
    chooser->setInterval(200);
    QObject::connect(chooser, &QTimer::timeout, window, [=, tries = 0]() mutable {
        const bool selected = select.isEmpty() || target.selectByName(select);
        if (selected) {
            if (auto *tabs = qobject_cast<QTabWidget *>(target.currentView()); tabs && !tab.isEmpty()) {
                for (int i = 0; i < tabs->count(); ++i) {
                    if (tabs->tabText(i).remove(QLatin1Char('&')).compare(tab, Qt::CaseInsensitive) == 0)
                        tabs->setCurrentIndex(i);
                }
            }
        }
        if (!selected && ++tries <= 25)
            return;
        chooser->stop();
        if (!action.isEmpty()) {
            if (auto *a = window->findChild<QAction *>(action))
                a->trigger();
        }
        for (qsizetype i = 0; i < steps.size(); ++i) {
            QTimer::singleShot(500 * int(i + 1), window, [window, step = steps.at(i), onWizard = !action.isEmpty()] {
                if (!onWizard)
                    runStep(window, step);
                else if (QDialog *wizard = openWizard(window))
                    runStep(wizard, step);
            });
        }
    });
    chooser->start();
    QTimer::singleShot(delayMs, window, [window, path] {
        // A wizard open: its window is the picture.
        QWidget *target = openWizard(window);
        const bool saved = (target ? target : static_cast<QWidget *>(window))->grab().save(path, "PNG");
        qInfo("screenshot %s: %s", qPrintable(path), saved ? "saved" : "FAILED");
        QApplication::exit(saved ? 0 : 1);
    });
}

} // namespace TrainDesk::Ui::ScreenshotMode
