#include "ReliabilityFields.h"

#include "FieldHelp.h"
#include "JobSpecDocument.h"
#include "jobspec/JobSpecFields.h"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QJsonArray>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QSpinBox>

namespace TrainDesk::Ui {

namespace {
const QString constraints = QStringLiteral("properties.constraints.");
}

ReliabilityFields::ReliabilityFields(JobSpecDocument *document, QWidget *parent)
    : QWidget(parent),
      m_document(document),
      m_maxRetries(new QSpinBox(this)),
      m_exitCodes(new QLineEdit(this)),
      m_progressTimeout(new QLineEdit(this)),
      m_failOnHang(new QCheckBox(tr("Fail on hang"), this))
{
    setToolTip(tr("What happens when things go wrong on the nodes (TrainDesk extensions of job.json under "
                  "constraints): retries of a failed attempt and the progress timeout"));
    const FieldInfo &retries = jobSpecField(QStringLiteral("constraints.maxRetries"))->info;
    m_maxRetries->setRange(retries.minimum, retries.maximum);
    m_maxRetries->setSpecialValueText(retries.defaultText);
    m_maxRetries->setPrefix(tr("retries: "));
    m_maxRetries->setToolTip(fieldToolTip(QStringLiteral("constraints.maxRetries")));
    m_exitCodes->setPlaceholderText(tr("also on exit codes, e.g. 75,143"));
    m_exitCodes->setToolTip(fieldToolTip(QStringLiteral("constraints.retryOnExitCodes")));
    m_progressTimeout->setPlaceholderText(tr("progress timeout, e.g. 30m"));
    m_progressTimeout->setToolTip(fieldToolTip(QStringLiteral("constraints.progressTimeout")));
    m_failOnHang->setToolTip(fieldToolTip(QStringLiteral("constraints.failOnHang")));
    auto *row = new QHBoxLayout(this);
    row->setContentsMargins(0, 0, 0, 0);
    row->addWidget(m_maxRetries);
    row->addWidget(m_exitCodes, 1);
    row->addWidget(m_progressTimeout, 1);
    row->addWidget(m_failOnHang);

    connect(m_maxRetries, &QSpinBox::valueChanged, this, [this](int n) {
        set(QStringLiteral("maxRetries"), n > 0 ? QJsonValue(n) : QJsonValue(QJsonValue::Undefined));
    });
    connect(m_exitCodes, &QLineEdit::textChanged, this, [this](const QString &text) {
        // Numbers as typed; what is not one is kept as text, so the core names it.
        QJsonArray codes;
        for (const QString &item : text.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
            bool ok = false;
            const int code = item.trimmed().toInt(&ok);
            codes.append(ok ? QJsonValue(code) : QJsonValue(item.trimmed()));
        }
        set(QStringLiteral("retryOnExitCodes"), codes.isEmpty() ? QJsonValue(QJsonValue::Undefined) : QJsonValue(codes));
    });
    connect(m_progressTimeout, &QLineEdit::textChanged, this, [this](const QString &text) {
        set(QStringLiteral("progressTimeout"), text.trimmed().isEmpty() ? QJsonValue(QJsonValue::Undefined) : QJsonValue(text.trimmed()));
    });
    connect(m_failOnHang, &QCheckBox::toggled, this, [this](bool on) {
        set(QStringLiteral("failOnHang"), on ? QJsonValue(true) : QJsonValue(QJsonValue::Undefined));
    });
    refresh();
}

void ReliabilityFields::set(const QString &key, const QJsonValue &value)
{
    if (!m_updating)
        m_document->setValue(constraints + key, value);
}

void ReliabilityFields::refresh()
{
    m_updating = true;
    const QJsonObject c = m_document->properties().value(QLatin1String("constraints")).toObject();
    const int retries = c.value(QLatin1String("maxRetries")).toInt(0);
    if (m_maxRetries->value() != retries)
        m_maxRetries->setValue(retries);
    QStringList codes;
    for (const QJsonValue &v : c.value(QLatin1String("retryOnExitCodes")).toArray())
        codes << (v.isDouble() ? QString::number(v.toInt()) : v.toVariant().toString());
    // Equal lists keep the text as typed (spaces, a trailing comma) and the cursor.
    QStringList typed;
    for (const QString &item : m_exitCodes->text().split(QLatin1Char(','), Qt::SkipEmptyParts))
        typed << item.trimmed();
    if (typed != codes)
        m_exitCodes->setText(codes.join(QLatin1Char(',')));
    const QString timeout = c.value(QLatin1String("progressTimeout")).toString();
    if (m_progressTimeout->text().trimmed() != timeout)
        m_progressTimeout->setText(timeout);
    m_failOnHang->setChecked(c.value(QLatin1String("failOnHang")).toBool(false));
    m_updating = false;
}

QList<QWidget *> ReliabilityFields::tabChain() const
{
    return {m_maxRetries, m_exitCodes, m_progressTimeout, m_failOnHang};
}

} // namespace TrainDesk::Ui
