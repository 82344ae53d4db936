#pragma once

#include <QWidget>

class QCheckBox;
class QLineEdit;
class QSpinBox;

namespace TrainDesk::Ui {

class JobSpecDocument;

// The job editor's "Retries and hangs" row: TrainDesk's extensions of job.json under
// properties.constraints (maxRetries, retryOnExitCodes, progressTimeout, failOnHang), kept
// in sync with the document like the other fields of JobSpecForm.
class ReliabilityFields : public QWidget
{
    Q_OBJECT

public:
    explicit ReliabilityFields(JobSpecDocument *document, QWidget *parent = nullptr);

    // Shows what the document holds (JobSpecForm calls it on every change).
    void refresh();
    QList<QWidget *> tabChain() const;

    QSpinBox *maxRetriesSpin() const { return m_maxRetries; }
    QLineEdit *exitCodesEdit() const { return m_exitCodes; }
    QLineEdit *progressTimeoutEdit() const { return m_progressTimeout; }
    QCheckBox *failOnHangCheck() const { return m_failOnHang; }

private:
    void set(const QString &key, const QJsonValue &value);

    JobSpecDocument *m_document;
    QSpinBox *m_maxRetries;
    QLineEdit *m_exitCodes;
    QLineEdit *m_progressTimeout;
    QCheckBox *m_failOnHang;
    bool m_updating = false;
};

} // namespace TrainDesk::Ui
