#include "JobSourcePage.h"
#include "common/FileDialogs.h"

#include "JobTemplates.h"
#include "common/Icons.h"
#include "common/StateStyle.h"
#include "session/Backend.h"

#include <QButtonGroup>
#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QGridLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QRadioButton>

namespace TrainDesk::Ui {

JobSourcePage::JobSourcePage(Backend *backend, QWidget *parent)
    : QWizardPage(parent),
      m_backend(backend),
      m_group(new QButtonGroup(this)),
      m_templateRadio(new QRadioButton(tr("From a &template"), this)),
      m_cloneRadio(new QRadioButton(tr("&Copy a job"), this)),
      m_importRadio(new QRadioButton(tr("&Import a job.json file"), this)),
      m_templates(new QListWidget(this)),
      m_templateDescription(new QLabel(this)),
      m_cloneJobs(new QComboBox(this)),
      m_importPath(new QLineEdit(this)),
      m_browse(new QPushButton(appIcon(QStringLiteral("import")), tr("Bro&wse…"), this)),
      m_importStatus(new QLabel(this))
{
    setUpWidgets();
    layOut();
    connectChoices();
    connect(m_backend, &Backend::fileRead, this, &JobSourcePage::takeImportedFile);
    updateEnabled();
}

void JobSourcePage::setUpWidgets()
{
    setTitle(tr("New job"));
    setSubTitle(tr("Start from a template, a copy of a job you ran, or a job.json written for Batch AI."));
    m_group->addButton(m_templateRadio, int(Source::Template));
    m_group->addButton(m_cloneRadio, int(Source::Clone));
    m_group->addButton(m_importRadio, int(Source::Import));
    m_templateRadio->setChecked(true);
    m_templateRadio->setToolTip(tr("A job.json that works as it is"));
    m_cloneRadio->setToolTip(tr("The job.json of a job that exists, to change and run again"));
    m_importRadio->setToolTip(tr("A job.json file, for example one written for az batchai job create"));

    m_templates->setObjectName(QStringLiteral("templateList"));
    for (const JobTemplate &t : jobTemplates()) {
        auto *item = new QListWidgetItem(appIcon(QStringLiteral("new-job")), t.title, m_templates);
        item->setToolTip(t.description);
    }
    m_templates->setCurrentRow(0);
    m_templates->setMaximumHeight(80);
    m_templateDescription->setWordWrap(true);
    m_cloneJobs->setObjectName(QStringLiteral("cloneCombo"));
    m_cloneJobs->setToolTip(tr("Workspace / experiment / job"));
    m_importPath->setObjectName(QStringLiteral("importPath"));
    m_importPath->setPlaceholderText(tr("a job.json file; press Enter to read it"));
    m_importPath->setToolTip(tr("The file is read when you press Enter or choose it with Browse"));
    m_importStatus->setWordWrap(true);
    m_importStatus->setObjectName(QStringLiteral("importStatus"));
}

// Each source's radio button with its fields indented below it.
void JobSourcePage::layOut()
{
    auto *layout = new QGridLayout(this);
    layout->setColumnMinimumWidth(0, 24);
    layout->addWidget(m_templateRadio, 0, 0, 1, 3);
    layout->addWidget(m_templates, 1, 1, 1, 2);
    layout->addWidget(m_templateDescription, 2, 1, 1, 2);
    layout->addWidget(m_cloneRadio, 3, 0, 1, 3);
    layout->addWidget(m_cloneJobs, 4, 1, 1, 2);
    layout->addWidget(m_importRadio, 5, 0, 1, 3);
    layout->addWidget(m_importPath, 6, 1);
    layout->addWidget(m_browse, 6, 2);
    layout->addWidget(m_importStatus, 7, 1, 1, 2);
    layout->setRowStretch(8, 1);
    layout->setColumnStretch(1, 1);
    setTabOrder(m_templateRadio, m_templates);
    setTabOrder(m_templates, m_cloneRadio);
    setTabOrder(m_cloneRadio, m_cloneJobs);
    setTabOrder(m_cloneJobs, m_importRadio);
    setTabOrder(m_importRadio, m_importPath);
    setTabOrder(m_importPath, m_browse);
}

void JobSourcePage::connectChoices()
{
    connect(m_group, &QButtonGroup::idToggled, this, [this](int, bool checked) {
        if (checked) {
            updateEnabled();
            Q_EMIT completeChanged();
        }
    });
    connect(m_templates, &QListWidget::currentRowChanged, this, [this](int row) {
        m_templateDescription->setText(row >= 0 ? m_templates->item(row)->toolTip() : QString());
        Q_EMIT completeChanged();
    });
    m_templateDescription->setText(m_templates->item(0)->toolTip());
    connect(m_cloneJobs, &QComboBox::currentIndexChanged, this, &JobSourcePage::completeChanged);
    connect(m_importPath, &QLineEdit::returnPressed, this, &JobSourcePage::readImport);
    connect(m_importPath, &QLineEdit::textChanged, this, [this] {
        // Another path: what was read no longer counts until it is read.
        if (m_importPath->text() != m_importedPath) {
            m_importedPath.clear();
            m_imported.clear();
            m_importStatus->clear();
            Q_EMIT completeChanged();
        }
    });
    connect(m_browse, &QPushButton::clicked, this, [this] {
        const QString path = FileDialogs::openFileName(this, QStringLiteral("import-job"), tr("Import job.json"),
                                                             m_importPath->text(), tr("Job files (*.json);;All files (*)"));
        if (!path.isEmpty())
            selectImport(path);
    });
}

// The worker read the file to import (readImport()): it counts from now on.
void JobSourcePage::takeImportedFile(int id, const QByteArray &data, const QString &error)
{
    if (id != m_readRequest)
        return;
    m_readRequest = 0;
    if (error.isEmpty()) {
        m_importedPath = m_importPath->text();
        m_imported = data;
        ++m_importGeneration;
        m_importStatus->setText(tr("Read %1 (%2).").arg(QFileInfo(m_importedPath).fileName(), formatBytes(data.size())));
    } else {
        m_importStatus->setText(error);
    }
    Q_EMIT completeChanged();
    Q_EMIT importRead(error);
}

void JobSourcePage::initializePage()
{
    fillJobs();
}

void JobSourcePage::fillJobs()
{
    const qint64 current = cloneJobId();
    m_cloneJobs->clear();
    for (const auto &ws : m_backend->snapshot().workspaces) {
        for (const auto &exp : ws.experiments) {
            for (const Job &job : exp.jobs) {
                m_cloneJobs->addItem(stateIcon(stateColor(job.state)),
                                     QStringLiteral("%1 / %2 / %3").arg(ws.workspace.name, exp.experiment.name, job.name),
                                     job.id);
            }
        }
    }
    if (const int index = m_cloneJobs->findData(current); index >= 0)
        m_cloneJobs->setCurrentIndex(index);
    m_cloneRadio->setEnabled(m_cloneJobs->count() > 0);
}

void JobSourcePage::updateEnabled()
{
    const Source s = source();
    m_templates->setEnabled(s == Source::Template);
    m_templateDescription->setEnabled(s == Source::Template);
    m_cloneJobs->setEnabled(s == Source::Clone);
    m_importPath->setEnabled(s == Source::Import);
    m_browse->setEnabled(s == Source::Import);
}

JobSourcePage::Source JobSourcePage::source() const
{
    return Source(m_group->checkedId());
}

bool JobSourcePage::isComplete() const
{
    switch (source()) {
    case Source::Template:
        return m_templates->currentRow() >= 0;
    case Source::Clone:
        return cloneJobId() != 0;
    case Source::Import:
        return !m_importedPath.isEmpty();
    }
    return false;
}

qint64 JobSourcePage::cloneJobId() const
{
    return m_cloneJobs->currentData().toLongLong();
}

QByteArray JobSourcePage::spec() const
{
    switch (source()) {
    case Source::Template:
        return jobTemplates().value(m_templates->currentRow()).spec;
    case Source::Clone:
        if (const Job *job = m_backend->snapshot().findJob(cloneJobId()))
            return job->spec;
        return {};
    case Source::Import:
        return m_imported;
    }
    return {};
}

QString JobSourcePage::suggestedName() const
{
    switch (source()) {
    case Source::Template:
        return jobTemplates().value(m_templates->currentRow()).suggestedName;
    case Source::Clone:
        if (const Job *job = m_backend->snapshot().findJob(cloneJobId()))
            return job->name;
        return {};
    case Source::Import: {
        QString base = QFileInfo(m_importedPath).completeBaseName();
        // Job names allow letters, digits, '-' and '_' only.
        for (QChar &c : base) {
            if (!c.isLetterOrNumber() && c != QLatin1Char('-') && c != QLatin1Char('_'))
                c = QLatin1Char('-');
        }
        return base == QLatin1String("job") || base.isEmpty() ? QStringLiteral("imported-job") : base;
    }
    }
    return {};
}

QString JobSourcePage::sourceKey() const
{
    switch (source()) {
    case Source::Template:
        return QStringLiteral("template:%1").arg(m_templates->currentRow());
    case Source::Clone:
        return QStringLiteral("clone:%1").arg(cloneJobId());
    case Source::Import:
        return QStringLiteral("import:%1:%2").arg(m_importGeneration).arg(m_importedPath);
    }
    return {};
}

void JobSourcePage::selectTemplate(int row)
{
    m_templateRadio->setChecked(true);
    m_templates->setCurrentRow(row);
}

void JobSourcePage::selectClone(qint64 jobId)
{
    fillJobs();
    m_cloneRadio->setChecked(true);
    m_cloneJobs->setCurrentIndex(m_cloneJobs->findData(jobId));
}

void JobSourcePage::selectImport(const QString &path)
{
    m_importRadio->setChecked(true);
    m_importPath->setText(path);
    readImport();
}

void JobSourcePage::readImport()
{
    const QString path = m_importPath->text().trimmed();
    if (path.isEmpty())
        return;
    m_importStatus->setText(tr("Reading %1…").arg(path));
    m_readRequest = m_backend->readFile(path);
}

QString JobSourcePage::importStatus() const
{
    return m_importStatus->text();
}

} // namespace TrainDesk::Ui
