#include "JobRequests.h"

#include "JobMonitor.h"
#include "cluster/ImportedRunNodes.h"

#include "shares/ShareUpload.h"
#include "shares/ShareService.h"
#include "store/Store.h"
#include "sweeps/SweepStore.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSaveFile>
#include <QtConcurrent/QtConcurrentRun>

namespace TrainDesk {

JobRequests::JobRequests(const QString &databasePath, JobMonitor &monitor) : m_databasePath(databasePath), m_monitor(monitor)
{
    m_pool.setMaxThreadCount(2);
}

JobRequests::~JobRequests()
{
    for (const auto &cancel : std::as_const(m_uploads))
        cancel->cancel();
    m_pool.waitForDone();
}

void JobRequests::start()
{
    m_store = std::make_unique<Store>();
    if (auto opened = m_store->open(m_databasePath); !opened) {
        m_store.reset();  // every request answers "the database is not open"
        return;
    }
    m_submission = std::make_unique<JobSubmission>(*m_store);
}

void JobRequests::finishRequest(int requestId, qint64 id, const QString &error)
{
    // The snapshot first: whoever waits for the answer finds the new row in it.
    m_monitor.publishSnapshotNow();
    Q_EMIT requestFinished(requestId, error.isEmpty() ? id : 0, error);
}

void JobRequests::submitJob(int requestId, const SubmitRequest &request)
{
    if (!m_submission) {
        finishRequest(requestId, 0, QStringLiteral("the database is not open"));
        return;
    }
    const auto job = m_submission->submit(request);
    if (job && job->state == JobState::Queued)
        m_monitor.wakeAgent();
    finishRequest(requestId, job ? job->id : 0, job.error());
}

void JobRequests::createSweep(int requestId, const SweepRequest &request)
{
    if (!m_store) {
        finishRequest(requestId, 0, QStringLiteral("the database is not open"));
        return;
    }
    const auto sweep = SweepCreate::create(*m_store, request);
    if (sweep)
        m_monitor.wakeAgent();  // it submits the trials
    finishRequest(requestId, sweep ? sweep->id : 0, sweep.error());
}

void JobRequests::previewSweep(int requestId, const SweepRequest &request)
{
    if (!m_store) {
        Q_EMIT sweepPreviewed(requestId, 0, {}, QStringLiteral("the database is not open"));
        return;
    }
    const auto preview = SweepCreate::preview(*m_store, request);
    Q_EMIT sweepPreviewed(requestId, preview ? int(preview->trials.size()) : 0, preview ? preview->warnings : QStringList(),
                          preview.error());
}

void JobRequests::stopSweep(int requestId, qint64 sweepId)
{
    if (!m_store) {
        finishRequest(requestId, 0, QStringLiteral("the database is not open"));
        return;
    }
    const auto asked = SweepStore(*m_store).requestStop(sweepId);
    if (asked && *asked)
        m_monitor.wakeAgent();  // the agent ends the running trials
    finishRequest(requestId, sweepId, asked.error());
}

void JobRequests::deleteJob(int requestId, qint64 jobId)
{
    if (!m_submission) {
        finishRequest(requestId, 0, QStringLiteral("the database is not open"));
        return;
    }
    const auto removed = m_submission->remove(jobId);
    if (removed)
        m_monitor.forgetJob(jobId);
    finishRequest(requestId, jobId, removed.error());
}

void JobRequests::createWorkspace(int requestId, const QString &name)
{
    if (!m_store) {
        finishRequest(requestId, 0, QStringLiteral("the database is not open"));
        return;
    }
    const auto ws = m_store->createWorkspace(name);
    finishRequest(requestId, ws ? ws->id : 0, ws.error());
}

void JobRequests::createExperiment(int requestId, const QString &workspace, const QString &name)
{
    if (!m_store) {
        finishRequest(requestId, 0, QStringLiteral("the database is not open"));
        return;
    }
    const auto ws = m_store->workspace(workspace);
    if (!ws) {
        finishRequest(requestId, 0, ws.error());
        return;
    }
    const auto exp = m_store->createExperiment(ws->id, name);
    finishRequest(requestId, exp ? exp->id : 0, exp.error());
}

namespace {

// A Store belongs to the thread that opened it: pool tasks open their own connection.
template<typename Work>
auto withPoolStore(const QString &databasePath, Work work) -> decltype(work(std::declval<Store &>()))
{
    Store store;
    if (auto opened = store.open(databasePath); !opened)
        return opened.failure();
    return work(store);
}

} // namespace

void JobRequests::createShare(int requestId, const CreateShareRequest &request)
{
    if (!m_store) {
        finishRequest(requestId, 0, QStringLiteral("the database is not open"));
        return;
    }
    if (request.kind == ShareKind::Local) {
        // Only this machine's disk: quick enough for the worker thread, and answers in order.
        const auto created = ShareService(*m_store).create(request);
        finishRequest(requestId, created ? created->id : 0, created.error());
        return;
    }
    (void)QtConcurrent::run(&m_pool, [this, requestId, request, path = m_databasePath] {
        QStringList folders;
        const auto created = withPoolStore(path, [&request, &folders](Store &store) -> Result<Share> {
            ShareService service(store);
            const auto share = service.create(request);
            if (share) {
                if (const auto listed = service.folders(*share))
                    folders = *listed;
            }
            return share;
        });
        QMetaObject::invokeMethod(this, [this, requestId, created, folders] {
            if (created)
                m_monitor.setShareFolders(created->id, folders);
            finishRequest(requestId, created ? created->id : 0, created.error());
        }, Qt::QueuedConnection);
    });
}

void JobRequests::uploadToShare(int requestId, qint64 shareId, const QString &directory, const QStringList &files)
{
    if (!m_store) {
        Q_EMIT uploadFinished(requestId, 0, QStringLiteral("the database is not open"));
        return;
    }
    std::optional<Share> share;
    for (const Workspace &ws : m_store->workspaces()) {
        for (const Share &s : m_store->shares(ws.id)) {
            if (s.id == shareId)
                share = s;
        }
    }
    if (!share) {
        Q_EMIT uploadFinished(requestId, 0, QStringLiteral("the share no longer exists"));
        return;
    }
    if (const auto folder = ShareUpload::folderPath(*share, directory); !folder) {
        Q_EMIT uploadFinished(requestId, 0, folder.error());
        return;
    }
    auto cancel = std::make_shared<CancelFlag>();
    m_uploads.insert(requestId, cancel);
    (void)QtConcurrent::run(&m_pool, [this, requestId, share = *share, directory, files, cancel, path = m_databasePath] {
        ShareUpload::Outcome outcome;
        QStringList folders;
        const auto progress = [this, requestId](qint64 done, qint64 total, const QString &file) {
            Q_EMIT uploadProgress(requestId, done, total, file);
        };
        const auto ran = withPoolStore(path, [&](Store &store) -> VoidResult {
            ShareService service(store);
            outcome = service.upload(share, directory, files, cancel.get(), progress);
            if (share.kind != ShareKind::Local) {
                if (const auto listed = service.folders(share))
                    folders = *listed;
            }
            return {};
        });
        if (!ran)
            outcome.error = ran.error();
        // Back in the worker thread: the snapshot with the new folders goes out first.
        QMetaObject::invokeMethod(this, [this, requestId, outcome, folders, share] {
            m_uploads.remove(requestId);
            if (share.kind != ShareKind::Local)
                m_monitor.setShareFolders(share.id, folders);
            m_monitor.publishSnapshotNow();
            Q_EMIT uploadFinished(requestId, outcome.copied, outcome.error);
        }, Qt::QueuedConnection);
    });
}

void JobRequests::cancelUpload(int requestId)
{
    if (const auto cancel = m_uploads.value(requestId))
        cancel->cancel();
}

void JobRequests::readFile(int requestId, const QString &path, qint64 maxBytes)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        Q_EMIT fileRead(requestId, {}, QStringLiteral("cannot read %1: %2").arg(path, file.errorString()));
        return;
    }
    if (file.size() > maxBytes) {
        Q_EMIT fileRead(requestId, {}, QStringLiteral("%1 is larger than %2 bytes").arg(path).arg(maxBytes));
        return;
    }
    Q_EMIT fileRead(requestId, file.readAll(), {});
}

void JobRequests::writeFile(int requestId, const QString &path, const QByteArray &data)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(data) != data.size() || !file.commit()) {
        Q_EMIT fileWritten(requestId, QStringLiteral("cannot write %1: %2").arg(path, file.errorString()));
        return;
    }
    Q_EMIT fileWritten(requestId, {});
}

void JobRequests::openTensorBoardFolder(int requestId, const QString &workspace, const QString &folder, bool follow,
                                        const QString &cluster, const QString &node, const QString &share)
{
    if (!m_store) {
        finishRequest(requestId, 0, QStringLiteral("the database is not open"));
        return;
    }
    TensorBoardImport::Place place;
    QString where = folder;
    if (!share.isEmpty()) {
        const auto inShare = ImportedRunNodes::shareFolder(*m_store, workspace, share, folder, node);
        if (!inShare) {
            finishRequest(requestId, 0, inShare.error());
            return;
        }
        place = inShare->place;
        where = inShare->folder;
    } else if (!cluster.isEmpty()) {
        const auto onNode = ImportedRunNodes::nodePlace(*m_store, workspace, cluster, node);
        if (!onNode) {
            finishRequest(requestId, 0, onNode.error());
            return;
        }
        place = *onNode;
    }
    const auto target = TensorBoardImport::target(*m_store, workspace, QString(), where, place);
    if (!target) {
        finishRequest(requestId, 0, target.error());
        return;
    }
    const auto read = TensorBoardImport(*m_store, *target).update();
    if (!read) {
        finishRequest(requestId, 0, read.error());
        return;
    }
    if (follow && std::none_of(m_followed.begin(), m_followed.end(), [&](const TensorBoardImport::Target &t) {
            return t.root == target->root && t.experimentId == target->experimentId && t.node == target->node;
        })) {
        m_followed.append(*target);
    }
    if (!m_followed.isEmpty() && !m_followTimer) {
        m_followTimer = new QTimer(this);
        m_followTimer->setInterval(2000);
        connect(m_followTimer, &QTimer::timeout, this, &JobRequests::followTensorBoardFolders);
        m_followTimer->start();
    }
    const QString shown = target->files->place() + where;
    Q_EMIT tensorBoardFolderRead(shown,
                                 tr("%n run(s) in %1 opened in experiment %2", nullptr, read->runsFound)
                                     .arg(shown, target->experiment),
                                 read->problems);
    finishRequest(requestId, target->experimentId, QString());
}

void JobRequests::stopFollowingTensorBoardFolders()
{
    m_followed.clear();
    if (m_followTimer)
        m_followTimer->stop();
    delete m_followTimer;
    m_followTimer = nullptr;
}

void JobRequests::followTensorBoardFolders()
{
    QList<qint64> grown;
    bool added = false;
    constexpr int pauseTicks = 15;  // 30 s
    for (const TensorBoardImport::Target &target : std::as_const(m_followed)) {
        const QByteArray key = target.node.toUtf8() + '\n' + target.root;
        if (int &left = m_followPause[key]; left > 0) {
            --left;
            continue;
        }
        const auto read = TensorBoardImport(*m_store, target).update();
        if (!read) {
            // A folder or node gone for now: said once, tried again after a pause.
            m_followPause[key] = pauseTicks;
            Q_EMIT tensorBoardFolderRead(QString::fromUtf8(target.root), tr("Following paused for 30 s"), {read.error()});
            continue;
        }
        if (read->pointsRead > 0 || read->runsAdded > 0)
            grown += read->jobIds;
        added = added || read->runsAdded > 0;
    }
    if (!grown.isEmpty())
        m_monitor.rowsGrew(grown);
    if (added)
        m_monitor.publishSnapshotNow();
}

} // namespace TrainDesk
