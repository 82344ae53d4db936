#include "HelpDialogs.h"
#include "common/ScreenFit.h"

#include <QAction>
#include <QDialog>
#include <QDialogButtonBox>
#include <QFile>
#include <QHeaderView>
#include <QMessageBox>
#include <QImage>
#include <QPixmap>
#include <QTableWidget>
#include <QTextBlock>
#include <QTextBrowser>
#include <QTextCursor>
#include <QTextDocument>
#include <QUrl>
#include <QVBoxLayout>

#include <algorithm>

namespace TrainDesk::Ui::HelpDialogs {

namespace {

QDialog *framed(QWidget *parent, const QString &title, QWidget *content, const QSize &size)
{
    auto *dialog = new QDialog(parent);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowTitle(title);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, dialog);
    QObject::connect(buttons, &QDialogButtonBox::rejected, dialog, &QDialog::close);
    auto *layout = new QVBoxLayout(dialog);
    content->setParent(dialog);
    layout->addWidget(content, 1);
    layout->addWidget(buttons);
    ScreenFit::resizeWithin(dialog, size);
    dialog->show();
    return dialog;
}

// Keys that are not an action's but a view's own.
const QList<QPair<QString, QString>> &viewKeys()
{
    static const QList<QPair<QString, QString>> keys{
        {QObject::tr("Del (a share's files)"), QObject::tr("Delete the selected files (asks first)")},
        {QObject::tr("Enter, Backspace (a share's files)"), QObject::tr("Open the folder, go to the folder above")},
        {QObject::tr("Left, Right (a chart)"), QObject::tr("The value of every series at the previous, next step")},
        {QObject::tr("+, -, Ctrl+arrows, Home (a chart)"), QObject::tr("Zoom in, zoom out, pan, fit the data again")},
        {QObject::tr("Enter, Shift+Enter (log's Find)"), QObject::tr("Next, previous match in the log")},
        {QObject::tr("Ctrl+click, Shift+click (runs)"), QObject::tr("Choose several jobs: their charts overlaid")},
        {QObject::tr("Menu key, right click (a run)"),
         QObject::tr("Open, compare, clone, tags, download the model, delete; Colour…: the run's colour in every view")},
        {QObject::tr("? (a chart)"), QObject::tr("The chart's keys and mouse")},
    };
    return keys;
}

// Screenshots at most `width` pixels wide (the dialog's), their shape kept: at their own
// size (1920 wide) they needed scrolling sideways.
void fitImages(QTextBrowser *browser, int width)
{
    QTextCursor cursor(browser->document());
    for (QTextBlock block = browser->document()->begin(); block.isValid(); block = block.next()) {
        for (auto it = block.begin(); !it.atEnd(); ++it) {
            const QTextFragment fragment = it.fragment();
            if (!fragment.isValid() || !fragment.charFormat().isImageFormat())
                continue;
            QTextImageFormat image = fragment.charFormat().toImageFormat();
            const QVariant loaded = browser->loadResource(QTextDocument::ImageResource, QUrl(image.name()));
            // A file's bytes (QTextBrowser reads files so), or an image.
            const QImage picture = loaded.typeId() == QMetaType::QByteArray ? QImage::fromData(loaded.toByteArray())
                                                                           : loaded.value<QImage>();
            const QSize size = picture.size();
            if (size.isEmpty())
                continue;
            const int shown = std::min(width, size.width());
            image.setWidth(shown);
            image.setHeight(double(size.height()) * shown / size.width());
            cursor.setPosition(fragment.position());
            cursor.setPosition(fragment.position() + fragment.length(), QTextCursor::KeepAnchor);
            cursor.setCharFormat(image);
        }
    }
}

} // namespace

QDialog *showUserGuide(QWidget *parent)
{
    auto *browser = new QTextBrowser;
    browser->setObjectName(QStringLiteral("userGuideText"));
    browser->setOpenExternalLinks(true);
    // The guide's pictures ("screenshots/01-first-start.png") are beside it in the resources.
    browser->setSearchPaths({QStringLiteral(":/traindesk/ui/docs")});
    QFile guide(QStringLiteral(":/traindesk/ui/docs/USER_GUIDE.md"));
    browser->setMarkdown(guide.open(QIODevice::ReadOnly) ? QString::fromUtf8(guide.readAll())
                                                         : QObject::tr("The user guide is missing from this build."));
    fitImages(browser, 760);
    return framed(parent, QObject::tr("TrainDesk user guide"), browser, QSize(820, 640));
}

QDialog *showShortcuts(QWidget *parent, const QList<QAction *> &actions)
{
    QList<QPair<QString, QString>> rows;
    for (const QAction *action : actions) {
        if (action->shortcut().isEmpty())
            continue;
        QString text = action->text();
        text.remove(QLatin1Char('&'));
        text.remove(QStringLiteral("…"));
        rows.append({action->shortcut().toString(QKeySequence::NativeText), text});
    }
    rows += viewKeys();
    auto *table = new QTableWidget(int(rows.size()), 2);
    table->setObjectName(QStringLiteral("shortcutTable"));
    table->setHorizontalHeaderLabels({QObject::tr("Keys"), QObject::tr("Does")});
    table->verticalHeader()->setVisible(false);
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table->setSelectionBehavior(QAbstractItemView::SelectRows);
    for (int r = 0; r < rows.size(); ++r) {
        for (int c = 0; c < 2; ++c) {
            auto *item = new QTableWidgetItem(c == 0 ? rows.at(r).first : rows.at(r).second);
            item->setToolTip(item->text());
            table->setItem(r, c, item);
        }
    }
    table->horizontalHeader()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    table->horizontalHeader()->setSectionResizeMode(1, QHeaderView::Stretch);
    table->setWordWrap(false);
    table->setShowGrid(false);
    table->setAlternatingRowColors(true);
    // Rows as high as the text, and a window that shows them all where the screen allows.
    const int rowHeight = table->fontMetrics().height() + 8;
    table->verticalHeader()->setDefaultSectionSize(rowHeight);
    const int height = table->horizontalHeader()->sizeHint().height() + rowHeight * int(rows.size()) + 70;
    // As wide as the longest keys and the longest words beside them (with room for the margins
    // and a scroll bar): no line cut short.
    int keys = 0;
    int does = 0;
    for (const auto &[key, what] : rows) {
        keys = std::max(keys, table->fontMetrics().horizontalAdvance(key));
        does = std::max(does, table->fontMetrics().horizontalAdvance(what));
    }
    return framed(parent, QObject::tr("Keyboard shortcuts"), table, QSize(keys + does + 90, qMin(height, 760)));
}

QString aboutText()
{
    return QObject::tr("<h3>TrainDesk %1</h3>"
                       "<p>Distributed deep-learning training on machines you own: clusters of this machine, "
                       "SSH nodes or Slurm, Batch AI job files, live charts.</p>"
                       "<p>Licence: GNU General Public License, version 3 or later (GPL-3.0-or-later). "
                       "This program comes with no warranty.</p>"
                       "<p>Built with Qt %2 (Qt Charts under the GPLv3).</p>")
        .arg(QStringLiteral(TRAINDESK_VERSION), QString::fromLatin1(qVersion()));
}

QMessageBox *showAbout(QWidget *parent)
{
    auto *box = new QMessageBox(QMessageBox::Information, QObject::tr("About TrainDesk"), aboutText(), QMessageBox::Ok, parent);
    box->setObjectName(QStringLiteral("aboutBox"));
    box->setTextFormat(Qt::RichText);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->setIconPixmap(QIcon(QStringLiteral(":/traindesk/ui/icons/traindesk.svg")).pixmap(64, 64));
    box->open();
    return box;
}

} // namespace TrainDesk::Ui::HelpDialogs
