#include "JobSpecForm.h"

#include "FieldHelp.h"
#include "JobSpecDocument.h"
#include "JsonArrayTable.h"
#include "JsonPath.h"
#include "ReliabilityFields.h"
#include "jobspec/JobSpecFields.h"
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

const FieldRow &field(const QString &path)
{
    const FieldRow *row = jobSpecField(path);
    Q_ASSERT_X(row, "JobSpecForm", qPrintable(path));
    return *row;
}

// A column of an array table: required and its tooltip as the job.json table says.
JsonArrayTable::Column column(const QString &array, const QString &member, const QString &title)
{
    const FieldRow &row = field(array + QStringLiteral("[].") + member);
    QString tip = row.info.help;
    tip[0] = tip[0].toUpper();
    if (!row.required)
        tip += JobSpecForm::tr(" (optional)");
    return {member, title, row.required, tip};
}

} // namespace

const QList<JobSpecForm::ToolkitInfo> &JobSpecForm::toolkits()
{
    // The toolkits whose settings the form's fields cover, in the menu's order; what each has
    // comes from the job.json table.
    static const QList<ToolkitInfo> list = [] {
        QList<ToolkitInfo> infos;
        for (const char *key : {"customMpiSettings", "horovodSettings", "customToolkitSettings", "pyTorchSettings",
                                "chainerSettings", "caffe2Settings"}) {
            const ToolkitEntry *t = toolkitEntry(QLatin1String(key));
            Q_ASSERT(t);
            infos.append({t->key, QStringLiteral("%1: %2").arg(t->name, t->help),
                          jobSpecField(t->key + QStringLiteral(".commandLine")) != nullptr,
                          jobSpecField(t->key + QStringLiteral(".processCount")) != nullptr});
        }
        return infos;
    }();
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
      m_outputs(new JsonArrayTable({column(QStringLiteral("outputDirectories"), QStringLiteral("id"), tr("Id")),
                                    column(QStringLiteral("outputDirectories"), QStringLiteral("pathPrefix"), tr("Path prefix")),
                                    column(QStringLiteral("outputDirectories"), QStringLiteral("pathSuffix"), tr("Path suffix"))},
                                   this)),
      m_environment(new JsonArrayTable({column(QStringLiteral("environmentVariables"), QStringLiteral("name"), tr("Name")),
                                        column(QStringLiteral("environmentVariables"), QStringLiteral("value"), tr("Value"))},
                                       this)),
      m_priority(new QComboBox(this)),
      m_reliability(new ReliabilityFields(document, this))
{
    setUpFields();
    layOut();
    connectJobFields();
    connectToolkitFields();
    connect(m_document, &JobSpecDocument::changed, this, &JobSpecForm::refresh);
    refresh();
}

void JobSpecForm::setUpFields()
{
    m_notice->setWordWrap(true);
    m_notice->setVisible(false);
    m_notice->setObjectName(QStringLiteral("formNotice"));

    // Ranges and help from the job.json table; the spin boxes stop where a form would (the
    // JSON takes more).
    m_nodeCount->setRange(field(QStringLiteral("nodeCount")).info.minimum, 1000);
    m_nodeCount->setToolTip(fieldToolTip(QStringLiteral("nodeCount")));
    for (const ToolkitInfo &t : toolkits())
        m_toolkit->addItem(t.label, t.key);
    m_toolkit->setToolTip(tr("The toolkit settings member: how the job is started"));
    m_commandLine->setPlaceholderText(tr("e.g. traindesk-trainer --epochs 2 --dir $AZ_BATCHAI_OUTPUT_MODEL"));
    // One field for each toolkit's member: the tooltips name the member, not a toolkit.
    m_commandLine->setToolTip(fieldToolTip(QStringLiteral("customMpiSettings.commandLine"), QStringLiteral("commandLine")));
    m_script->setPlaceholderText(tr("e.g. $AZ_BATCHAI_JOB_MOUNT_ROOT/myshare/cifar/train.py"));
    m_script->setToolTip(fieldToolTip(QStringLiteral("horovodSettings.pythonScriptFilePath"), QStringLiteral("pythonScriptFilePath")));
    m_arguments->setPlaceholderText(tr("e.g. --dir=$AZ_BATCHAI_JOB_MOUNT_ROOT/myshare/cifar"));
    m_arguments->setToolTip(fieldToolTip(QStringLiteral("horovodSettings.commandLineArgs"), QStringLiteral("commandLineArgs")));
    // 0 below the table's minimum stands for "absent" (its default).
    m_processCount->setRange(field(QStringLiteral("horovodSettings.processCount")).info.minimum - 1, 100000);
    m_processCount->setSpecialValueText(field(QStringLiteral("horovodSettings.processCount")).info.defaultText);
    m_processCount->setToolTip(fieldToolTip(QStringLiteral("horovodSettings.processCount"), QStringLiteral("processCount")));
    m_stdOutErr->setPlaceholderText(tr("e.g. $AZ_BATCHAI_JOB_MOUNT_ROOT/local"));
    m_stdOutErr->setToolTip(fieldToolTip(QStringLiteral("stdOutErrPathPrefix")));
    m_preparation->setPlaceholderText(tr("optional: e.g. pip install keras horovod"));
    m_preparation->setToolTip(fieldToolTip(QStringLiteral("jobPreparation.commandLine")));
    m_outputs->setToolTip(fieldToolTip(QStringLiteral("outputDirectories")));
    m_environment->setToolTip(fieldToolTip(QStringLiteral("environmentVariables")));
    const FieldInfo &priority = field(QStringLiteral("schedulingPriority")).info;
    m_priority->addItem(tr("default (%1)").arg(priority.defaultText), QString());
    for (const QString &value : priority.allowed)
        m_priority->addItem(value, value);
    m_priority->setToolTip(fieldToolTip(QStringLiteral("schedulingPriority")));
}

// A row per field, labelled with a mnemonic and the field's tooltip, in the tab order.
void JobSpecForm::layOut()
{
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
}

// Each field edits its member of the document (none while refresh() fills the fields in).
void JobSpecForm::connectJobFields()
{
    connect(m_nodeCount, &QSpinBox::valueChanged, this, [this](int n) {
        if (!m_updating)
            m_document->setValue(at(props, QStringLiteral("nodeCount")), n);
    });
    connect(m_toolkit, &QComboBox::currentIndexChanged, this, [this] {
        if (!m_updating)
            switchToolkit(m_toolkit->currentData().toString());
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
}

// The fields of the chosen toolkit's settings member.
void JobSpecForm::connectToolkitFields()
{
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
    const QJsonObject before = m_document->properties().value(old).toObject();
    // What means the same in both (a member of the same name) is carried over, but an empty
    // optional string; what the new one requires starts empty, so the core names it at once.
    QJsonObject after;
    const QString prefix = key + QLatin1Char('.');
    for (const FieldRow &row : jobSpecFields()) {
        if (!row.path.startsWith(prefix) || row.path.indexOf(QLatin1Char('.'), prefix.size()) >= 0)
            continue;
        const QJsonValue value = before.value(row.info.key);
        if (row.required && row.type == FieldType::String)
            after.insert(row.info.key, value.toString());
        else if (!value.isUndefined() && value != QJsonValue(QString()))
            after.insert(row.info.key, value);
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
                : field(QStringLiteral("horovodSettings.processCount")).info.defaultText);
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
