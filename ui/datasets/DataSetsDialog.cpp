#include "DataSetsDialog.h"
#include "common/ScreenFit.h"

#include "DataSetFetchBar.h"
#include "DataSetTexts.h"
#include "common/StateStyle.h"
#include "session/DataSetWorker.h"

#include <QDialogButtonBox>
#include <QHeaderView>
#include <QLabel>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace TrainDesk::Ui {

namespace {
enum Column { NameColumn, TitleColumn, StateColumn, FilesColumn };
}

DataSetsDialog::DataSetsDialog(const QString &databasePath, const Share &share, QWidget *parent)
    : QDialog(parent),
      m_share(share),
      m_worker(new DataSetWorker(databasePath, this)),
      m_list(new QTreeWidget(this)),
      m_bar(new DataSetFetchBar(m_worker, this)),
      m_problem(new QLabel(this))
{
    setObjectName(QStringLiteral("dataSetsDialog"));
    setWindowTitle(tr("Data sets in share %1").arg(share.name));
    auto *where = new QLabel(this);
    where->setWordWrap(true);
    where->setText(tr("Each data set goes into the folder of its name in share <b>%1</b> (%2, %3), downloaded "
                      "once from its publisher and checked against the published MD5. Jobs read it at "
                      "<tt>$AZ_BATCHAI_JOB_MOUNT_ROOT/%1/&lt;name&gt;</tt>.")
                       .arg(share.name.toHtmlEscaped(), toString(share.kind), share.path.toHtmlEscaped()));
    m_list->setObjectName(QStringLiteral("dataSetList"));
    m_list->setRootIsDecorated(false);
    m_list->setHeaderLabels({tr("Name"), tr("Data set"), tr("In this share"), tr("Files")});
    m_list->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_list->header()->setStretchLastSection(true);
    for (const DataSet &set : DataSetCatalogue::all()) {
        const QString files = set.files.size() == 1 ? set.files.first().name : tr("%n files", nullptr, int(set.files.size()));
        auto *item = new QTreeWidgetItem(m_list, {set.name, set.title, tr("looking…"), files});
        item->setToolTip(TitleColumn, set.homepage);
        item->setToolTip(FilesColumn, filesText(set));
    }
    m_problem->setWordWrap(true);
    m_problem->setVisible(false);

    auto *close = new QDialogButtonBox(QDialogButtonBox::Close, this);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(where);
    layout->addWidget(m_list, 1);
    layout->addWidget(m_problem);
    layout->addWidget(m_bar);
    layout->addWidget(close);
    ScreenFit::resizeWithin(this, {820, 380});

    connect(close, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_list, &QTreeWidget::currentItemChanged, this, [this] { m_bar->setChoice(m_share, selectedName()); });
    connect(m_worker, &DataSetWorker::statesRead, this,
            [this](int id, const QList<DataSetPresence> &states, const QString &error) {
                if (id != m_statesRequest)
                    return;
                m_statesRequest = 0;
                m_problem->setText(tr("Cannot look into share %1: %2").arg(m_share.name, error));
                m_problem->setVisible(!error.isEmpty());
                showStates(states);
                Q_EMIT statesShown();
            });
    connect(m_bar, &DataSetFetchBar::finished, this, [this](const QString &error) {
        readStates();
        Q_EMIT fetchFinished(error);
    });
    m_list->setCurrentItem(m_list->topLevelItem(0));
    readStates();
}

DataSetsDialog::~DataSetsDialog() = default;

bool DataSetsDialog::selectDataSet(const QString &name)
{
    for (int i = 0; i < m_list->topLevelItemCount(); ++i) {
        if (m_list->topLevelItem(i)->text(NameColumn) == name) {
            m_list->setCurrentItem(m_list->topLevelItem(i));
            return true;
        }
    }
    return false;
}

QString DataSetsDialog::selectedName() const
{
    const QTreeWidgetItem *item = m_list->currentItem();
    return item ? item->text(NameColumn) : QString();
}

void DataSetsDialog::fetchSelected(const QStringList &from)
{
    m_bar->fetch(from);
}

void DataSetsDialog::readStates()
{
    m_statesRequest = m_worker->readStates(m_share);
}

QPushButton *DataSetsDialog::fetchButton() const
{
    return m_bar->fetchButton();
}

QPushButton *DataSetsDialog::stopButton() const
{
    return m_bar->stopButton();
}

QString DataSetsDialog::statusText() const
{
    return m_bar->statusText();
}

bool DataSetsDialog::fetching() const
{
    return m_bar->fetching();
}

QString DataSetsDialog::stateOf(const QString &name) const
{
    for (int i = 0; i < m_list->topLevelItemCount(); ++i) {
        if (m_list->topLevelItem(i)->text(NameColumn) == name)
            return m_list->topLevelItem(i)->text(StateColumn);
    }
    return {};
}

void DataSetsDialog::showStates(const QList<DataSetPresence> &states)
{
    for (const DataSetPresence &p : states) {
        for (int i = 0; i < m_list->topLevelItemCount(); ++i) {
            QTreeWidgetItem *item = m_list->topLevelItem(i);
            if (item->text(NameColumn) != p.dataSet)
                continue;
            item->setText(StateColumn, presenceText(p));
            item->setIcon(StateColumn, stateIcon(presenceColor(p.state)));
        }
    }
}

} // namespace TrainDesk::Ui
