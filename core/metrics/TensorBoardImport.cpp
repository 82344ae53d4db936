#include "TensorBoardImport.h"

#include "RunSummary.h"
#include "TfEventsReader.h"

#include "store/Store.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QHash>
#include <QSet>
#include <QJsonDocument>
#include <QJsonObject>
#include <QUuid>
#include <QtConcurrent/QtConcurrentMap>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <sys/stat.h>

namespace TrainDesk {

namespace {

constexpr qint64 importReadBytes = 4 * 1024 * 1024;

// One run's reading, done off the store's thread: what it needs and what it found.
struct RunRead
{
    qint64 jobId = 0;
    QByteArray folder;
    QString name;
    QList<QByteArray> files;               // found in the folder now
    QHash<QByteArray, ImportedFile> known; // read before
    QByteArray summary;
    // Out:
    QList<ImportedFile> changed;
    double firstTime = -1;
    double lastTime = -1;
    qint64 bytes = 0;
    qint64 points = 0;
    QStringList problems;
};

QString errnoText(int error) { return QString::fromLocal8Bit(std::strerror(error)); }

// Reads one event file from `file.offset` to its last whole record; true when it moved.
bool readEventFile(EventFiles &files, RunRead &run, ImportedFile &file, RunSummary &summary)
{
    const QByteArray path = run.folder + '/' + file.name;
    const QString shown = files.place() + TensorBoardFolder::displayName(path);
    const auto state = files.stat(path);
    if (!state || !*state) {
        run.problems << QStringLiteral("%1: %2 (what was read of it is kept)").arg(shown, state ? QStringLiteral("gone") : state.error());
        return false;
    }
    const qint64 fileSize = (*state)->size;
    if (fileSize < file.offset) {
        run.problems << QStringLiteral("%1: now %2 bytes, shorter than the %3 read: the file was replaced or cut; what was "
                                       "read of it is kept, nothing after it is read")
                            .arg(shown).arg(fileSize).arg(file.offset);
        return false;
    }
    bool moved = false;
    qint64 want = importReadBytes;
    // Only what lies past the saved offset is asked for (a node's SFTP read at that offset).
    while (file.offset < fileSize) {
        const qint64 ask = std::min(want, fileSize - file.offset);
        const qint64 readEnd = file.offset + ask;
        const auto read = files.readAt(path, file.offset, ask);
        if (!read) {
            run.problems << QStringLiteral("%1: %2").arg(shown, read.error());
            break;
        }
        const QByteArray &buffer = *read;
        const qint64 got = buffer.size();
        const TfEventsReader::Chunk chunk = TfEventsReader::read(buffer, file.offset, shown);
        // Hyperparameters (hparams' session_start_info) are the run's settings, as a job's info record's.
        for (const auto &[name, value] : chunk.settings)
            summary.info.insert(name, value);
        for (const ScalarPoint &p : chunk.points) {
            summary.addScalar(p.name, p.value);
            if (run.firstTime < 0 || p.time < run.firstTime)
                run.firstTime = p.time;
            run.lastTime = std::max(run.lastTime, p.time);
        }
        run.points += chunk.points.size();
        file.points += chunk.points.size();
        file.offset += chunk.consumed;
        run.bytes += chunk.consumed;
        moved = moved || chunk.consumed > 0;
        if (!chunk.error.isEmpty()) {
            file.error = chunk.error;
            run.problems << chunk.error;
            moved = true;
            break;
        }
        if (chunk.consumed == 0) {
            // A record larger than a read: read it whole once the file holds it (its size
            // comes from the file, and is never above TfEventsReader::maxRecordBytes).
            if (chunk.nextRecordSize > got && fileSize - file.offset >= chunk.nextRecordSize) {
                want = chunk.nextRecordSize;
                continue;
            }
            break;  // a torn record at the end: its writer is still at it
        }
        want = importReadBytes;
        if (got < ask || readEnd >= fileSize)
            break;  // read to the end the file had: a torn tail waits for the next update
    }
    return moved;
}

void readRun(EventFiles &files, RunRead &run)
{
    RunSummary summary = RunSummary::fromJson(run.summary);
    bool changed = false;
    for (const QByteArray &name : run.files) {
        ImportedFile file = run.known.value(name, ImportedFile{name, 0, 0, {}});
        const bool isNew = !run.known.contains(name);
        if (!file.error.isEmpty())
            continue;  // damaged: named once, not read again
        if (readEventFile(files, run, file, summary) || isNew) {
            run.changed << file;
            changed = true;
        }
    }
    if (changed)
        run.summary = summary.toJson();
}

QDateTime timeOf(double seconds)
{
    return seconds < 0 ? QDateTime() : QDateTime::fromMSecsSinceEpoch(qint64(seconds * 1000), Qt::UTC);
}

} // namespace

Result<TensorBoardImport::Target> TensorBoardImport::target(Store &store, const QString &workspace,
                                                           const QString &experiment, const QString &folder,
                                                           const Place &place)
{
    Target t;
    if (place.files) {
        // A node's folder: absolute, as the node spells it; that it is a folder is asked there.
        if (!folder.startsWith(QLatin1Char('/')))
            return fail(QStringLiteral("%1%2: give the folder on the node as an absolute path").arg(place.files->place(), folder));
        t.root = QDir::cleanPath(folder).toUtf8();
        const auto listed = place.files->list(t.root);
        if (!listed)
            return fail(QStringLiteral("cannot open folder %1%2: %3").arg(place.files->place(), folder, listed.error()));
        if (!*listed)
            return fail(QStringLiteral("cannot open folder %1%2: no such folder").arg(place.files->place(), folder));
        t.files = place.files;
        t.node = place.node;
        t.clusterId = place.clusterId;
    } else {
        char resolved[PATH_MAX];
        if (!::realpath(QFile::encodeName(folder).constData(), resolved))
            return fail(QStringLiteral("cannot open folder %1: %2").arg(folder, errnoText(errno)));
        t.root = QByteArray(resolved);
        struct stat st {};
        if (::stat(t.root.constData(), &st) != 0 || !S_ISDIR(st.st_mode))
            return fail(QStringLiteral("%1 is not a folder").arg(folder));
        t.files = localEventFiles();
    }
    const auto ws = store.workspace(workspace);
    if (!ws)
        return ws.failure();
    t.experiment = experiment;
    if (t.experiment.isEmpty()) {
        // Batch AI's name rule (^[-\w_]+$, 1-64) kept by turning every other character into '_'.
        t.experiment = TensorBoardFolder::displayName(t.root.mid(t.root.lastIndexOf('/') + 1));
        for (QChar &ch : t.experiment) {
            if (!(ch.isLetterOrNumber() || ch == QLatin1Char('-') || ch == QLatin1Char('_')))
                ch = QLatin1Char('_');
        }
        t.experiment = t.experiment.left(64);
        if (t.experiment.isEmpty())
            t.experiment = QStringLiteral("tensorboard");
    }
    auto exp = store.experiment(ws->id, t.experiment);
    if (!exp)
        exp = store.createExperiment(ws->id, t.experiment);
    if (!exp)
        return exp.failure();
    t.experimentId = exp->id;
    if (t.clusterId != 0)
        return t;
    const QList<Cluster> clusters = store.clusters(ws->id);
    const auto local = std::find_if(clusters.begin(), clusters.end(), [](const Cluster &c) {
        return c.kind == ClusterKind::Local && c.name == QLatin1String("local");
    });
    const auto anyLocal = std::find_if(clusters.begin(), clusters.end(), [](const Cluster &c) { return c.kind == ClusterKind::Local; });
    if (local == clusters.end() && anyLocal == clusters.end())
        return fail(QStringLiteral("workspace '%1' has no local cluster to hold imported runs: make one with "
                                   "'traindesk cluster create -w %1 -n local --local'").arg(ws->name));
    t.clusterId = (local != clusters.end() ? local : anyLocal)->id;
    return t;
}

TensorBoardImport::TensorBoardImport(Store &store, const Target &target)
    : m_store(store), m_experimentId(target.experimentId), m_clusterId(target.clusterId), m_node(target.node),
      m_root(target.root), m_files(target.files ? target.files : localEventFiles())
{
}

Result<TensorBoardImport::Outcome> TensorBoardImport::update()
{
    const auto scanned = TensorBoardFolder::scan(*m_files, m_root);
    if (!scanned)
        return scanned.failure();
    Outcome outcome;
    outcome.problems = scanned->problems;
    outcome.runsFound = int(scanned->runs.size());
    QHash<QByteArray, ImportedRun> known;
    for (const ImportedRun &r : m_store.importedRuns(m_experimentId))
        known.insert(r.folder, r);
    QList<RunRead> reads;
    for (const TensorBoardFolder::Run &found : scanned->runs) {
        RunRead read;
        read.folder = found.folder;
        read.name = found.name;
        read.files = found.files;
        if (const auto it = known.constFind(found.folder); it != known.constEnd()) {
            read.jobId = it->jobId;
            read.summary = it->summary;
            for (const ImportedFile &f : m_store.importedFiles(it->jobId))
                read.known.insert(f.name, f);
        } else {
            Job job;
            job.experimentId = m_experimentId;
            job.clusterId = m_clusterId;
            job.name = found.name;
            job.state = JobState::Succeeded;
            job.uuid = QUuid::createUuid().toString(QUuid::WithoutBraces);
            job.jobDir = TensorBoardFolder::displayName(found.folder);
            if (!m_node.isEmpty())
                job.nodes = {m_node};  // its files are there: every later reader goes to that node
            job.spec = QJsonDocument(QJsonObject{{"properties", QJsonObject{{"nodeCount", 1}}}}).toJson(QJsonDocument::Compact);
            ImportedRun run;
            run.name = found.name;
            run.root = m_root;
            run.folder = found.folder;
            const auto created = m_store.createImportedRun(job, run);
            if (!created) {
                outcome.problems << created.error();
                continue;
            }
            read.jobId = created->id;
            ++outcome.runsAdded;
        }
        reads.append(read);
    }
    // A run folder removed (or renamed) since: its index and what was read stay.
    QSet<QByteArray> present;
    for (const TensorBoardFolder::Run &found : scanned->runs)
        present.insert(found.folder);
    for (const ImportedRun &r : std::as_const(known)) {
        if (r.root == m_root && !present.contains(r.folder))
            outcome.problems << QStringLiteral("run %1: its folder %2%3 is gone (what was read of it is kept)")
                                    .arg(r.name, m_files->place(), TensorBoardFolder::displayName(r.folder));
    }
    // The files of the runs are read in parallel; the store is written on this thread.
    EventFiles &files = *m_files;
    const auto readOne = [&files](RunRead &read) { readRun(files, read); };
    if (files.parallel())
        QtConcurrent::blockingMap(reads, readOne);
    else
        std::for_each(reads.begin(), reads.end(), readOne);
    QList<Store::ImportedRead> saves;
    for (const RunRead &read : reads) {
        outcome.jobIds << read.jobId;
        outcome.bytesRead += read.bytes;
        outcome.pointsRead += read.points;
        for (const QString &problem : read.problems)
            outcome.problems << QStringLiteral("run %1: %2").arg(read.name, problem);
        if (read.changed.isEmpty())
            continue;
        saves.append({read.jobId, read.changed, read.summary, timeOf(read.firstTime), timeOf(read.lastTime)});
    }
    if (auto saved = m_store.saveImportedReads(saves); !saved)
        return saved.failure();
    return outcome;
}

} // namespace TrainDesk
