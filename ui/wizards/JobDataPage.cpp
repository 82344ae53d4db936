#include "JobDataPage.h"

#include "JobTargetPage.h"
#include "NewJobWizard.h"
#include "common/DataPaths.h"
#include "common/StateStyle.h"
#include "datasets/DataSetFetchBar.h"
#include "datasets/DataSetTexts.h"
#include "launch/JobSpecContext.h"
#include "session/Backend.h"
#include "session/DataSetWorker.h"

#include <QComboBox>
#include <QFormLayout>
#include <QLabel>
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
      m_bar(new DataSetFetchBar(m_worker, this))
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

    auto *form = new QFormLayout;
    form->addRow(tr("&Data set:"), m_dataSet);
    form->addRow(tr("S&hare:"), m_share);
    form->addRow(tr("In the share:"), m_stateLabel);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_bar);
    layout->addStretch(1);

    connect(m_dataSet, &QComboBox::currentIndexChanged, this, &JobDataPage::readState);
    connect(m_share, &QComboBox::currentIndexChanged, this, &JobDataPage::readState);
    connect(m_worker, &DataSetWorker::statesRead, this,
            [this](int id, const QList<DataSetPresence> &states, const QString &error) {
                if (id != m_statesRequest)
                    return;
                m_statesRequest = 0;
                for (const DataSetPresence &p : states) {
                    if (p.dataSet == dataSetName()) {
                        m_known = true;
                        m_state = p.state;
                        m_stateLabel->setText(presenceText(p));
                    }
                }
                if (!error.isEmpty())
                    m_stateLabel->setText(tr("cannot look into the share: %1").arg(error));
                m_bar->setOffered(!dataReady());
                Q_EMIT stateRead();
            });
    connect(m_bar, &DataSetFetchBar::fetchStarted, this, [this] {
        m_dataSet->setEnabled(false);
        m_share->setEnabled(false);
        Q_EMIT completeChanged();
    });
    connect(m_bar, &DataSetFetchBar::progressText, this, &JobDataPage::fetchStatus);
    connect(m_bar, &DataSetFetchBar::finished, this, [this](const QString &error) {
        m_dataSet->setEnabled(true);
        m_share->setEnabled(true);
        readState();
        Q_EMIT completeChanged();
        Q_EMIT fetchFinished(error);
    });
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
    const auto *ws = m_backend->snapshot().findWorkspace(workspaceId);
    const auto *cluster = m_backend->snapshot().findCluster(clusterId);
    if (ws && cluster) {
        for (const Share &share : ws->shares) {
            if (clusterSeesShare(share, cluster->cluster))
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

bool JobDataPage::fetching() const
{
    return m_bar->fetching();
}

QPushButton *JobDataPage::fetchButton() const
{
    return m_bar->fetchButton();
}

const Share *JobDataPage::chosenShare() const
{
    return m_backend->snapshot().findShare(m_share->currentData().toLongLong());
}

void JobDataPage::readState()
{
    m_known = false;
    const Share *share = chosenShare();
    if (!share) {
        m_bar->clearChoice();
        m_stateLabel->setText(tr("no share of this workspace is seen by the cluster's nodes: make one first"));
        return;
    }
    m_bar->setChoice(*share, dataSetName());
    m_bar->setOffered(false);  // until the state is known
    m_stateLabel->setText(tr("looking…"));
    m_statesRequest = m_worker->readStates(*share);
}

void JobDataPage::fetch(const QStringList &from)
{
    m_bar->fetch(from);
}

void JobDataPage::stopFetch()
{
    m_bar->stop();
}

} // namespace TrainDesk::Ui
