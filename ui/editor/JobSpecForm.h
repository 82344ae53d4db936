#pragma once

#include <QWidget>

class QComboBox;
class QFormLayout;
class QLabel;
class QLineEdit;
class QSpinBox;

namespace TrainDesk::Ui {

class JobSpecDocument;
class JsonArrayTable;
class ReliabilityFields;

// The fields of a job.json most jobs set, as a form over a JobSpecDocument: what is typed
// here is written into the document (and so the JSON pane) at once, and what the JSON
// pane changes shows here. Everything else stays in the JSON and is kept as it is.
class JobSpecForm : public QWidget
{
    Q_OBJECT

public:
    explicit JobSpecForm(JobSpecDocument *document, QWidget *parent = nullptr);

    // The toolkits the form edits; any other shows as "edit in the JSON".
    struct ToolkitInfo
    {
        QString key;          // the JSON member, e.g. "horovodSettings"
        QString label;
        bool commandLine;     // a command line (else a Python script and its arguments)
        bool processCount;
    };
    static const QList<ToolkitInfo> &toolkits();

    // The field that shows the core's `path` (the nearest one that holds it), or null.
    QWidget *fieldFor(const QString &path) const;
    // Focuses that field (the table cell for an array element); false when none shows it.
    bool focusPath(const QString &path);
    // The toolkit member present in the document ("" when none).
    QString toolkitKey() const;

    QSpinBox *nodeCountSpin() const { return m_nodeCount; }
    QComboBox *toolkitCombo() const { return m_toolkit; }
    QLineEdit *commandLineEdit() const { return m_commandLine; }
    QLineEdit *scriptEdit() const { return m_script; }
    QLineEdit *argumentsEdit() const { return m_arguments; }
    QSpinBox *processCountSpin() const { return m_processCount; }
    QLineEdit *stdOutErrEdit() const { return m_stdOutErr; }
    QLineEdit *preparationEdit() const { return m_preparation; }
    JsonArrayTable *outputTable() const { return m_outputs; }
    JsonArrayTable *environmentTable() const { return m_environment; }
    QComboBox *priorityCombo() const { return m_priority; }
    ReliabilityFields *reliabilityFields() const { return m_reliability; }
    // The fields in tab order.
    QList<QWidget *> tabChain() const;

private:
    // The constructor's steps.
    void setUpFields();
    void layOut();
    void connectJobFields();
    void connectToolkitFields();

    void refresh();
    void switchToolkit(const QString &key);
    void setOptional(const QString &path, const QString &text);
    QList<QPair<QString, QWidget *>> fieldPaths() const;

    JobSpecDocument *m_document;
    QFormLayout *m_form;
    QLabel *m_notice;
    QSpinBox *m_nodeCount;
    QComboBox *m_toolkit;
    QLineEdit *m_commandLine;
    QLineEdit *m_script;
    QLineEdit *m_arguments;
    QSpinBox *m_processCount;
    QLineEdit *m_stdOutErr;
    QLineEdit *m_preparation;
    JsonArrayTable *m_outputs;
    JsonArrayTable *m_environment;
    QComboBox *m_priority;
    ReliabilityFields *m_reliability;
    bool m_updating = false;
};

} // namespace TrainDesk::Ui
