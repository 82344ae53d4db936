#pragma once

#include <QWizardPage>

class QLabel;
class QPushButton;

namespace TrainDesk {
class Backend;
}

namespace TrainDesk::Ui {

class JobEditor;

// The job.json in the editor (form and JSON, checked against the chosen workspace and
// cluster), Export, and what submitting said.
class JobEditPage : public QWizardPage
{
    Q_OBJECT

public:
    explicit JobEditPage(Backend *backend, QWidget *parent = nullptr);

    void initializePage() override;
    bool isComplete() const override;

    // Writes the JSON to `path` in the worker; exported() reports.
    void exportTo(const QString &path);
    // While a submit is under way the page is read-only and Submit is off.
    void setBusy(bool busy, const QString &message = {});
    void showError(const QString &message);
    QString statusText() const;

    JobEditor *editor() const { return m_editor; }
    QPushButton *exportButton() const { return m_export; }

Q_SIGNALS:
    void exported(const QString &path, const QString &error);

private:
    Backend *m_backend;
    JobEditor *m_editor;
    QPushButton *m_export;
    QLabel *m_status;
    QString m_loadedKey;
    bool m_busy = false;
    int m_writeRequest = 0;
    QString m_writePath;
};

} // namespace TrainDesk::Ui
