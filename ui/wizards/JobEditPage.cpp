#include "JobEditPage.h"
#include "common/FileDialogs.h"

#include "JobSourcePage.h"
#include "JobTargetPage.h"
#include "NewJobWizard.h"
#include "common/Icons.h"
#include "editor/JobEditor.h"
#include "session/Backend.h"

#include <QFileDialog>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

namespace TrainDesk::Ui {

JobEditPage::JobEditPage(Backend *backend, QWidget *parent)
    : QWizardPage(parent),
      m_backend(backend),
      m_editor(new JobEditor(this)),
      m_export(new QPushButton(appIcon(QStringLiteral("export")), tr("E&xport JSON…"), this)),
      m_status(new QLabel(this))
{
    setTitle(tr("The job.json"));
    setSubTitle(tr("Edit the form or the JSON: each follows the other, and every change is checked as the "
                   "submit will check it."));
    m_export->setToolTip(tr("Save this job.json to a file (for the CLI or to keep)"));
    m_status->setWordWrap(true);
    m_status->setObjectName(QStringLiteral("submitStatus"));
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto *bottom = new QHBoxLayout;
    bottom->addWidget(m_status, 1);
    bottom->addWidget(m_export);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_editor, 1);
    layout->addLayout(bottom);

    connect(m_editor, &JobEditor::validityChanged, this, &JobEditPage::completeChanged);
    connect(m_export, &QPushButton::clicked, this, [this] {
        const QString path = FileDialogs::saveFileName(this, QStringLiteral("export-job"), tr("Export job.json"),
                                                             QStringLiteral("job.json"), tr("Job files (*.json)"));
        if (!path.isEmpty())
            exportTo(path);
    });
    connect(m_backend, &Backend::fileWritten, this, [this](int id, const QString &error) {
        if (id != m_writeRequest)
            return;
        m_writeRequest = 0;
        m_status->setText(error.isEmpty() ? tr("Exported to %1.").arg(m_writePath) : error);
        Q_EMIT exported(m_writePath, error);
    });
}

void JobEditPage::initializePage()
{
    auto *w = qobject_cast<NewJobWizard *>(wizard());
    if (!w)
        return;
    // A new source replaces the text; coming back from the next page keeps the edits.
    const QString key = w->sourceKey();
    if (key != m_loadedKey) {
        m_loadedKey = key;
        m_editor->setText(w->sourceSpec());
    }
    const ResourceSnapshot &snapshot = m_backend->snapshot();
    const auto *cluster = snapshot.findCluster(w->targetPage()->clusterId());
    m_editor->setClusterHealth(cluster ? nodeHealthOf(*cluster) : QList<NodeHealth>());
    m_editor->setContext(snapshot.specContext(w->targetPage()->workspaceId(), w->targetPage()->clusterId()));
    m_status->clear();
}

bool JobEditPage::isComplete() const
{
    return !m_busy && !m_editor->hasErrors();
}

void JobEditPage::exportTo(const QString &path)
{
    m_writePath = path;
    m_status->setText(tr("Writing %1…").arg(path));
    m_writeRequest = m_backend->writeFile(path, m_editor->text());
}

void JobEditPage::setBusy(bool busy, const QString &message)
{
    m_busy = busy;
    m_editor->setEnabled(!busy);
    if (!message.isEmpty())
        m_status->setText(message);
    Q_EMIT completeChanged();
}

void JobEditPage::showError(const QString &message)
{
    m_status->setText(tr("<b>Not submitted:</b> %1").arg(message.toHtmlEscaped()));
}

QString JobEditPage::statusText() const
{
    return m_status->text();
}

} // namespace TrainDesk::Ui
