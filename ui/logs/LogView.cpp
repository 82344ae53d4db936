#include "LogView.h"

#include "common/StateStyle.h"
#include "session/Backend.h"

#include <QComboBox>
#include <QFontDatabase>
#include <QGuiApplication>
#include <QHash>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QScrollBar>
#include <QSettings>
#include <QStyle>
#include <QTextBlock>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>

namespace TrainDesk::Ui {

namespace {

const QString stdoutFile = QStringLiteral("stdouterr/stdout.txt");
const QString stderrFile = QStringLiteral("stdouterr/stderr.txt");
constexpr int maxHighlights = 2000;
const QColor searchMatchBackground(0xff, 0xe0, 0x66);
const QColor searchMatchText(0x1a, 0x1a, 0x1a);

// "0-1, 4": runs of consecutive ranks.
QString rankRanges(const QList<int> &ranks)
{
    QStringList runs;
    for (qsizetype i = 0; i < ranks.size();) {
        qsizetype j = i;
        while (j + 1 < ranks.size() && ranks.at(j + 1) == ranks.at(j) + 1)
            ++j;
        runs << (i == j ? QString::number(ranks.at(i)) : QStringLiteral("%1-%2").arg(ranks.at(i)).arg(ranks.at(j)));
        i = j + 1;
    }
    return runs.join(QStringLiteral(", "));
}

} // namespace

LogView::LogView(Backend *backend, QWidget *parent)
    : QWidget(parent),
      m_backend(backend),
      m_fileCombo(new QComboBox(this)),
      m_rankCombo(new QComboBox(this)),
      m_nodeCombo(new QComboBox(this)),
      m_search(new QLineEdit(this)),
      m_matches(new QLabel(this)),
      m_followButton(new QToolButton(this)),
      m_endButton(new QToolButton(this)),
      m_wrapButton(new QToolButton(this)),
      m_notice(new QLabel(this)),
      m_text(new QPlainTextEdit(this))
{
    m_fileCombo->setObjectName(QStringLiteral("logFileCombo"));
    m_fileCombo->setMinimumContentsLength(24);
    m_fileCombo->addItem(QStringLiteral("stdout.txt"), stdoutFile);
    m_fileCombo->addItem(QStringLiteral("stderr.txt"), stderrFile);
    m_rankCombo->addItem(tr("All ranks"), -1);
    m_nodeCombo->setObjectName(QStringLiteral("logNodeCombo"));
    m_nodeCombo->addItem(tr("All nodes"), QString());
    m_nodeCombo->setToolTip(tr("Show the lines of the ranks that ran on one node"));
    m_nodeCombo->setVisible(false);
    m_search->setPlaceholderText(tr("Find in log (Enter: next, Shift+Enter: previous)"));
    m_search->setClearButtonEnabled(true);
    m_followButton->setText(tr("Follow"));
    m_followButton->setCheckable(true);
    m_followButton->setChecked(true);
    m_followButton->setToolTip(tr("Keep the newest lines in view; scrolling up pauses it"));
    m_endButton->setText(tr("Jump to end"));
    m_endButton->setIcon(style()->standardIcon(QStyle::SP_ArrowDown));
    m_endButton->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    // Long lines (a traceback's, a progress bar's) folded to the window's width or not;
    // remembered (QSettings Logs/wrap).
    m_wrapButton->setObjectName(QStringLiteral("logWrapButton"));
    m_wrapButton->setText(tr("Wrap lines"));
    m_wrapButton->setCheckable(true);
    m_wrapButton->setChecked(QSettings().value(QStringLiteral("Logs/wrap"), false).toBool());
    m_wrapButton->setToolTip(tr("Fold long lines to the width of the window"));
    m_notice->setVisible(false);
    m_text->setReadOnly(true);
    m_text->setLineWrapMode(m_wrapButton->isChecked() ? QPlainTextEdit::WidgetWidth : QPlainTextEdit::NoWrap);
    m_text->setMaximumBlockCount(maxLines);
    m_text->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_text->setPlaceholderText(tr("Nothing written yet."));

    auto *bar = new QHBoxLayout;
    bar->addWidget(new QLabel(tr("File:"), this));
    bar->addWidget(m_fileCombo);
    bar->addWidget(m_rankCombo);
    bar->addWidget(m_nodeCombo);
    bar->addWidget(m_search, 1);
    bar->addWidget(m_matches);
    bar->addWidget(m_wrapButton);
    bar->addWidget(m_followButton);
    bar->addWidget(m_endButton);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(bar);
    layout->addWidget(m_notice);
    layout->addWidget(m_text, 1);

    m_flushTimer.setInterval(flushIntervalMs);
    connect(&m_flushTimer, &QTimer::timeout, this, [this] {
        // Nothing came since the last flush: stop until something does.
        if (m_pending.isEmpty() && !m_skipped)
            m_flushTimer.stop();
        else
            flushPending();
    });
    connect(m_backend, &Backend::fileChunk, this, &LogView::onChunk);
    connect(m_backend, &Backend::jobFilesListed, this,
            [this](qint64 jobId, const QList<JobFile> &files, const QString &) { onFilesListed(jobId, files); });
    connect(m_fileCombo, &QComboBox::activated, this, [this] { showFile(m_fileCombo->currentData().toString()); });
    connect(m_rankCombo, &QComboBox::activated, this, [this] { setRankFilter(m_rankCombo->currentData().toInt()); });
    connect(m_nodeCombo, &QComboBox::activated, this, [this] { setNodeFilter(m_nodeCombo->currentData().toString()); });
    connect(m_search, &QLineEdit::returnPressed, this, [this] {
        find(m_search->text(), QGuiApplication::keyboardModifiers().testFlag(Qt::ShiftModifier));
    });
    connect(m_search, &QLineEdit::textChanged, this, &LogView::highlightMatches);
    connect(m_followButton, &QToolButton::toggled, this, [this](bool on) {
        if (on)
            jumpToEnd();
        else
            setFollow(false);
    });
    connect(m_endButton, &QToolButton::clicked, this, &LogView::jumpToEnd);
    connect(m_wrapButton, &QToolButton::toggled, this, [this](bool on) {
        QSettings().setValue(QStringLiteral("Logs/wrap"), on);
        m_text->setLineWrapMode(on ? QPlainTextEdit::WidgetWidth : QPlainTextEdit::NoWrap);
        if (m_follow)
            jumpToEnd();
    });
    // Scrolling away from the end pauses following; coming back to it resumes.
    connect(m_text->verticalScrollBar(), &QScrollBar::valueChanged, this, [this](int value) {
        if (!m_appending)
            setFollow(value >= m_text->verticalScrollBar()->maximum());
    });
}

LogView::~LogView()
{
    if (m_jobId && !m_file.isEmpty())
        m_backend->unfollowFile(m_jobId, m_file);
}

void LogView::setJob(qint64 jobId, bool finished, const QStringList &rankNodes)
{
    const bool endedNow = finished && !m_finished && jobId == m_jobId;
    m_finished = finished;
    if (jobId == m_jobId) {
        if (rankNodes != m_rankNodes)
            setRankNodes(rankNodes);
        if (endedNow) {
            appendLines(m_buffer.flush());
            flushPending();  // the last lines at once: nothing more will come
            m_backend->listJobFiles(jobId);  // the files written meanwhile (each rank's own)
        }
        return;
    }
    if (m_jobId && !m_file.isEmpty())
        m_backend->unfollowFile(m_jobId, m_file);
    m_jobId = jobId;
    m_file.clear();
    m_filter.node.clear();
    m_filter.nodeRanks.clear();
    setRankNodes(rankNodes);
    while (m_fileCombo->count() > 2)
        m_fileCombo->removeItem(2);
    addRankFiles();
    if (jobId) {
        showFile(stdoutFile);
        m_backend->listJobFiles(jobId);
        return;
    }
    // No job, or one that has not started (no directory yet): nothing of another job's
    // log may stay on screen.
    m_buffer.clear();
    m_pending.clear();
    m_skipped = 0;
    m_text->clear();
    m_notice->setVisible(false);
    updateRanks();
}

void LogView::showFile(const QString &file)
{
    if (m_jobId && !m_file.isEmpty())
        m_backend->unfollowFile(m_jobId, m_file);
    m_file = file;
    m_buffer.clear();
    m_pending.clear();
    m_skipped = 0;
    m_text->clear();
    m_notice->setVisible(false);
    updateRanks();
    const int index = m_fileCombo->findData(file);
    if (index >= 0)
        m_fileCombo->setCurrentIndex(index);
    setFollow(true);
    if (m_jobId)
        m_backend->followFile(m_jobId, file);
}

void LogView::onChunk(qint64 jobId, const QString &file, qint64 offset, const QByteArray &data)
{
    if (jobId != m_jobId || file != m_file)
        return;
    if (offset > 0 && m_buffer.lines().isEmpty()) {
        m_notice->setText(tr("The first %1 of this file are not shown.").arg(QLocale().formattedDataSize(offset)));
        m_notice->setVisible(true);
    }
    QList<LogBuffer::Line> lines = m_buffer.append(data);
    if (m_finished)
        lines += m_buffer.flush();
    const QList<int> before = m_buffer.ranks();
    appendLines(lines);
    if (m_rankCombo->count() - 1 != before.size()) {
        updateRanks();
        // A rank said its first line: its own stdout-<r>.txt is there now, for the chooser.
        m_backend->listJobFiles(m_jobId);
    }
}

void LogView::appendLines(const QList<LogBuffer::Line> &lines)
{
    // Only the newest lines wait for the next flush; the others are counted (and their
    // display text never made).
    qsizetype accepted = 0;
    for (const LogBuffer::Line &line : lines)
        accepted += m_filter.accepts(line) ? 1 : 0;
    qsizetype skip = std::max<qsizetype>(0, accepted - maxLinesPerFlush);
    if (skip > 0) {
        m_skipped += m_pending.size() + skip;
        m_pending.clear();
    }
    for (const LogBuffer::Line &line : lines) {
        if (!m_filter.accepts(line))
            continue;
        if (skip > 0)
            --skip;
        else
            m_pending.append(line.display());
    }
    if (m_pending.size() > maxLinesPerFlush) {
        const qsizetype drop = m_pending.size() - maxLinesPerFlush;
        m_pending.remove(0, drop);
        m_skipped += drop;
    }
    // The first lines after a quiet spell show at once; what follows waits for the timer.
    if (!m_flushTimer.isActive()) {
        flushPending();
        m_flushTimer.start();
    }
}

QString LogView::skippedNote(qint64 lines)
{
    return tr("[… %1 not shown here: the log grows faster than it can be shown. The file has them all.]")
        .arg(countOf(lines, tr("line"), tr("lines")));
}

void LogView::flushPending()
{
    if (m_pending.isEmpty() && !m_skipped)
        return;
    QString text = m_skipped ? skippedNote(m_skipped) : QString();
    if (!m_pending.isEmpty())
        text += (text.isEmpty() ? QString() : QStringLiteral("\n")) + m_pending.join(QLatin1Char('\n'));
    m_pending.clear();
    m_skipped = 0;
    QScrollBar *bar = m_text->verticalScrollBar();
    const int keep = bar->value();
    m_appending = true;
    m_text->appendPlainText(text);
    bar->setValue(m_follow ? bar->maximum() : keep);
    m_appending = false;
    if (!m_search->text().isEmpty())
        highlightMatches();
}

void LogView::rebuild()
{
    QStringList shown;
    for (const LogBuffer::Line &line : m_buffer.lines()) {
        if (m_filter.accepts(line))
            shown.append(line.display());
    }
    // Laying out 100,000 lines would hold the window for a second: the newest part.
    if (shown.size() > maxRebuildLines) {
        const qsizetype drop = shown.size() - maxRebuildLines;
        shown.remove(0, drop);
        shown.prepend(skippedNote(drop));
    }
    m_pending.clear();
    m_skipped = 0;
    m_appending = true;
    m_text->setPlainText(shown.join(QLatin1Char('\n')));
    m_appending = false;
    setFollow(true);
    jumpToEnd();
    highlightMatches();
}

void LogView::setRankFilter(int rank)
{
    if (rank == m_filter.rank)
        return;
    m_filter.rank = rank;
    const int index = m_rankCombo->findData(rank);
    if (index >= 0)
        m_rankCombo->setCurrentIndex(index);
    rebuild();
}

void LogView::updateRanks()
{
    // The ranks that printed, and every rank of the job, printed or not (a silent rank is
    // one a user looks for).
    QList<int> ranks = m_buffer.ranks();
    if (m_rankNodes.size() > 1) {
        for (int r = 0; r < m_rankNodes.size(); ++r) {
            if (!ranks.contains(r))
                ranks << r;
        }
        std::sort(ranks.begin(), ranks.end());
    }
    m_rankCombo->setVisible(!ranks.isEmpty());
    while (m_rankCombo->count() > 1)
        m_rankCombo->removeItem(1);
    for (int r : ranks)
        m_rankCombo->addItem(tr("Rank %1").arg(r), r);
    m_rankCombo->setCurrentIndex(qMax(0, m_rankCombo->findData(m_filter.rank)));
}

void LogView::setNodeFilter(const QString &node)
{
    if (node == m_filter.node || (!node.isEmpty() && !m_rankNodes.contains(node)))
        return;
    m_filter.node = node;
    // A flag per rank: the filter then costs one look-up per line, however big the log.
    m_filter.nodeRanks.clear();
    if (!node.isEmpty()) {
        for (const QString &n : std::as_const(m_rankNodes))
            m_filter.nodeRanks << (n == node);
    }
    m_nodeCombo->setCurrentIndex(qMax(0, m_nodeCombo->findData(node)));
    rebuild();
}

void LogView::addRankFiles()
{
    // Each rank's own stdout-<r>.txt and stderr-<r>.txt, listed from the start, empty until
    // the rank prints (the launch script writes them beside the combined files).
    if (m_rankNodes.size() < 2)
        return;
    for (int r = 0; r < m_rankNodes.size(); ++r) {
        for (const char *stream : {"stdout", "stderr"}) {
            const QString name = QStringLiteral("%1-%2.txt").arg(QLatin1String(stream)).arg(r);
            const QString file = QStringLiteral("stdouterr/") + name;
            if (m_fileCombo->findData(file) >= 0)
                continue;
            m_fileCombo->addItem(name, file);
            m_fileCombo->setItemData(m_fileCombo->count() - 1, tr("Rank %1's own %2 (on %3)").arg(r).arg(QLatin1String(stream), m_rankNodes.at(r)),
                                     Qt::ToolTipRole);
        }
    }
}

void LogView::setRankNodes(const QStringList &rankNodes)
{
    m_rankNodes = rankNodes;
    addRankFiles();
    updateRanks();
    QStringList nodes;  // those with ranks, in the order of their first rank
    QHash<QString, QList<int>> ranksOf;
    for (int r = 0; r < rankNodes.size(); ++r) {
        if (!ranksOf.contains(rankNodes.at(r)))
            nodes << rankNodes.at(r);
        ranksOf[rankNodes.at(r)] << r;
    }
    while (m_nodeCombo->count() > 1)
        m_nodeCombo->removeItem(1);
    for (const QString &node : std::as_const(nodes)) {
        const QList<int> ranks = ranksOf.value(node);
        const QString label = ranks.size() == 1 ? tr("%1 (rank %2)") : tr("%1 (ranks %2)");
        m_nodeCombo->addItem(label.arg(node, rankRanges(ranks)), node);
    }
    // One node: every line is its own.
    m_nodeCombo->setVisible(nodes.size() > 1);
    const QString chosen = m_filter.node;
    m_filter.node.clear();
    m_filter.nodeRanks.clear();
    m_nodeCombo->setCurrentIndex(0);
    if (chosen.isEmpty())
        return;
    // The same node under the new map, or every node when it has no ranks any more.
    if (nodes.contains(chosen))
        setNodeFilter(chosen);
    else
        rebuild();
}

void LogView::onFilesListed(qint64 jobId, const QList<JobFile> &files)
{
    if (jobId != m_jobId)
        return;
    for (const JobFile &f : files) {
        if (f.directory != QLatin1String("stdouterr") || f.path.contains(QLatin1Char('/'))
            || !(f.path.endsWith(QLatin1String(".txt")) || f.path.endsWith(QLatin1String(".log"))))
            continue;
        const QString file = QStringLiteral("stdouterr/") + f.path;
        if (m_fileCombo->findData(file) < 0)
            m_fileCombo->addItem(f.path, file);
    }
}

void LogView::setFollow(bool on)
{
    if (m_follow == on && m_followButton->isChecked() == on)
        return;
    m_follow = on;
    const QSignalBlocker blocker(m_followButton);
    m_followButton->setChecked(on);
    m_endButton->setEnabled(!on);
}

void LogView::jumpToEnd()
{
    m_appending = true;
    m_text->verticalScrollBar()->setValue(m_text->verticalScrollBar()->maximum());
    m_appending = false;
    setFollow(true);
}

bool LogView::find(const QString &text, bool backward)
{
    if (text.isEmpty())
        return false;
    if (m_search->text() != text)
        m_search->setText(text);
    const QTextDocument::FindFlags flags = backward ? QTextDocument::FindBackward : QTextDocument::FindFlags();
    bool found = m_text->find(text, flags);
    if (!found) {
        // Wrap around.
        QTextCursor cursor = m_text->textCursor();
        cursor.movePosition(backward ? QTextCursor::End : QTextCursor::Start);
        m_text->setTextCursor(cursor);
        found = m_text->find(text, flags);
    }
    if (found)
        setFollow(m_text->verticalScrollBar()->value() >= m_text->verticalScrollBar()->maximum());
    return found;
}

void LogView::highlightMatches()
{
    const QString text = m_search->text();
    QList<QTextEdit::ExtraSelection> selections;
    if (!text.isEmpty()) {
        QTextCharFormat format;
        // The text's own colour too: a dark theme's light text on yellow cannot be read.
        format.setBackground(searchMatchBackground);
        format.setForeground(searchMatchText);
        QTextCursor cursor(m_text->document());
        while (selections.size() < maxHighlights) {
            cursor = m_text->document()->find(text, cursor);
            if (cursor.isNull())
                break;
            selections.append({cursor, format});
        }
    }
    m_text->setExtraSelections(selections);
    m_matches->setText(text.isEmpty() ? QString()
                       : selections.size() >= maxHighlights ? tr("%1+ matches").arg(maxHighlights)
                                                            : countOf(selections.size(), tr("match"), tr("matches")));
}

} // namespace TrainDesk::Ui
