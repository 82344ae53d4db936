#include "JobSpecForm.h"

#include "JobSpecDocument.h"
#include "JsonArrayTable.h"
#include "JsonPath.h"
#include "ReliabilityFields.h"
#include "jobspec/JobSpecValidator.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QTableWidget>
#include <QVBoxLayout>

#include <optional>

namespace TrainDesk::Ui {

namespace {

const QString props = QStringLiteral("properties");

QString at(const QString &parent, const QString &key)
{
    return parent + QLatin1Char('.') + key;
}

void setTextIfChanged(QLineEdit *edit, const QString &text)
{
    // Setting equal text would move the cursor of someone typing in it.
    if (edit->text() != text)
        edit->setText(text);
}

} // namespace

const QList<JobSpecForm::ToolkitInfo> &JobSpecForm::toolkits()
{
    static const QList<ToolkitInfo> list{
        {QStringLiteral("customMpiSettings"), tr("Custom MPI: mpirun starts a command line"), true, true},
        {QStringLiteral("horovodSettings"), tr("Horovod: mpirun starts a Python script"), false, true},
        {QStringLiteral("customToolkitSettings"), tr("Custom toolkit: a command line on the head node"), true, false},
        {QStringLiteral("pyTorchSettings"), tr("PyTorch: a Python script"), false, true},
        {QStringLiteral("chainerSettings"), tr("Chainer: a Python script"), false, true},
        {QStringLiteral("caffe2Settings"), tr("Caffe2: a Python script"), false, false},
    };
    return list;
}

JobSpecForm::JobSpecForm(JobSpecDocument *document, QWidget *parent)
    : QWidget(parent),
      m_document(document),
      m_form(new QFormLayout),
      m_notice(new QLabel(this)),
      m_nodeCount(new QSpinBox(this)),
      m_toolkit(new QComboBox(this)),
      m_commandLine(new QLineEdit(this)),
      m_script(new QLineEdit(this)),
      m_arguments(new QLineEdit(this)),
      m_processCount(new QSpinBox(this)),
      m_stdOutErr(new QLineEdit(this)),
      m_preparation(new QLineEdit(this)),
      m_outputs(new JsonArrayTable({{QStringLiteral("id"), tr("Id"), true,
                                     tr("AZ_BATCHAI_OUTPUT_<id> names the folder, e.g. MODEL")},
                                    {QStringLiteral("pathPrefix"), tr("Path prefix"), true,
                                     tr("Where the folder is made, e.g. $AZ_BATCHAI_JOB_MOUNT_ROOT/local")},
                                    {QStringLiteral("pathSuffix"), tr("Path suffix"), false,
                                     tr("Appended to the folder's path (optional)")}},
                                   this)),
      m_environment(new JsonArrayTable({{QStringLiteral("name"), tr("Name"), true, tr("The variable's name")},
                                        {QStringLiteral("value"), tr("Value"), true, tr("Its value")}},
                                       this)),
      m_priority(new QComboBox(this)),
      m_reliability(new ReliabilityFields(document, this))
{
    m_notice->setWordWrap(true);
    m_notice->setVisible(false);
    m_notice->setObjectName(QStringLiteral("formNotice"));

    m_nodeCount->setRange(1, 1000);
    m_nodeCount->setToolTip(tr("nodeCount: how many nodes the job runs on; it starts when that many are idle"));
    for (const ToolkitInfo &t : toolkits())
        m_toolkit->addItem(t.label, t.key);
    m_toolkit->setToolTip(tr("The toolkit settings member: how the job is started"));
    m_commandLine->setPlaceholderText(tr("e.g. traindesk-trainer --epochs 2 --dir $AZ_BATCHAI_OUTPUT_MODEL"));
    m_commandLine->setToolTip(tr("commandLine: what runs; $AZ_BATCHAI_* variables are set on every node"));
    m_script->setPlaceholderText(tr("e.g. $AZ_BATCHAI_JOB_MOUNT_ROOT/myshare/cifar/train.py"));
    m_script->setToolTip(tr("pythonScriptFilePath: the script every process runs, usually on a share"));
    m_arguments->setPlaceholderText(tr("e.g. --dir=$AZ_BATCHAI_JOB_MOUNT_ROOT/myshare/cifar"));
    m_arguments->setToolTip(tr("commandLineArgs: given to the script"));
    m_processCount->setRange(0, 100000);
    m_processCount->setSpecialValueText(tr("one per node"));
    m_processCount->setToolTip(tr("processCount: MPI processes in all (the default is one per node)"));
    m_stdOutErr->setPlaceholderText(tr("e.g. $AZ_BATCHAI_JOB_MOUNT_ROOT/local"));
    m_stdOutErr->setToolTip(tr("stdOutErrPathPrefix: the job directory (stdout.txt, stderr.txt, logs) is made under it"));
    m_preparation->setPlaceholderText(tr("optional: e.g. pip install keras horovod"));
    m_preparation->setToolTip(tr("jobPreparation.commandLine: runs on every node before the job; a failure fails the job"));
    m_outputs->setToolTip(tr("outputDirectories: folders made for the job's results"));
    m_environment->setToolTip(tr("environmentVariables: set for every process of the job"));
    m_priority->addItem(tr("default (normal)"), QString());
    m_priority->addItem(tr("low"), QStringLiteral("low"));
    m_priority->addItem(tr("normal"), QStringLiteral("normal"));
    m_priority->addItem(tr("high"), QStringLiteral("high"));
    m_priority->setToolTip(tr("schedulingPriority: higher priority jobs start first when nodes free up"));

    m_form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    m_form->setLabelAlignment(Qt::AlignRight);
    const auto addRow = [this](const QString &label, QWidget *field) {
        auto *l = new QLabel(label, this);
        l->setBuddy(field);
        l->setToolTip(field->toolTip());
        m_form->addRow(l, field);
    };
    addRow(tr("Node co&unt:"), m_nodeCount);
    addRow(tr("&Toolkit:"), m_toolkit);
    addRow(tr("&Command line:"), m_commandLine);
    addRow(tr("Python scr&ipt:"), m_script);
    addRow(tr("&Arguments:"), m_arguments);
    addRow(tr("&Processes:"), m_processCount);
    addRow(tr("Std&out/err prefix:"), m_stdOutErr);
    addRow(tr("Job p&reparation:"), m_preparation);
    addRow(tr("Output &directories:"), m_outputs);
    addRow(tr("&Environment:"), m_environment);
    addRow(tr("Priorit&y:"), m_priority);
    addRow(tr("Retries, &hangs:"), m_reliability);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_notice);
    layout->addLayout(m_form);
    layout->addStretch();

    const QList<QWidget *> chain = tabChain();
    for (qsizetype i = 1; i < chain.size(); ++i)
        setTabOrder(chain[i - 1], chain[i]);

    connect(m_nodeCount, &QSpinBox::valueChanged, this, [this](int n) {
        if (!m_updating)
            m_document->setValue(at(props, QStringLiteral("nodeCount")), n);
    });
    connect(m_toolkit, &QComboBox::currentIndexChanged, this, [this] {
        if (!m_updating)
            switchToolkit(m_toolkit->currentData().toString());
    });
    connect(m_commandLine, &QLineEdit::textChanged, this, [this](const QString &text) {
        if (m_updating || toolkitKey().isEmpty())
            return;
        const QString path = at(at(props, toolkitKey()), QStringLiteral("commandLine"));
        // Optional for a custom toolkit, required (even empty, so the core says so) for MPI.
        if (toolkitKey() == QLatin1String("customToolkitSettings"))
            setOptional(path, text);
        else
            m_document->setValue(path, text);
    });
    connect(m_script, &QLineEdit::textChanged, this, [this](const QString &text) {
        if (!m_updating && !toolkitKey().isEmpty())
            m_document->setValue(at(at(props, toolkitKey()), QStringLiteral("pythonScriptFilePath")), text);
    });
    connect(m_arguments, &QLineEdit::textChanged, this, [this](const QString &text) {
        if (!m_updating && !toolkitKey().isEmpty())
            setOptional(at(at(props, toolkitKey()), QStringLiteral("commandLineArgs")), text);
    });
    connect(m_processCount, &QSpinBox::valueChanged, this, [this](int n) {
        if (m_updating || toolkitKey().isEmpty())
            return;
        const QString path = at(at(props, toolkitKey()), QStringLiteral("processCount"));
        m_document->setValue(path, n > 0 ? QJsonValue(n) : QJsonValue(QJsonValue::Undefined));
    });
    connect(m_stdOutErr, &QLineEdit::textChanged, this, [this](const QString &text) {
        if (!m_updating)
            m_document->setValue(at(props, QStringLiteral("stdOutErrPathPrefix")), text);
    });
    connect(m_preparation, &QLineEdit::textChanged, this, [this](const QString &text) {
        if (m_updating)
            return;
        if (text.isEmpty())
            m_document->setValue(at(props, QStringLiteral("jobPreparation")), QJsonValue(QJsonValue::Undefined));
        else
            m_document->setValue(at(props, QStringLiteral("jobPreparation.commandLine")), text);
    });
    const auto arrayEdited = [this](const QString &key) {
        return [this, key](const QJsonArray &array) {
            if (!m_updating)
                m_document->setValue(at(props, key), array.isEmpty() ? QJsonValue(QJsonValue::Undefined) : QJsonValue(array));
        };
    };
    connect(m_outputs, &JsonArrayTable::edited, this, arrayEdited(QStringLiteral("outputDirectories")));
    connect(m_environment, &JsonArrayTable::edited, this, arrayEdited(QStringLiteral("environmentVariables")));
    connect(m_priority, &QComboBox::currentIndexChanged, this, [this] {
        if (!m_updating)
            setOptional(at(props, QStringLiteral("schedulingPriority")), m_priority->currentData().toString());
    });
    connect(m_document, &JobSpecDocument::changed, this, &JobSpecForm::refresh);
    refresh();
}

QList<QWidget *> JobSpecForm::tabChain() const
{
    return QList<QWidget *>{m_nodeCount, m_toolkit, m_commandLine, m_script, m_arguments, m_processCount, m_stdOutErr,
            m_preparation, m_outputs->table(), m_outputs->addButton(), m_outputs->removeButton(),
            m_environment->table(), m_environment->addButton(), m_environment->removeButton(), m_priority}
        + m_reliability->tabChain();
}

QString JobSpecForm::toolkitKey() const
{
    const QJsonObject p = m_document->properties();
    for (const QString &key : toolkitKeys()) {
        if (p.contains(key))
            return key;
    }
    return {};
}

void JobSpecForm::setOptional(const QString &path, const QString &text)
{
    m_document->setValue(path, text.isEmpty() ? QJsonValue(QJsonValue::Undefined) : QJsonValue(text));
}

void JobSpecForm::switchToolkit(const QString &key)
{
    const QString old = toolkitKey();
    if (key.isEmpty() || key == old)
        return;
    const auto infoOf = [](const QString &k) -> std::optional<ToolkitInfo> {
        for (const ToolkitInfo &t : toolkits()) {
            if (t.key == k)
                return t;
        }
        return std::nullopt;
    };
    const std::optional<ToolkitInfo> target = infoOf(key);
    if (!target)
        return;  // a toolkit the form does not edit: only the JSON changes it
    const ToolkitInfo &to = *target;
    const QJsonObject before = m_document->properties().value(old).toObject();
    // What means the same in both is carried over; what the new one requires starts empty,
    // so the core names it at once.
    QJsonObject after;
    if (to.processCount && before.contains(QLatin1String("processCount")))
        after.insert(QStringLiteral("processCount"), before.value(QLatin1String("processCount")));
    if (to.commandLine) {
        const QString line = before.value(QLatin1String("commandLine")).toString();
        if (key == QLatin1String("customMpiSettings") || !line.isEmpty())
            after.insert(QStringLiteral("commandLine"), line);
    } else {
        after.insert(QStringLiteral("pythonScriptFilePath"), before.value(QLatin1String("pythonScriptFilePath")).toString());
        for (const char *k : {"commandLineArgs", "pythonInterpreterPath"}) {
            if (before.contains(QLatin1String(k)))
                after.insert(QLatin1String(k), before.value(QLatin1String(k)));
        }
    }
    QList<QPair<QString, QJsonValue>> changes;
    if (!old.isEmpty())
        changes.append({at(props, old), QJsonValue(QJsonValue::Undefined)});
    changes.append({at(props, key), after});
    m_document->setValues(changes);
}

void JobSpecForm::refresh()
{
    m_updating = true;
    const bool editable = m_document->isJsonValid();
    m_notice->setVisible(!editable);
    m_notice->setText(tr("The JSON does not parse: fix it on the right (see the first issue below); "
                         "the form follows again once it does."));
    for (int row = 0; row < m_form->rowCount(); ++row) {
        if (QLayoutItem *item = m_form->itemAt(row, QFormLayout::FieldRole); item && item->widget())
            item->widget()->setEnabled(editable);
    }
    const QJsonObject p = m_document->properties();

    const QJsonValue nodes = p.value(QLatin1String("nodeCount"));
    if (nodes.isDouble() && m_nodeCount->value() != nodes.toInt())
        m_nodeCount->setValue(nodes.toInt());

    const QString key = toolkitKey();
    // An item for a toolkit the form does not edit, or for none, only while it is the case.
    for (int i = m_toolkit->count() - 1; i >= toolkits().size(); --i)
        m_toolkit->removeItem(i);
    int index = m_toolkit->findData(key);
    if (index < 0) {
        m_toolkit->addItem(key.isEmpty() ? tr("(none: choose one)") : tr("%1 (edit it in the JSON)").arg(key), key);
        index = m_toolkit->count() - 1;
    }
    m_toolkit->setCurrentIndex(index);
    bool commandKind = true;
    bool hasProcessCount = false;
    bool known = false;
    for (const ToolkitInfo &t : toolkits()) {
        if (t.key == key) {
            commandKind = t.commandLine;
            hasProcessCount = t.processCount;
            known = true;
        }
    }
    const QJsonObject settings = p.value(key).toObject();
    setTextIfChanged(m_commandLine, settings.value(QLatin1String("commandLine")).toString());
    setTextIfChanged(m_script, settings.value(QLatin1String("pythonScriptFilePath")).toString());
    setTextIfChanged(m_arguments, settings.value(QLatin1String("commandLineArgs")).toString());
    const int processes = settings.value(QLatin1String("processCount")).toInt(0);
    // 0 stands for "no processCount" (one per node); a processCount the checker refuses
    // (0, negative, not a number) says so instead of looking like that default.
    const QJsonValue given = settings.value(QLatin1String("processCount"));
    const bool refused = !given.isUndefined() && processes <= 0;
    m_processCount->setSpecialValueText(
        refused ? tr("%1: not allowed, at least 1").arg(QString::fromUtf8(QJsonDocument(QJsonArray{given}).toJson(QJsonDocument::Compact)).mid(1).chopped(1))
                : tr("one per node"));
    if (m_processCount->value() != std::max(0, processes))
        m_processCount->setValue(std::max(0, processes));
    m_form->setRowVisible(m_commandLine, known && commandKind);
    m_form->setRowVisible(m_script, known && !commandKind);
    m_form->setRowVisible(m_arguments, known && !commandKind);
    m_form->setRowVisible(m_processCount, known && hasProcessCount);

    setTextIfChanged(m_stdOutErr, p.value(QLatin1String("stdOutErrPathPrefix")).toString());
    setTextIfChanged(m_preparation, p.value(QLatin1String("jobPreparation")).toObject().value(QLatin1String("commandLine")).toString());
    m_outputs->setArray(p.value(QLatin1String("outputDirectories")).toArray());
    m_environment->setArray(p.value(QLatin1String("environmentVariables")).toArray());
    const int priority = m_priority->findData(p.value(QLatin1String("schedulingPriority")).toString());
    m_priority->setCurrentIndex(qMax(0, priority));
    m_reliability->refresh();
    m_updating = false;
}

QList<QPair<QString, QWidget *>> JobSpecForm::fieldPaths() const
{
    QList<QPair<QString, QWidget *>> paths{
        {at(props, QStringLiteral("nodeCount")), m_nodeCount},
        {at(props, QStringLiteral("stdOutErrPathPrefix")), m_stdOutErr},
        {at(props, QStringLiteral("jobPreparation")), m_preparation},
        {at(props, QStringLiteral("outputDirectories")), m_outputs},
        {at(props, QStringLiteral("environmentVariables")), m_environment},
        {at(props, QStringLiteral("schedulingPriority")), m_priority},
        {at(props, QStringLiteral("constraints.maxRetries")), static_cast<QWidget *>(m_reliability->maxRetriesSpin())},
        {at(props, QStringLiteral("constraints.retryOnExitCodes")), static_cast<QWidget *>(m_reliability->exitCodesEdit())},
        {at(props, QStringLiteral("constraints.progressTimeout")), static_cast<QWidget *>(m_reliability->progressTimeoutEdit())},
        {at(props, QStringLiteral("constraints.failOnHang")), static_cast<QWidget *>(m_reliability->failOnHangCheck())},
    };
    const QString key = toolkitKey();
    if (!key.isEmpty()) {
        const QString settings = at(props, key);
        paths.append({settings, m_toolkit});
        for (QWidget *field : {static_cast<QWidget *>(m_commandLine), static_cast<QWidget *>(m_script),
                               static_cast<QWidget *>(m_arguments), static_cast<QWidget *>(m_processCount)}) {
            if (!m_form->isRowVisible(field))
                continue;
            const QString member = field == m_commandLine ? QStringLiteral("commandLine")
                : field == m_script                       ? QStringLiteral("pythonScriptFilePath")
                : field == m_arguments                    ? QStringLiteral("commandLineArgs")
                                                          : QStringLiteral("processCount");
            paths.append({at(settings, member), field});
        }
    }
    return paths;
}

QWidget *JobSpecForm::fieldFor(const QString &path) const
{
    QWidget *best = nullptr;
    qsizetype bestLength = -1;
    for (const auto &[fieldPath, widget] : fieldPaths()) {
        const bool holds = path == fieldPath || path.startsWith(fieldPath + QLatin1Char('.'))
            || path.startsWith(fieldPath + QLatin1Char('['));
        if (holds && fieldPath.size() > bestLength) {
            best = widget;
            bestLength = fieldPath.size();
        }
    }
    // "which toolkit" issues name the properties object itself.
    if (!best && path == props && toolkitKey().isEmpty())
        best = m_toolkit;
    return best;
}

bool JobSpecForm::focusPath(const QString &path)
{
    QWidget *field = fieldFor(path);
    if (!field || !field->isEnabled())
        return false;
    if (auto *table = qobject_cast<JsonArrayTable *>(field)) {
        // "...outputDirectories[1].pathPrefix": that row and column.
        int row = -1;
        QString member;
        const QList<JsonPath::Segment> segments = JsonPath::split(path);
        for (qsizetype i = 0; i < segments.size(); ++i) {
            if (segments[i].index >= 0) {
                row = segments[i].index;
                if (i + 1 < segments.size())
                    member = segments[i + 1].key;
                break;
            }
        }
        table->focusCell(row, member);
        return true;
    }
    field->setFocus(Qt::OtherFocusReason);
    if (auto *edit = qobject_cast<QLineEdit *>(field))
        edit->selectAll();
    return true;
}

} // namespace TrainDesk::Ui
