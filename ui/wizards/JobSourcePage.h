#pragma once

#include <QWizardPage>

class QButtonGroup;
class QComboBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QPushButton;
class QRadioButton;

namespace TrainDesk {
class Backend;
}

namespace TrainDesk::Ui {

// Where a new job's job.json comes from: a template, a copy of a job that exists, or a
// file (read by the worker thread).
class JobSourcePage : public QWizardPage
{
    Q_OBJECT

public:
    enum class Source { Template, Clone, Import };

    explicit JobSourcePage(Backend *backend, QWidget *parent = nullptr);

    void initializePage() override;
    bool isComplete() const override;

    Source source() const;
    QByteArray spec() const;
    // A name for the new job, from the template, the job cloned or the file.
    QString suggestedName() const;
    // Changes when the choice does: the editor reloads only then, keeping edits otherwise.
    QString sourceKey() const;
    qint64 cloneJobId() const;

    void selectTemplate(int row);
    void selectClone(qint64 jobId);
    // Reads the file (asynchronously); importStatus() tells the outcome.
    void selectImport(const QString &path);
    QString importStatus() const;

    QListWidget *templateList() const { return m_templates; }
    QComboBox *cloneCombo() const { return m_cloneJobs; }
    QLineEdit *importPathEdit() const { return m_importPath; }

Q_SIGNALS:
    void importRead(const QString &error);

private:
    // The constructor's steps.
    void setUpWidgets();
    void layOut();
    void connectChoices();
    void takeImportedFile(int id, const QByteArray &data, const QString &error);

    void fillJobs();
    void readImport();
    void updateEnabled();

    Backend *m_backend;
    QButtonGroup *m_group;
    QRadioButton *m_templateRadio;
    QRadioButton *m_cloneRadio;
    QRadioButton *m_importRadio;
    QListWidget *m_templates;
    QLabel *m_templateDescription;
    QComboBox *m_cloneJobs;
    QLineEdit *m_importPath;
    QPushButton *m_browse;
    QLabel *m_importStatus;
    int m_readRequest = 0;
    QString m_importedPath;
    QByteArray m_imported;
    int m_importGeneration = 0;
};

} // namespace TrainDesk::Ui
