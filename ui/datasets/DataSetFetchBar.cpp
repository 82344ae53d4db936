#include "DataSetFetchBar.h"
#include "common/FileDialogs.h"

#include "DataSetTexts.h"
#include "common/StateStyle.h"
#include "session/DataSetWorker.h"

#include <QFileDialog>
#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QVBoxLayout>

namespace TrainDesk::Ui {

DataSetFetchBar::DataSetFetchBar(DataSetWorker *worker, QWidget *parent)
    : QWidget(parent),
      m_worker(worker),
      m_fetch(new QPushButton(tr("&Fetch"), this)),
      m_fromFile(new QPushButton(tr("From f&ile…"), this)),
      m_stop(new QPushButton(tr("S&top"), this)),
      m_progress(new QProgressBar(this)),
      m_status(new QLabel(this))
{
    m_fetch->setObjectName(QStringLiteral("fetchButton"));
    m_fetch->setToolTip(tr("Download the data set into the share (a partial download is continued)"));
    m_fromFile->setObjectName(QStringLiteral("fromFileButton"));
    m_fromFile->setToolTip(tr("Use files you downloaded yourself: each is checked against the published MD5"));
    m_stop->setObjectName(QStringLiteral("stopButton"));
    m_stop->setToolTip(tr("Stop the download; the next Fetch continues where it stopped"));
    m_progress->setRange(0, 1000);
    m_progress->setValue(0);
    // Hidden between fetches, it keeps its room: the buttons stay their size.
    QSizePolicy keep = m_progress->sizePolicy();
    keep.setRetainSizeWhenHidden(true);
    m_progress->setSizePolicy(keep);
    m_status->setObjectName(QStringLiteral("fetchStatus"));
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_status->setTextFormat(Qt::PlainText);

    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_fetch);
    buttons->addWidget(m_fromFile);
    buttons->addWidget(m_stop);
    buttons->addWidget(m_progress, 1);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(buttons);
    layout->addWidget(m_status);

    connect(m_fetch, &QPushButton::clicked, this, [this] { fetch(); });
    connect(m_fromFile, &QPushButton::clicked, this, [this] {
        const DataSet *set = DataSetCatalogue::find(m_dataSet);
        if (!set)
            return;
        const QStringList files = FileDialogs::openFileNames(this, QStringLiteral("data-set-files"),
                                                               tr("Files of %1 (%2)").arg(set->title, filesText(*set)),
                                                               tr("Data set files (*.gz);;All files (*)"));
        if (!files.isEmpty())
            fetch(files);
    });
    connect(m_stop, &QPushButton::clicked, this, &DataSetFetchBar::stop);
    connect(m_worker, &DataSetWorker::fetchProgress, this, [this](int id, qint64 done, qint64 total, const QString &what) {
        if (id != m_request)
            return;
        m_progress->setRange(0, total > 0 ? 1000 : 0);
        if (total > 0)
            m_progress->setValue(int(done * 1000 / total));
        m_status->setText(tr("%1: %2 of %3").arg(what, formatBytes(done), total > 0 ? formatBytes(total) : tr("?")));
        Q_EMIT progressText(total > 0 ? tr("Fetching %1: %2%").arg(m_dataSet).arg(done * 100 / total)
                                      : tr("Fetching %1: %2").arg(m_dataSet, formatBytes(done)));
    });
    connect(m_worker, &DataSetWorker::fetchLog, this, [this](int id, const QString &line) {
        if (id == m_request)
            m_status->setText(line);
    });
    connect(m_worker, &DataSetWorker::fetchFinished, this, [this](int id, const QString &error, bool unreachable, bool changed) {
        if (id != m_request)
            return;
        m_request = 0;
        m_progress->setRange(0, 1000);
        m_progress->setValue(error.isEmpty() ? 1000 : 0);
        const DataSet *set = DataSetCatalogue::find(m_dataSet);
        const QString title = set ? set->title : m_dataSet;
        QString shown;
        if (!error.isEmpty())
            shown = set ? fetchErrorText(*set, error, unreachable) : error;
        m_status->setText(!error.isEmpty() ? shown
                          : changed        ? tr("%1 is in share %2, verified.").arg(title, m_share.name)
                                           : tr("Nothing to do: %1 was already in share %2, verified.").arg(title, m_share.name));
        updateButtons();
        Q_EMIT finished(shown, changed);
    });
    updateButtons();
}

void DataSetFetchBar::setChoice(const Share &share, const QString &dataSet)
{
    m_share = share;
    m_dataSet = dataSet;
    updateButtons();
}

void DataSetFetchBar::clearChoice()
{
    setChoice(Share{}, QString());
}

void DataSetFetchBar::setOffered(bool offered)
{
    m_offered = offered;
    updateButtons();
}

void DataSetFetchBar::fetch(const QStringList &from)
{
    if (fetching() || m_dataSet.isEmpty() || m_share.id == 0)
        return;
    m_status->setText(from.isEmpty() ? tr("Fetching %1 into share %2…").arg(m_dataSet, m_share.name)
                                     : tr("Checking the given files…"));
    m_progress->setValue(0);
    m_request = m_worker->fetch(m_share, m_dataSet, from);
    updateButtons();
    Q_EMIT fetchStarted();
}

void DataSetFetchBar::stop()
{
    if (m_request)
        m_worker->cancel(m_request);
}

QString DataSetFetchBar::statusText() const
{
    return m_status->text();
}

void DataSetFetchBar::updateButtons()
{
    const bool idle = !fetching();
    const bool offered = idle && m_offered && !m_dataSet.isEmpty() && m_share.id != 0;
    m_fetch->setEnabled(offered);
    m_fromFile->setEnabled(offered);
    m_stop->setEnabled(!idle);
    // The bar shows a fetch: under way, or how the last one ended.
    m_progress->setVisible(!idle || m_progress->value() > 0);
}

} // namespace TrainDesk::Ui
