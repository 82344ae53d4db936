#include "JobEditor.h"

#include "common/ErrorText.h"
#include "IssueListModel.h"
#include "JobSpecDocument.h"
#include "JobSpecForm.h"

#include <QCheckBox>
#include <QFontDatabase>
#include <QLabel>
#include <QListView>
#include <QPlainTextEdit>
#include <QScrollArea>
#include <QScrollBar>
#include <QSplitter>
#include <QTextBlock>
#include <QVBoxLayout>

namespace TrainDesk::Ui {

JobEditor::JobEditor(QWidget *parent)
    : QWidget(parent),
      m_document(new JobSpecDocument(this)),
      m_form(new JobSpecForm(m_document, this)),
      m_json(new QPlainTextEdit(this)),
      m_issues(new IssueListModel(this)),
      m_issueView(new QListView(this)),
      m_summary(new QLabel(this)),
      m_noContainer(new QCheckBox(tr("Run &without the container"), this)),
      m_splitter(new QSplitter(Qt::Horizontal, this))
{
    m_json->setObjectName(QStringLiteral("jsonEdit"));
    m_json->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_json->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_json->setTabChangesFocus(true);  // Tab leaves the pane; JSON indents with spaces anyway
    m_json->setToolTip(tr("The job.json itself: edit it here or in the form, the other follows"));
    m_issueView->setModel(m_issues);
    m_issueView->setObjectName(QStringLiteral("issueList"));
    m_issueView->setMaximumHeight(110);
    m_issueView->setUniformItemSizes(true);
    m_issueView->setToolTip(tr("What the core finds wrong: click or press Enter to go there"));
    m_summary->setObjectName(QStringLiteral("issueSummary"));

    auto *scroll = new QScrollArea(this);
    scroll->setWidget(m_form);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    auto *formBox = new QWidget(this);
    auto *formLayout = new QVBoxLayout(formBox);
    formLayout->setContentsMargins(0, 0, 0, 0);
    auto *formTitle = new QLabel(tr("<b>Form</b>"), formBox);
    formLayout->addWidget(formTitle);
    formLayout->addWidget(scroll, 1);
    auto *jsonBox = new QWidget(this);
    auto *jsonLayout = new QVBoxLayout(jsonBox);
    jsonLayout->setContentsMargins(0, 0, 0, 0);
    auto *jsonTitle = new QLabel(tr("<b>&JSON</b>"), jsonBox);
    jsonTitle->setBuddy(m_json);
    jsonLayout->addWidget(jsonTitle);
    jsonLayout->addWidget(m_json, 1);
    m_splitter->addWidget(formBox);
    m_splitter->addWidget(jsonBox);
    m_splitter->setChildrenCollapsible(false);
    m_splitter->setStretchFactor(0, 1);
    m_splitter->setStretchFactor(1, 1);
    m_splitter->setSizes({1000, 1000});  // half each: the JSON lines are long

    auto *issuesTitle = new QLabel(tr("Prob&lems:"), this);
    issuesTitle->setBuddy(m_issueView);
    auto *issuesRow = new QHBoxLayout;
    issuesRow->addWidget(issuesTitle);
    issuesRow->addWidget(m_summary, 1);
    m_noContainer->setObjectName(QStringLiteral("noContainer"));
    m_noContainer->setToolTip(tr("Run on the nodes as they are: submit leaves out containerSettings and the "
                                 "jobPreparation that ran in the container (for nodes with neither docker nor apptainer)"));
    issuesRow->addWidget(m_noContainer);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_splitter, 1);
    layout->addLayout(issuesRow);
    layout->addWidget(m_issueView);

    setTabOrder(m_form->tabChain().constLast(), m_json);
    setTabOrder(m_json, m_issueView);

    connect(m_json, &QPlainTextEdit::textChanged, this, [this] {
        if (!m_settingText)
            m_document->setText(m_json->toPlainText().toUtf8());
    });
    connect(m_document, &JobSpecDocument::changed, this, &JobEditor::onDocumentChanged);
    connect(m_document, &JobSpecDocument::issuesChanged, this, &JobEditor::onIssuesChanged);
    connect(m_issueView, &QListView::clicked, this, [this](const QModelIndex &index) { showIssue(index.row()); });
    connect(m_issueView, &QListView::activated, this, [this](const QModelIndex &index) { showIssue(index.row()); });
    onIssuesChanged();
}

void JobEditor::setText(const QByteArray &json)
{
    m_document->setText(json);
    m_settingText = true;
    m_json->setPlainText(QString::fromUtf8(json));
    m_settingText = false;
    markIssueLines();
}

QByteArray JobEditor::text() const
{
    return m_document->text();
}

void JobEditor::setContext(const SpecContext &context)
{
    m_document->setContext(context);
}

void JobEditor::setClusterHealth(const QList<NodeHealth> &nodes)
{
    m_document->setClusterHealth(nodes);
}

bool JobEditor::hasErrors() const
{
    return m_document->hasErrors();
}

bool JobEditor::runWithoutContainer() const { return m_noContainer->isChecked(); }

QString JobEditor::summaryText() const
{
    return m_summary->text();
}

void JobEditor::onDocumentChanged(bool fromText)
{
    if (fromText)
        return;
    // A form edit: the JSON pane shows the new text, where it was (one undo step).
    const QTextCursor old = m_json->textCursor();
    const int line = old.blockNumber();
    const int column = old.positionInBlock();
    const int scroll = m_json->verticalScrollBar()->value();
    m_settingText = true;
    QTextCursor all(m_json->document());
    all.beginEditBlock();
    all.select(QTextCursor::Document);
    all.insertText(QString::fromUtf8(m_document->text()));
    all.endEditBlock();
    m_settingText = false;
    QTextBlock block = m_json->document()->findBlockByNumber(qMin(line, m_json->document()->blockCount() - 1));
    QTextCursor cursor(block);
    cursor.movePosition(QTextCursor::Right, QTextCursor::MoveAnchor, qMin(column, block.length() - 1));
    m_json->setTextCursor(cursor);
    m_json->verticalScrollBar()->setValue(scroll);
    markIssueLines();
}

void JobEditor::onIssuesChanged()
{
    m_issues->setIssues(m_document->issues());
    const int errors = m_issues->errorCount();
    const int warnings = m_issues->warningCount();
    if (errors == 0 && warnings == 0) {
        m_summary->setText(tr("No problems found."));
    } else {
        QStringList parts;
        if (errors)
            parts << (errors == 1 ? tr("1 error") : tr("%1 errors").arg(errors));
        if (warnings)
            parts << (warnings == 1 ? tr("1 warning") : tr("%1 warnings").arg(warnings));
        m_summary->setText(parts.join(QStringLiteral(", "))
                           + (errors ? tr(": fix the errors to submit") : tr(": the job can be submitted")));
    }
    errors ? ErrorText::mark(m_summary) : ErrorText::clear(m_summary);
    markIssueLines();
    const bool valid = errors == 0;
    if (valid != m_valid) {
        m_valid = valid;
        Q_EMIT validityChanged(valid);
    }
}

void JobEditor::markIssueLines()
{
    QList<QTextEdit::ExtraSelection> selections;
    for (const SpecIssue &issue : m_document->issues()) {
        if (issue.line <= 0)
            continue;
        const QTextBlock block = m_json->document()->findBlockByNumber(issue.line - 1);
        if (!block.isValid())
            continue;
        QTextEdit::ExtraSelection selection;
        selection.cursor = QTextCursor(block);
        // The text of the line, not its indentation.
        const QString text = block.text();
        qsizetype first = 0;
        while (first < text.size() && text.at(first).isSpace())
            ++first;
        selection.cursor.movePosition(QTextCursor::Right, QTextCursor::MoveAnchor, int(first));
        selection.cursor.movePosition(QTextCursor::EndOfBlock, QTextCursor::KeepAnchor);
        const bool error = issue.severity == SpecIssue::Severity::Error;
        selection.format.setUnderlineStyle(QTextCharFormat::WaveUnderline);
        selection.format.setUnderlineColor(error ? QColor(0xc0, 0x1c, 0x28) : QColor(0xd0, 0x8a, 0x00));
        selection.format.setToolTip(issue.message);
        selections.append(selection);
    }
    m_json->setExtraSelections(selections);
}

void JobEditor::moveJsonCursor(int line, int column)
{
    const QTextBlock block = m_json->document()->findBlockByNumber(qMax(0, line - 1));
    if (!block.isValid())
        return;
    QTextCursor cursor(block);
    cursor.movePosition(QTextCursor::Right, QTextCursor::MoveAnchor, qBound(0, column - 1, block.length() - 1));
    m_json->setTextCursor(cursor);
    m_json->centerCursor();
}

void JobEditor::showIssue(int row)
{
    const QModelIndex index = m_issues->index(row, 0);
    if (!index.isValid())
        return;
    m_issueView->setCurrentIndex(index);
    const int line = index.data(IssueListModel::LineRole).toInt();
    if (line > 0)
        moveJsonCursor(line, index.data(IssueListModel::ColumnRole).toInt());
    if (!m_form->focusPath(index.data(IssueListModel::PathRole).toString()))
        m_json->setFocus(Qt::OtherFocusReason);
}

} // namespace TrainDesk::Ui
