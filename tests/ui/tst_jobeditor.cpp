// The job editor without a backend: JSON paths, the document (form edits rewrite the text,
// text edits re-read the values, the core checks every change), the issue list model, the
// form and the JSON pane kept in sync both ways, issues that lead to their field or line,
// toolkit switching, the array tables, and keyboard access (buddies, tab order).
#include "defaults/EmbeddedDefaults.h"
#include "editor/IssueListModel.h"
#include "editor/JobEditor.h"
#include "editor/JobSpecDocument.h"
#include "editor/JobSpecForm.h"
#include "editor/JsonArrayTable.h"
#include "editor/JsonPath.h"
#include "jobspec/JobSpecFields.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QComboBox>
#include <QFormLayout>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QListView>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTableWidget>
#include <QTest>
#include <QTextBlock>

using namespace TrainDesk;
using namespace TrainDesk::Ui;

namespace {

QJsonObject propertiesOf(const QByteArray &text)
{
    return QJsonDocument::fromJson(text).object().value(QLatin1String("properties")).toObject();
}

int issueRow(const IssueListModel *model, const QString &path)
{
    for (int r = 0; r < model->rowCount(); ++r) {
        if (model->index(r, 0).data(IssueListModel::PathRole).toString() == path)
            return r;
    }
    return -1;
}

QStringList issuePaths(const JobSpecDocument &doc)
{
    QStringList paths;
    for (const SpecIssue &i : doc.issues())
        paths << i.path;
    return paths;
}

} // namespace

class TestJobEditor : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void jsonPaths()
    {
        const auto segments = JsonPath::split(QStringLiteral("properties.outputDirectories[1].id"));
        QCOMPARE(segments.size(), 4);
        QCOMPARE(segments[1].key, QStringLiteral("outputDirectories"));
        QCOMPARE(segments[2].index, 1);
        QCOMPARE(segments[3].key, QStringLiteral("id"));

        QJsonObject root;
        root = JsonPath::withValue(root, QStringLiteral("properties.jobPreparation.commandLine"), QStringLiteral("ls"));
        QCOMPARE(JsonPath::valueAt(root, QStringLiteral("properties.jobPreparation.commandLine")).toString(), QStringLiteral("ls"));
        root = JsonPath::withValue(root, QStringLiteral("properties.outputDirectories[1].id"), QStringLiteral("B"));
        QCOMPARE(JsonPath::valueAt(root, QStringLiteral("properties.outputDirectories")).toArray().size(), 2);
        QCOMPARE(JsonPath::valueAt(root, QStringLiteral("properties.outputDirectories[1].id")).toString(), QStringLiteral("B"));
        root = JsonPath::withValue(root, QStringLiteral("properties.jobPreparation"), QJsonValue(QJsonValue::Undefined));
        QVERIFY(!root.value(QLatin1String("properties")).toObject().contains(QLatin1String("jobPreparation")));
        // Removing what is not there changes nothing (no empty objects appear).
        const QJsonObject before = root;
        root = JsonPath::withValue(root, QStringLiteral("properties.horovodSettings.processCount"), QJsonValue(QJsonValue::Undefined));
        QCOMPARE(root, before);
        QVERIFY(JsonPath::valueAt(root, QStringLiteral("properties.nothing[3].x")).isUndefined());
    }

    void documentRewritesTextAndChecks()
    {
        JobSpecDocument doc;
        QSignalSpy changed(&doc, &JobSpecDocument::changed);
        QSignalSpy issues(&doc, &JobSpecDocument::issuesChanged);
        doc.setText(EmbeddedDefaults::demoJobSpec());
        QCOMPARE(changed.count(), 1);
        QCOMPARE(changed.at(0).at(0).toBool(), true);
        QVERIFY(doc.isJsonValid());
        QVERIFY2(!doc.hasErrors(), qPrintable(issuePaths(doc).join(QLatin1Char(' '))));
        QCOMPARE(doc.value(QStringLiteral("properties.nodeCount")).toInt(), 1);

        doc.setValue(QStringLiteral("properties.nodeCount"), 3);
        QCOMPARE(changed.count(), 2);
        QCOMPARE(changed.at(1).at(0).toBool(), false);
        QCOMPARE(propertiesOf(doc.text()).value(QLatin1String("nodeCount")).toInt(), 3);
        // Everything else is kept as it was.
        QCOMPARE(propertiesOf(doc.text()).value(QLatin1String("outputDirectories")),
                 propertiesOf(EmbeddedDefaults::demoJobSpec()).value(QLatin1String("outputDirectories")));
        QVERIFY(QJsonDocument::fromJson(doc.text()).object().contains(QLatin1String("$schema")));

        // The target's context joins the checks: one node only.
        SpecContext context;
        context.workspace = QStringLiteral("default");
        context.cluster = QStringLiteral("local");
        context.clusterNodeCount = 1;
        context.shareNames = QStringList{QStringLiteral("local")};
        doc.setContext(context);
        QVERIFY(doc.hasErrors());
        QVERIFY(issuePaths(doc).contains(QStringLiteral("properties.nodeCount")));
        doc.setValue(QStringLiteral("properties.nodeCount"), 1);
        QVERIFY(!doc.hasErrors());
        QVERIFY(issues.count() >= 4);

        // A bare properties object stays bare: "properties.x" means the top-level x.
        doc.setText("{\"nodeCount\": 1, \"customToolkitSettings\": {\"commandLine\": \"true\"}, \"stdOutErrPathPrefix\": \"/tmp\"}");
        QVERIFY(doc.isJsonValid());
        doc.setValue(QStringLiteral("properties.nodeCount"), 1);
        doc.setValue(QStringLiteral("properties.customToolkitSettings.commandLine"), QStringLiteral("hostname"));
        const QJsonObject bare = QJsonDocument::fromJson(doc.text()).object();
        QVERIFY(!bare.contains(QLatin1String("properties")));
        QCOMPARE(bare.value(QLatin1String("customToolkitSettings")).toObject().value(QLatin1String("commandLine")).toString(),
                 QStringLiteral("hostname"));

        // The user's member order stays through form edits; new members come after.
        doc.setText("{\"properties\": {\"stdOutErrPathPrefix\": \"/tmp\", \"nodeCount\": 1,\n"
                    "  \"customToolkitSettings\": {\"commandLine\": \"true\"}}, \"$schema\": \"x\"}");
        doc.setValue(QStringLiteral("properties.nodeCount"), 2);
        doc.setValue(QStringLiteral("properties.jobPreparation.commandLine"), QStringLiteral("hostname"));
        const QByteArray ordered = doc.text();
        QCOMPARE(ordered,
                 QByteArray("{\n"
                            "    \"properties\": {\n"
                            "        \"stdOutErrPathPrefix\": \"/tmp\",\n"
                            "        \"nodeCount\": 2,\n"
                            "        \"customToolkitSettings\": {\n"
                            "            \"commandLine\": \"true\"\n"
                            "        },\n"
                            "        \"jobPreparation\": {\n"
                            "            \"commandLine\": \"hostname\"\n"
                            "        }\n"
                            "    },\n"
                            "    \"$schema\": \"x\"\n"
                            "}\n"));
        QCOMPARE(QJsonDocument::fromJson(ordered).object().value(QLatin1String("properties")).toObject().size(), 4);

        // Text that is not JSON: reported with its line, and form edits cannot overwrite it.
        const QByteArray broken = "{\n  \"properties\": {\n    \"nodeCount\": 1,,\n  }\n}\n";
        doc.setText(broken);
        QVERIFY(!doc.isJsonValid());
        QVERIFY(doc.hasErrors());
        QCOMPARE(doc.issues().first().path, QStringLiteral("$"));
        QCOMPARE(doc.issues().first().line, 3);
        doc.setValue(QStringLiteral("properties.nodeCount"), 2);
        QCOMPARE(doc.text(), broken);
    }

    // A cluster whose node failed the head node's SSH check: a 2-node job is warned about,
    // a 1-node job is not; a healthy cluster adds nothing.
    void clusterHealthWarns()
    {
        JobSpecDocument doc;
        doc.setText(EmbeddedDefaults::demoJobSpec());
        doc.setValue(QStringLiteral("properties.nodeCount"), 2);
        SpecContext context;
        context.workspace = QStringLiteral("default");
        context.cluster = QStringLiteral("nc");
        context.clusterNodeCount = 2;
        doc.setContext(context);
        const auto warnings = [&doc] {
            QStringList texts;
            for (const SpecIssue &i : doc.issues()) {
                if (i.severity == SpecIssue::Severity::Warning && i.path == QStringLiteral("properties.nodeCount"))
                    texts << i.message;
            }
            return texts;
        };
        QVERIFY(warnings().isEmpty());
        doc.setClusterHealth({{QStringLiteral("n1"), true, {}},
                              {QStringLiteral("n2"), false, QStringLiteral("failed checks: SSH from the head node (Host key verification failed.)")}});
        QVERIFY(!doc.hasErrors());  // submit would take it: a warning, not an error
        const QStringList two = warnings();
        QCOMPARE(two.size(), 2);
        QVERIFY2(two.at(0).startsWith(QStringLiteral("n2 of cluster nc failed the check \"SSH from the head node\"")), qPrintable(two.at(0)));
        QVERIFY(two.at(0).contains(QStringLiteral("Test connection")));
        QVERIFY2(two.at(1).contains(QStringLiteral("only 1 of cluster nc")) && two.at(1).contains(QStringLiteral("Host key verification failed")),
                 qPrintable(two.at(1)));
        doc.setValue(QStringLiteral("properties.nodeCount"), 1);
        QVERIFY(warnings().isEmpty());
        doc.setValue(QStringLiteral("properties.nodeCount"), 2);
        doc.setClusterHealth({{QStringLiteral("n1"), true, {}}, {QStringLiteral("n2"), true, {}}});
        QVERIFY(warnings().isEmpty());
    }

    void issueListModel()
    {
        IssueListModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
        QCOMPARE(model.rowCount(), 0);
        const QList<SpecIssue> issues{
            {SpecIssue::Severity::Error, QStringLiteral("properties.nodeCount"), QStringLiteral("expected at most 1"), 4, 9},
            {SpecIssue::Severity::Warning, QStringLiteral("properties.color"), QStringLiteral("unknown field"), 7, 5},
        };
        model.setIssues(issues);
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(reset.count(), 1);
        QCOMPARE(model.errorCount(), 1);
        QCOMPARE(model.warningCount(), 1);
        const QModelIndex first = model.index(0, 0);
        QCOMPARE(first.data().toString(), QStringLiteral("line 4: properties.nodeCount: expected at most 1"));
        QCOMPARE(first.data(IssueListModel::PathRole).toString(), QStringLiteral("properties.nodeCount"));
        QCOMPARE(first.data(IssueListModel::LineRole).toInt(), 4);
        QCOMPARE(first.data(IssueListModel::ColumnRole).toInt(), 9);
        QCOMPARE(first.data(IssueListModel::IsErrorRole).toBool(), true);
        QCOMPARE(model.index(1, 0).data(IssueListModel::IsErrorRole).toBool(), false);
        QVERIFY(!first.data(Qt::DecorationRole).value<QIcon>().isNull());
        QVERIFY(first.data(Qt::ToolTipRole).toString().contains(QStringLiteral("line 4, column 9")));
        // The same issues again: no reset, the view keeps its current row.
        model.setIssues(issues);
        QCOMPARE(reset.count(), 1);
        model.setIssues({});
        QCOMPARE(model.rowCount(), 0);
        QCOMPARE(reset.count(), 2);
    }

    void formEditsShowInTheJson()
    {
        JobEditor editor;
        editor.resize(1000, 700);
        editor.show();
        QVERIFY(QTest::qWaitForWindowExposed(&editor));
        editor.setText(EmbeddedDefaults::demoJobSpec());
        JobSpecForm *form = editor.form();
        QCOMPARE(form->nodeCountSpin()->value(), 1);
        QCOMPARE(form->toolkitCombo()->currentData().toString(), QStringLiteral("customMpiSettings"));
        QVERIFY(form->commandLineEdit()->text().startsWith(QStringLiteral("traindesk-trainer")));
        QCOMPARE(form->processCountSpin()->value(), 2);
        QVERIFY(form->commandLineEdit()->isVisibleTo(form));
        QVERIFY(!form->scriptEdit()->isVisibleTo(form));
        QCOMPARE(form->outputTable()->table()->rowCount(), 1);
        QCOMPARE(form->outputTable()->table()->item(0, 0)->text(), QStringLiteral("MODEL"));

        // Typing in a field rewrites the JSON pane at once; the field keeps its cursor.
        form->commandLineEdit()->setFocus();
        form->commandLineEdit()->end(false);
        QTest::keyClicks(form->commandLineEdit(), QStringLiteral(" --seed 7"));
        QVERIFY(form->commandLineEdit()->text().endsWith(QStringLiteral("--seed 7")));
        QCOMPARE(form->commandLineEdit()->cursorPosition(), form->commandLineEdit()->text().size());
        const QJsonObject props = propertiesOf(editor.jsonEdit()->toPlainText().toUtf8());
        QVERIFY(props.value(QLatin1String("customMpiSettings")).toObject().value(QLatin1String("commandLine"))
                    .toString().endsWith(QStringLiteral(" --seed 7")));
        QCOMPARE(editor.text(), editor.jsonEdit()->toPlainText().toUtf8());

        form->processCountSpin()->setValue(0);  // "one per node": the member goes
        QVERIFY(!propertiesOf(editor.text()).value(QLatin1String("customMpiSettings")).toObject()
                     .contains(QLatin1String("processCount")));
        QCOMPARE(form->processCountSpin()->text(), QStringLiteral("one per node"));
        // processCount 0 written in the JSON is refused by the checks: the form does not show
        // it as the default "one per node", and says what is wrong.
        {
            const QByteArray saved = editor.text();
            const QJsonObject zero = JsonPath::withValue(QJsonDocument::fromJson(saved).object(),
                                                         QStringLiteral("properties.customMpiSettings.processCount"), 0);
            editor.setText(QJsonDocument(zero).toJson());
            QVERIFY(editor.hasErrors());
            QVERIFY2(form->processCountSpin()->text().contains(QStringLiteral("not allowed")),
                     qPrintable(form->processCountSpin()->text()));
            editor.setText(saved);
            QCOMPARE(form->processCountSpin()->text(), QStringLiteral("one per node"));
        }
        form->preparationEdit()->setText(QStringLiteral("hostname"));
        QCOMPARE(propertiesOf(editor.text()).value(QLatin1String("jobPreparation")).toObject()
                     .value(QLatin1String("commandLine")).toString(), QStringLiteral("hostname"));
        form->preparationEdit()->clear();
        QVERIFY(!propertiesOf(editor.text()).contains(QLatin1String("jobPreparation")));
        form->priorityCombo()->setCurrentIndex(form->priorityCombo()->findData(QStringLiteral("high")));
        QCOMPARE(propertiesOf(editor.text()).value(QLatin1String("schedulingPriority")).toString(), QStringLiteral("high"));
        QVERIFY(!editor.hasErrors());

        // One undo step in the JSON pane takes the last form edit back.
        editor.jsonEdit()->undo();
        QVERIFY(!propertiesOf(editor.text()).contains(QLatin1String("schedulingPriority")));
        QCOMPARE(form->priorityCombo()->currentIndex(), 0);
    }

    void jsonEditsShowInTheForm()
    {
        JobEditor editor;
        editor.show();
        editor.setText(EmbeddedDefaults::demoJobSpec());
        JobSpecForm *form = editor.form();
        editor.jsonEdit()->setPlainText(QStringLiteral("{\n"
            "  \"properties\": {\n"
            "    \"nodeCount\": 2,\n"
            "    \"horovodSettings\": {\"pythonScriptFilePath\": \"$AZ_BATCHAI_JOB_MOUNT_ROOT/local/train.py\", \"commandLineArgs\": \"--epochs 3\"},\n"
            "    \"stdOutErrPathPrefix\": \"$AZ_BATCHAI_JOB_MOUNT_ROOT/local\",\n"
            "    \"environmentVariables\": [{\"name\": \"SEED\", \"value\": \"7\"}]\n"
            "  }\n"
            "}"));
        QCOMPARE(form->nodeCountSpin()->value(), 2);
        QCOMPARE(form->toolkitCombo()->currentData().toString(), QStringLiteral("horovodSettings"));
        QCOMPARE(form->scriptEdit()->text(), QStringLiteral("$AZ_BATCHAI_JOB_MOUNT_ROOT/local/train.py"));
        QCOMPARE(form->argumentsEdit()->text(), QStringLiteral("--epochs 3"));
        QVERIFY(form->scriptEdit()->isVisibleTo(form));
        QVERIFY(!form->commandLineEdit()->isVisibleTo(form));
        QCOMPARE(form->outputTable()->table()->rowCount(), 0);
        QCOMPARE(form->environmentTable()->table()->rowCount(), 1);
        QCOMPARE(form->environmentTable()->table()->item(0, 1)->text(), QStringLiteral("7"));

        // A toolkit the form does not edit shows as such, its fields off.
        editor.jsonEdit()->setPlainText(QStringLiteral(
            "{\"properties\": {\"nodeCount\": 1, \"tensorFlowSettings\": {\"pythonScriptFilePath\": \"/x.py\"}, \"stdOutErrPathPrefix\": \"/tmp\"}}"));
        QCOMPARE(form->toolkitCombo()->currentData().toString(), QStringLiteral("tensorFlowSettings"));
        QVERIFY(form->toolkitCombo()->currentText().contains(QStringLiteral("JSON")));
        QVERIFY(!form->scriptEdit()->isVisibleTo(form));
        QVERIFY(!form->commandLineEdit()->isVisibleTo(form));

        // Not JSON: the form waits (disabled, with a note) until it parses again.
        editor.jsonEdit()->setPlainText(QStringLiteral("{ \"properties\": "));
        QVERIFY(!form->nodeCountSpin()->isEnabled());
        QVERIFY(form->findChild<QLabel *>(QStringLiteral("formNotice"))->isVisibleTo(form));
        QVERIFY(editor.hasErrors());
        editor.jsonEdit()->setPlainText(QString::fromUtf8(EmbeddedDefaults::demoJobSpec()));
        QVERIFY(form->nodeCountSpin()->isEnabled());
        QVERIFY(!editor.hasErrors());
    }

    void validationAsYouType()
    {
        JobEditor editor;
        editor.show();
        editor.setText(EmbeddedDefaults::demoJobSpec());
        QSignalSpy validity(&editor, &JobEditor::validityChanged);
        QVERIFY(!editor.hasErrors());
        QCOMPARE(editor.summaryText(), QStringLiteral("No problems found."));
        QLineEdit *prefix = editor.form()->stdOutErrEdit();
        prefix->selectAll();
        QTest::keyClick(prefix, Qt::Key_Delete);
        QVERIFY(editor.hasErrors());
        QCOMPARE(validity.count(), 1);
        QCOMPARE(validity.at(0).at(0).toBool(), false);
        const int row = issueRow(editor.issueModel(), QStringLiteral("properties.stdOutErrPathPrefix"));
        QVERIFY2(row >= 0, qPrintable(editor.summaryText()));
        QVERIFY(editor.summaryText().startsWith(QStringLiteral("1 error")));
        QTest::keyClicks(prefix, QStringLiteral("relative/dir"));
        QVERIFY(editor.hasErrors());  // not absolute
        QVERIFY(editor.issueModel()->index(issueRow(editor.issueModel(), QStringLiteral("properties.stdOutErrPathPrefix")), 0)
                    .data().toString().contains(QStringLiteral("absolute path")));
        prefix->setText(QStringLiteral("$AZ_BATCHAI_JOB_MOUNT_ROOT/local"));
        QVERIFY(!editor.hasErrors());
        QCOMPARE(validity.count(), 2);
        QCOMPARE(validity.at(1).at(0).toBool(), true);
    }

    void issuesLeadToFieldsAndLines()
    {
        JobEditor editor;
        editor.resize(1000, 700);
        editor.show();
        QVERIFY(QTest::qWaitForWindowExposed(&editor));
        editor.setText("{\n"
            "    \"properties\": {\n"
            "        \"nodeCount\": 3,\n"
            "        \"customMpiSettings\": {\"commandLine\": \"hostname\"},\n"
            "        \"stdOutErrPathPrefix\": \"$AZ_BATCHAI_JOB_MOUNT_ROOT/local\",\n"
            "        \"outputDirectories\": [{\"id\": \"MODEL\", \"pathPrefix\": \"$AZ_BATCHAI_JOB_MOUNT_ROOT/local\"},\n"
            "                              {\"id\": \"LOGS\", \"pathPrefix\": \"\"}],\n"
            "        \"mountVolumes\": {\"azureFileShares\": [{\"azureFileUrl\": \"https://x.file.core.windows.net/myshare\",\n"
            "                                              \"relativeMountPath\": \"myshare\"}]}\n"
            "    }\n"
            "}");
        SpecContext context;
        context.workspace = QStringLiteral("default");
        context.cluster = QStringLiteral("local");
        context.clusterNodeCount = 1;
        context.shareNames = QStringList{QStringLiteral("local")};
        editor.setContext(context);
        QAbstractItemModelTester tester(editor.issueModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        const int nodes = issueRow(editor.issueModel(), QStringLiteral("properties.nodeCount"));
        const int prefix = issueRow(editor.issueModel(), QStringLiteral("properties.outputDirectories[1].pathPrefix"));
        int share = -1;
        for (int r = 0; r < editor.issueModel()->rowCount(); ++r) {
            if (editor.issueModel()->index(r, 0).data(IssueListModel::PathRole).toString().startsWith(QStringLiteral("properties.mountVolumes")))
                share = r;
        }
        QVERIFY(nodes >= 0 && prefix >= 0 && share >= 0);

        // Click: the field that shows it, and the JSON cursor on its line.
        const QRect rect = editor.issueView()->visualRect(editor.issueModel()->index(nodes, 0));
        QTest::mouseClick(editor.issueView()->viewport(), Qt::LeftButton, {}, rect.center());
        QTRY_COMPARE(QApplication::focusWidget(), static_cast<QWidget *>(editor.form()->nodeCountSpin()));
        QCOMPARE(editor.jsonEdit()->textCursor().blockNumber() + 1, 3);

        // An array element: its table, row and column.
        editor.showIssue(prefix);
        QTableWidget *table = editor.form()->outputTable()->table();
        QCOMPARE(QApplication::focusWidget(), static_cast<QWidget *>(table));
        QCOMPARE(table->currentRow(), 1);
        QCOMPARE(table->currentColumn(), 1);

        // No field for it: the JSON pane at the line (Enter on the row, from the keyboard).
        editor.issueView()->setFocus();
        editor.issueView()->setCurrentIndex(editor.issueModel()->index(share, 0));
        QTest::keyClick(editor.issueView(), Qt::Key_Return);
        QCOMPARE(QApplication::focusWidget(), static_cast<QWidget *>(editor.jsonEdit()));
        QCOMPARE(editor.jsonEdit()->textCursor().blockNumber() + 1,
                 editor.issueModel()->index(share, 0).data(IssueListModel::LineRole).toInt());
        // The lines with issues are marked in the JSON pane.
        QVERIFY(editor.jsonEdit()->extraSelections().size() >= 3);
    }

    void toolkitSwitchAndTables()
    {
        JobEditor editor;
        editor.show();
        editor.setText(EmbeddedDefaults::demoJobSpec());
        JobSpecForm *form = editor.form();
        form->toolkitCombo()->setCurrentIndex(form->toolkitCombo()->findData(QStringLiteral("horovodSettings")));
        QJsonObject props = propertiesOf(editor.text());
        QVERIFY(!props.contains(QLatin1String("customMpiSettings")));
        const QJsonObject horovod = props.value(QLatin1String("horovodSettings")).toObject();
        QCOMPARE(horovod.value(QLatin1String("pythonScriptFilePath")).toString(), QString());
        QCOMPARE(horovod.value(QLatin1String("processCount")).toInt(), 2);  // carried over
        QVERIFY(editor.hasErrors());  // the script is required: the core says so at once
        QVERIFY(issueRow(editor.issueModel(), QStringLiteral("properties.horovodSettings.pythonScriptFilePath")) >= 0);
        QVERIFY(form->scriptEdit()->isVisibleTo(form));
        QCOMPARE(form->fieldFor(QStringLiteral("properties.horovodSettings.pythonScriptFilePath")),
                 static_cast<QWidget *>(form->scriptEdit()));
        form->scriptEdit()->setText(QStringLiteral("$AZ_BATCHAI_JOB_MOUNT_ROOT/local/train.py"));
        QVERIFY2(!editor.hasErrors(), qPrintable(editor.summaryText()));
        form->toolkitCombo()->setCurrentIndex(form->toolkitCombo()->findData(QStringLiteral("customToolkitSettings")));
        props = propertiesOf(editor.text());
        QVERIFY(props.contains(QLatin1String("customToolkitSettings")));
        QVERIFY(!props.contains(QLatin1String("horovodSettings")));
        QVERIFY(!form->processCountSpin()->isVisibleTo(form));
        // The core needs its command line: the field is there, empty, and named by the issue.
        QVERIFY(issueRow(editor.issueModel(), QStringLiteral("properties.customToolkitSettings.commandLine")) >= 0);
        QVERIFY(form->commandLineEdit()->isVisibleTo(form));
        QCOMPARE(form->commandLineEdit()->text(), QString());
        form->commandLineEdit()->setText(QStringLiteral("hostname"));
        QVERIFY2(!editor.hasErrors(), qPrintable(editor.issueModel()->index(0, 0).data().toString()));

        // Output directories: Add a row, fill it, Remove it.
        JsonArrayTable *outputs = form->outputTable();
        outputs->addButton()->click();
        QCOMPARE(outputs->table()->rowCount(), 2);
        QVERIFY(editor.hasErrors());  // the new row's required members are empty
        outputs->table()->item(1, 0)->setText(QStringLiteral("LOGS"));
        outputs->table()->item(1, 1)->setText(QStringLiteral("$AZ_BATCHAI_JOB_MOUNT_ROOT/local"));
        outputs->table()->item(1, 2)->setText(QStringLiteral("logs"));
        QJsonArray dirs = propertiesOf(editor.text()).value(QLatin1String("outputDirectories")).toArray();
        QCOMPARE(dirs.size(), 2);
        QCOMPARE(dirs.at(1).toObject().value(QLatin1String("id")).toString(), QStringLiteral("LOGS"));
        QCOMPARE(dirs.at(1).toObject().value(QLatin1String("pathSuffix")).toString(), QStringLiteral("logs"));
        QVERIFY2(!editor.hasErrors(), qPrintable(editor.issueModel()->index(0, 0).data().toString()));
        outputs->table()->item(1, 2)->setText(QString());  // optional: the member goes
        QVERIFY(!propertiesOf(editor.text()).value(QLatin1String("outputDirectories")).toArray().at(1).toObject()
                     .contains(QLatin1String("pathSuffix")));
        outputs->table()->setCurrentCell(0, 0);
        outputs->removeButton()->click();
        dirs = propertiesOf(editor.text()).value(QLatin1String("outputDirectories")).toArray();
        QCOMPARE(dirs.size(), 1);
        QCOMPARE(dirs.at(0).toObject().value(QLatin1String("id")).toString(), QStringLiteral("LOGS"));
        outputs->table()->setCurrentCell(0, 0);
        outputs->removeButton()->click();
        QVERIFY(!propertiesOf(editor.text()).contains(QLatin1String("outputDirectories")));

        JsonArrayTable *env = form->environmentTable();
        env->addButton()->click();
        env->table()->item(0, 0)->setText(QStringLiteral("SEED"));
        env->table()->item(0, 1)->setText(QStringLiteral("7"));
        const QJsonArray vars = propertiesOf(editor.text()).value(QLatin1String("environmentVariables")).toArray();
        QCOMPARE(vars.size(), 1);
        QCOMPARE(vars.at(0).toObject().value(QLatin1String("name")).toString(), QStringLiteral("SEED"));
    }

    void keyboardAccess()
    {
        JobEditor editor;
        editor.resize(1000, 800);
        editor.show();
        QVERIFY(QTest::qWaitForWindowExposed(&editor));
        editor.setText(EmbeddedDefaults::demoJobSpec());
        JobSpecForm *form = editor.form();
        // Every form label has a field to go to and a mnemonic of its own.
        QSet<QChar> mnemonics;
        const QList<QLabel *> labels = form->findChildren<QLabel *>();
        int withBuddy = 0;
        for (QLabel *label : labels) {
            if (!label->buddy())
                continue;
            ++withBuddy;
            const qsizetype amp = label->text().indexOf(QLatin1Char('&'));
            QVERIFY2(amp >= 0, qPrintable(label->text()));
            const QChar key = label->text().at(amp + 1).toLower();
            QVERIFY2(!mnemonics.contains(key), qPrintable(label->text()));
            mnemonics.insert(key);
            QVERIFY2(!label->buddy()->toolTip().isEmpty(), qPrintable(label->text()));
        }
        QCOMPARE(withBuddy, 12);

        // Tab walks the visible fields in form order.
        QList<QWidget *> expected;
        for (QWidget *w : form->tabChain()) {
            if (w->isVisibleTo(form) && w->isEnabled())
                expected << w;
        }
        expected.first()->setFocus();
        QList<QWidget *> walked{QApplication::focusWidget()};
        for (int i = 1; i < expected.size(); ++i) {
            QTest::keyClick(QApplication::focusWidget(), Qt::Key_Tab);
            walked << QApplication::focusWidget();
        }
        QCOMPARE(walked, expected);
        // From the last field on to the JSON pane.
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_Tab);
        QCOMPARE(QApplication::focusWidget(), static_cast<QWidget *>(editor.jsonEdit()));
    }

    // The form's help, defaults, ranges and toolkit menu are the job.json table's, and a
    // toolkit switch carries over the members both toolkits' tables have.
    void formFollowsTheFieldTable()
    {
        JobEditor editor;
        editor.show();
        editor.setText(R"({"properties": {"nodeCount": 2, "stdOutErrPathPrefix": "$AZ_BATCHAI_JOB_MOUNT_ROOT/local",
            "pyTorchSettings": {"pythonScriptFilePath": "/s/train.py", "pythonInterpreterPath": "/usr/bin/python3",
                                "commandLineArgs": "--lr 0.1", "processCount": 4, "communicationBackend": "Gloo"}}})");
        JobSpecForm *form = editor.form();
        QVERIFY2(!editor.hasErrors(), qPrintable(editor.summaryText()));
        const FieldRow *processCount = jobSpecField(QStringLiteral("pyTorchSettings.processCount"));
        QVERIFY(processCount);
        QCOMPARE(form->processCountSpin()->toolTip(), QStringLiteral("processCount: ") + processCount->info.help);
        QCOMPARE(form->processCountSpin()->specialValueText(), processCount->info.defaultText);
        QCOMPARE(form->nodeCountSpin()->minimum(), jobSpecField(QStringLiteral("nodeCount"))->info.minimum);
        const FieldRow *priority = jobSpecField(QStringLiteral("schedulingPriority"));
        QCOMPARE(form->priorityCombo()->count(), priority->info.allowed.size() + 1);
        for (const QString &value : priority->info.allowed)
            QVERIFY2(form->priorityCombo()->findData(value) > 0, qPrintable(value));
        for (const JobSpecForm::ToolkitInfo &t : JobSpecForm::toolkits()) {
            QVERIFY2(t.label.startsWith(toolkitEntry(t.key)->name + QStringLiteral(": ")), qPrintable(t.label));
            QCOMPARE(t.processCount, jobSpecField(t.key + QStringLiteral(".processCount")) != nullptr);
        }

        form->toolkitCombo()->setCurrentIndex(form->toolkitCombo()->findData(QStringLiteral("chainerSettings")));
        const QJsonObject chainer = propertiesOf(editor.text()).value(QLatin1String("chainerSettings")).toObject();
        QCOMPARE(chainer, (QJsonObject{{"pythonScriptFilePath", "/s/train.py"}, {"pythonInterpreterPath", "/usr/bin/python3"},
                                       {"commandLineArgs", "--lr 0.1"}, {"processCount", 4}}));
        form->toolkitCombo()->setCurrentIndex(form->toolkitCombo()->findData(QStringLiteral("caffe2Settings")));
        const QJsonObject caffe2 = propertiesOf(editor.text()).value(QLatin1String("caffe2Settings")).toObject();
        QCOMPARE(caffe2, (QJsonObject{{"pythonScriptFilePath", "/s/train.py"}, {"pythonInterpreterPath", "/usr/bin/python3"},
                                      {"commandLineArgs", "--lr 0.1"}}));
        QVERIFY(!form->processCountSpin()->isVisibleTo(form));
    }
};

QTEST_MAIN(TestJobEditor)
#include "tst_jobeditor.moc"
