#include "DataSetsDialog.h"

#include "DataSetTexts.h"
#include "common/StateStyle.h"
#include "session/DataSetWorker.h"

#include <QDialogButtonBox>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
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
      m_where(new QLabel(this)),
      m_list(new QTreeWidget(this)),
      m_fetch(new QPushButton(tr("&Fetch"), this)),
      m_fromFile(new QPushButton(tr("From &file…"), this)),
      m_stop(new QPushButton(tr("S&top"), this)),
      m_progress(new QProgressBar(this)),
      m_status(new QLabel(this))
{
    setObjectName(QStringLiteral("dataSetsDialog"));
    setWindowTitle(tr("Data sets in share %1").arg(share.name));
    m_where->setWordWrap(true);
    m_where->setText(tr("Each data set goes into the folder of its name in share <b>%1</b> (%2, %3), downloaded "
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
    m_fetch->setObjectName(QStringLiteral("fetchButton"));
    m_fetch->setToolTip(tr("Download the selected data set into the share (a partial download is continued)"));
    m_fromFile->setObjectName(QStringLiteral("fromFileButton"));
    m_fromFile->setToolTip(tr("Use files you downloaded yourself: each is checked against the published MD5"));
    m_stop->setObjectName(QStringLiteral("stopButton"));
    m_stop->setToolTip(tr("Stop the download; the next Fetch continues where it stopped"));
    m_progress->setRange(0, 1000);
    m_progress->setValue(0);
    m_status->setObjectName(QStringLiteral("fetchStatus"));
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_status->setTextFormat(Qt::PlainText);

    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_fetch);
    buttons->addWidget(m_fromFile);
    buttons->addWidget(m_stop);
    buttons->addWidget(m_progress, 1);
    auto *close = new QDialogButtonBox(QDialogButtonBox::Close, this);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_where);
    layout->addWidget(m_list, 1);
    layout->addLayout(buttons);
    layout->addWidget(m_status);
    layout->addWidget(close);
    resize(820, 380);

    connect(close, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_list, &QTreeWidget::currentItemChanged, this, &DataSetsDialog::updateButtons);
    connect(m_fetch, &QPushButton::clicked, this, [this] { fetchSelected(); });
    connect(m_fromFile, &QPushButton::clicked, this, [this] {
        const DataSet *set = DataSetCatalogue::find(selectedName());
        if (!set)
            return;
        const QStringList files = QFileDialog::getOpenFileNames(
            this, tr("Files of %1 (%2)").arg(set->title, filesText(*set)), QString(),
            tr("Data set files (*.gz);;All files (*)"));
        if (!files.isEmpty())
            fetchSelected(files);
    });
    connect(m_stop, &QPushButton::clicked, this, [this] {
        if (m_fetchRequest)
            m_worker->cancel(m_fetchRequest);
    });
    connect(m_worker, &DataSetWorker::statesRead, this,
            [this](int id, const QList<DataSetPresence> &states, const QString &error) {
                if (id != m_statesRequest)
                    return;
                m_statesRequest = 0;
                if (!error.isEmpty())
                    m_status->setText(tr("Cannot look into share %1: %2").arg(m_share.name, error));
                showStates(states);
                Q_EMIT statesShown();
            });
    connect(m_worker, &DataSetWorker::fetchProgress, this, [this](int id, qint64 done, qint64 total, const QString &what) {
        if (id != m_fetchRequest)
            return;
        m_progress->setRange(0, total > 0 ? 1000 : 0);
        if (total > 0)
            m_progress->setValue(int(done * 1000 / total));
        m_progress->setFormat(total > 0 ? QStringLiteral("%p%") : formatBytes(done));
        m_status->setText(tr("%1: %2 of %3").arg(what, formatBytes(done), total > 0 ? formatBytes(total) : tr("?")));
    });
    connect(m_worker, &DataSetWorker::fetchLog, this, [this](int id, const QString &line) {
        if (id == m_fetchRequest)
            m_status->setText(line);
    });
    connect(m_worker, &DataSetWorker::fetchFinished, this,
            [this](int id, const QString &error, bool unreachable, bool changed) {
                if (id != m_fetchRequest)
                    return;
                m_fetchRequest = 0;
                const DataSet *set = DataSetCatalogue::find(m_fetching);
                m_progress->setRange(0, 1000);
                m_progress->setValue(error.isEmpty() ? 1000 : 0);
                if (!error.isEmpty())
                    m_status->setText(set ? fetchErrorText(*set, error, unreachable) : error);
                else
                    m_status->setText(changed ? tr("%1 is in share %2, verified.").arg(set->title, m_share.name)
                                              : tr("Nothing to do: %1 was already in share %2, verified.")
                                                    .arg(set->title, m_share.name));
                updateButtons();
                readStates();
                Q_EMIT fetchFinished(error);
            });
    m_list->setCurrentItem(m_list->topLevelItem(0));
    updateButtons();
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
    const QString name = selectedName();
    if (m_fetchRequest || name.isEmpty())
        return;
    m_fetching = name;
    m_status->setText(from.isEmpty() ? tr("Fetching %1…").arg(name) : tr("Checking the given files…"));
    m_progress->setValue(0);
    m_fetchRequest = m_worker->fetch(m_share, name, from);
    updateButtons();
}

void DataSetsDialog::readStates()
{
    m_statesRequest = m_worker->readStates(m_share);
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

void DataSetsDialog::updateButtons()
{
    const bool idle = m_fetchRequest == 0;
    const bool chosen = !selectedName().isEmpty();
    m_fetch->setEnabled(idle && chosen);
    m_fromFile->setEnabled(idle && chosen);
    m_stop->setEnabled(!idle);
    // The bar shows a fetch: under way, or how the last one ended.
    m_progress->setVisible(!idle || m_progress->value() > 0);
}

} // namespace TrainDesk::Ui
