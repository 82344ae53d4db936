#pragma once

#include "ClusterHealthIssues.h"
#include "jobspec/JobSpec.h"

#include <QWidget>

class QCheckBox;
class QLabel;
class QListView;
class QModelIndex;
class QPlainTextEdit;
class QSplitter;

namespace TrainDesk::Ui {

class IssueListModel;
class JobSpecDocument;
class JobSpecForm;

// A job.json as a form and as raw JSON side by side, kept in sync both ways, checked by
// the core as you type; each issue in the list below leads to its field (or its line).
class JobEditor : public QWidget
{
    Q_OBJECT

public:
    explicit JobEditor(QWidget *parent = nullptr);

    void setText(const QByteArray &json);
    QByteArray text() const;
    void setContext(const SpecContext &context);
    // The target cluster's nodes: a job they cannot run gets a warning before Submit.
    void setClusterHealth(const QList<NodeHealth> &nodes);
    bool hasErrors() const;

    // Goes to issue `row`: the field that shows it, else the JSON at its line.
    void showIssue(int row);

    JobSpecDocument *document() const { return m_document; }
    JobSpecForm *form() const { return m_form; }
    QPlainTextEdit *jsonEdit() const { return m_json; }
    QListView *issueView() const { return m_issueView; }
    IssueListModel *issueModel() const { return m_issues; }
    QString summaryText() const;
    // "Run without the container": submit leaves out containerSettings and the jobPreparation
    // that ran in it (RunWithoutContainer), for nodes with neither docker nor apptainer.
    bool runWithoutContainer() const;
    QCheckBox *noContainerSwitch() const { return m_noContainer; }

Q_SIGNALS:
    void validityChanged(bool valid);  // valid: no errors (warnings allowed)

private:
    void onDocumentChanged(bool fromText);
    void onIssuesChanged();
    void markIssueLines();
    void moveJsonCursor(int line, int column);

    JobSpecDocument *m_document;
    JobSpecForm *m_form;
    QPlainTextEdit *m_json;
    IssueListModel *m_issues;
    QListView *m_issueView;
    QLabel *m_summary;
    QCheckBox *m_noContainer;
    QSplitter *m_splitter;
    bool m_settingText = false;
    bool m_valid = false;
};

} // namespace TrainDesk::Ui
