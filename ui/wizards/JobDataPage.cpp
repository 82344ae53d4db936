#include "JobDataPage.h"

#include "JobTargetPage.h"
#include "NewJobWizard.h"
#include "common/DataPaths.h"
#include "common/StateStyle.h"
#include "datasets/DataSetTexts.h"
#include "jobs/JobSpecContext.h"
#include "session/Backend.h"
#include "session/DataSetWorker.h"

#include <QComboBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QVBoxLayout>

namespace TrainDesk::Ui {

JobDataPage::JobDataPage(Backend *backend, QWidget *parent)
    : QWizardPage(parent),
      m_backend(backend),
      m_worker(new DataSetWorker(DataPaths::databasePath(), this)),
      m_dataSet(new QComboBox(this)),
      m_share(new QComboBox(this)),
      m_stateLabel(new QLabel(this)),
      m_fetch(new QPushButton(tr("&Fetch now"), this)),
      m_fromFile(new QPushButton(tr("From &file…"), this)),
      m_stop(new QPushButton(tr("S&top"), this)),
      m_progress(new QProgressBar(this)),
      m_status(new QLabel(this))
{
    setTitle(tr("Data set"));
    setSubTitle(tr("The job reads the data set from a share, in the folder of its name. When the share does not "
                   "hold it yet, Submit fetches it first (or fetch it now)."));
    m_dataSet->setObjectName(QStringLiteral("dataSetCombo"));
    for (const DataSet &set : DataSetCatalogue::all())
        m_dataSet->addItem(QStringLiteral("%1 \u2014 %2").arg(set.name, set.title), set.name);
    m_share->setObjectName(QStringLiteral("dataShareCombo"));
    m_share->setToolTip(tr("Shares of the job's workspace that its cluster's nodes see"));
    m_stateLabel->setObjectName(QStringLiteral("dataState"));
    m_stateLabel->setWordWrap(true);
    m_fetch->setObjectName(QStringLiteral("fetchDataButton"));
    m_fetch->setToolTip(tr("Download the data set into the share now"));
    m_fromFile->setToolTip(tr("Use files you downloaded yourself: each is checked against the published MD5"));
    m_stop->setToolTip(tr("Stop the download; the next fetch continues where it stopped"));
    m_progress->setRange(0, 1000);
    m_progress->setValue(0);
    m_status->setObjectName(QStringLiteral("dataStatus"));
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_status->setTextFormat(Qt::PlainText);

    auto *form = new QFormLayout;
    form->addRow(tr("&Data set:"), m_dataSet);
    form->addRow(tr("&Share:"), m_share);
    form->addRow(tr("In the share:"), m_stateLabel);
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_fetch);
    buttons->addWidget(m_fromFile);
    buttons->addWidget(m_stop);
    buttons->addWidget(m_progress, 1);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addLayout(buttons);
    layout->addWidget(m_status);
    layout->addStretch(1);

    connect(m_dataSet, &QComboBox::currentIndexChanged, this, &JobDataPage::readState);
    connect(m_share, &QComboBox::currentIndexChanged, this, &JobDataPage::readState);
    connect(m_fetch, &QPushButton::clicked, this, [this] { fetch(); });
    connect(m_fromFile, &QPushButton::clicked, this, [this] {
        const DataSet *set = DataSetCatalogue::find(dataSetName());
        if (!set)
            return;
        const QStringList files = QFileDialog::getOpenFileNames(
            this, tr("Files of %1 (%2)").arg(set->title, filesText(*set)), QString(), tr("Data set files (*.gz);;All files (*)"));
        if (!files.isEmpty())
            fetch(files);
    });
    connect(m_stop, &QPushButton::clicked, this, &JobDataPage::cancelFetch);
    connect(m_worker, &DataSetWorker::statesRead, this,
            [this](int id, const QList<DataSetPresence> &states, const QString &error) {
                if (id != m_statesRequest)
                    return;
                m_statesRequest = 0;
                m_known = false;
                for (const DataSetPresence &p : states) {
                    if (p.dataSet == dataSetName()) {
                        m_known = true;
                        m_state = p.state;
                        m_stateLabel->setText(presenceText(p));
                    }
                }
                if (!error.isEmpty())
                    m_stateLabel->setText(tr("cannot look into the share: %1").arg(error));
                updateButtons();
                Q_EMIT stateRead();
            });
    connect(m_worker, &DataSetWorker::fetchProgress, this, [this](int id, qint64 done, qint64 total, const QString &what) {
        if (id != m_fetchRequest)
            return;
        m_progress->setRange(0, total > 0 ? 1000 : 0);
        if (total > 0)
            m_progress->setValue(int(done * 1000 / total));
        const QString text = tr("%1: %2 of %3").arg(what, formatBytes(done), total > 0 ? formatBytes(total) : tr("?"));
        m_status->setText(text);
        Q_EMIT fetchStatus(total > 0 ? tr("Fetching %1: %2%").arg(dataSetName()).arg(done * 100 / total) : text);
    });
    connect(m_worker, &DataSetWorker::fetchFinished, this,
            [this](int id, const QString &error, bool unreachable, bool) {
                if (id != m_fetchRequest)
                    return;
                m_fetchRequest = 0;
                m_progress->setRange(0, 1000);
                m_progress->setValue(error.isEmpty() ? 1000 : 0);
                const DataSet *set = DataSetCatalogue::find(dataSetName());
                const QString text = error.isEmpty() || !set ? error : fetchErrorText(*set, error, unreachable);
                m_status->setText(error.isEmpty() ? tr("Fetched and verified.") : text);
                if (error.isEmpty()) {
                    m_known = true;
                    m_state = DataSetPresence::State::Fetched;
                }
                updateButtons();
                readState();
                Q_EMIT fetchFinished(text);
            });
    updateButtons();
}

JobDataPage::~JobDataPage() = default;

void JobDataPage::initializePage()
{
    auto *w = qobject_cast<NewJobWizard *>(wizard());
    if (!w)
        return;
    const qint64 workspaceId = w->targetPage()->workspaceId();
    const qint64 clusterId = w->targetPage()->clusterId();
    const QString key = QStringLiteral("%1:%2:%3").arg(w->templateDataSet()).arg(workspaceId).arg(clusterId);
    if (key == m_preparedFor)
        return;  // back from the next page: keep the choices
    m_preparedFor = key;
    const QSignalBlocker blockSets(m_dataSet);
    const QSignalBlocker blockShares(m_share);
    m_dataSet->setCurrentIndex(qMax(0, m_dataSet->findData(w->templateDataSet())));
    const QString current = m_share->currentText();
    m_share->clear();
    if (const auto *ws = m_backend->snapshot().findWorkspace(workspaceId)) {
        for (const Share &share : ws->shares) {
            if (clusterSeesShare(share, clusterId))
                m_share->addItem(share.name, share.id);
        }
    }
    m_share->setCurrentIndex(qMax(0, m_share->findText(current)));
    readState();
}

bool JobDataPage::isComplete() const
{
    return m_share->count() > 0 && !fetching();
}

QString JobDataPage::dataSetName() const
{
    return m_dataSet->currentData().toString();
}

QString JobDataPage::shareName() const
{
    return m_share->currentText();
}

void JobDataPage::readState()
{
    m_known = false;
    updateButtons();
    const Share *share = m_backend->snapshot().findShare(m_share->currentData().toLongLong());
    if (!share) {
        m_stateLabel->setText(tr("no share of this workspace is seen by the cluster's nodes: make one first"));
        return;
    }
    m_stateLabel->setText(tr("looking…"));
    m_statesRequest = m_worker->readStates(*share);
}

void JobDataPage::fetch(const QStringList &from)
{
    const Share *share = m_backend->snapshot().findShare(m_share->currentData().toLongLong());
    if (fetching() || !share)
        return;
    m_status->setText(from.isEmpty() ? tr("Fetching %1 into share %2…").arg(dataSetName(), share->name)
                                     : tr("Checking the given files…"));
    m_progress->setValue(0);
    m_fetchRequest = m_worker->fetch(*share, dataSetName(), from);
    updateButtons();
    Q_EMIT completeChanged();
}

void JobDataPage::cancelFetch()
{
    if (m_fetchRequest)
        m_worker->cancel(m_fetchRequest);
}

QString JobDataPage::statusText() const
{
    return m_status->text();
}

void JobDataPage::updateButtons()
{
    const bool idle = !fetching();
    const bool share = m_share->count() > 0;
    m_fetch->setEnabled(idle && share && !dataReady());
    m_fromFile->setEnabled(idle && share && !dataReady());
    m_stop->setEnabled(!idle);
    // The bar shows a fetch: under way, or how the last one ended.
    m_progress->setVisible(!idle || m_progress->value() > 0);
    m_dataSet->setEnabled(idle);
    m_share->setEnabled(idle);
    Q_EMIT completeChanged();
}

} // namespace TrainDesk::Ui
