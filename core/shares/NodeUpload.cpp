#include "NodeUpload.h"

#include "common/ResultLog.h"
#include "NodeShareCommands.h"
#include "common/AtomicReplace.h"
#include "common/ProcessToken.h"
#include "common/StaleParts.h"
#include "common/ShellQuote.h"
#include "transport/SftpClient.h"

#include <QElapsedTimer>
#include <QFileInfo>
#include <QThread>

namespace TrainDesk::NodeUpload {

namespace {

struct NodeState
{
    const Target *target;
    QString error;    // the node's first failure; it is left out from then on
    QString staging;  // the node user's private staging folder
    QString staged;   // the current file's staged copy there
    QString part;     // its part file in the share's folder, once moved in
};

// Where the upload goes on one node: the share's root and the folder in it.
struct Place
{
    QString what;
    QString root;
    QString relative;
};

// One try at the lock: a folder made by mkdir (atomic on every file system, NFS included)
// holding its owner's token, in the share's folder entered without following links.
// Exit 0: taken; 5: held (the owner's token printed); 7: held for more than a minute, when a
// commit takes milliseconds: its owner is gone.
QString tryLockCommand(const Place &place)
{
    return NodeShareCommands::inFolder(
        place.root, place.relative,
        QStringLiteral("l=./%1; if mkdir -- \"$l\" 2>/dev/null; then printf '%s' %2 > \"$l/owner\"; exit 0; fi; "
                       "if [ -n \"$(find \"$l\" -maxdepth 0 -mmin +1 2>/dev/null)\" ]; then exit 7; fi; "
                       "cat \"$l/owner\" 2>/dev/null; exit 5\n")
            .arg(lockName(), shellQuote(processToken())));
}

QString dropLockCommand(const Place &place)
{
    return NodeShareCommands::inFolder(place.root, place.relative, QStringLiteral("rm -rf -- ./%1\n").arg(lockName()));
}

// Waits for the lock, breaking one whose owner was killed (a process of this machine that
// has ended, or a minute old); false when it cannot be had in 90 s.
bool takeLock(Transport &node, const Place &place)
{
    QElapsedTimer waited;
    waited.start();
    while (waited.elapsed() < 90000) {
        const auto tried = node.exec(tryLockCommand(place), 30000);
        if (!tried || tried->exitCode == NodeShareCommands::linkOnTheWay)
            return false;
        if (tried->exitCode == 0)
            return true;
        if (tried->exitCode == 7 || (tried->exitCode == 5 && processIsGone(QString::fromUtf8(tried->stdOut)))) {
            ignoreResult(node.exec(dropLockCommand(place), 30000), "the next turn tries the lock again");
            continue;
        }
        QThread::msleep(20);
    }
    return false;
}

// Part files of killed uploads in the share's folder, looked at and removed in the folder entered.
void removeStaleParts(Transport &node, const Place &place)
{
    const auto listed = node.exec(NodeShareCommands::listCommand(place.root, place.relative), 30000);
    if (!listed || listed->exitCode != 0)
        return;
    const auto entries = NodeShareCommands::parseList(listed->stdOut);
    if (!entries)
        return;
    QStringList stale;
    for (const RemoteFileInfo &e : *entries) {
        if (!e.isDirectory && !e.isLink && StaleParts::isStale(e.name, e.modified))
            stale << QStringLiteral("./") + e.name;
    }
    if (!stale.isEmpty())
        ignoreResult(node.exec(NodeShareCommands::inFolder(place.root, place.relative,
                                                           QStringLiteral("rm -f -- %1\n").arg(shellJoin(stale))),
                               30000),
                     "stale parts are swept again by the next upload");
}

// Staged copies of killed uploads (their writer, a process of this machine, has ended).
void removeStaleStaged(Transport &node, const QString &staging)
{
    const auto entries = node.list(staging);
    if (!entries)
        return;
    for (const RemoteFileInfo &e : *entries) {
        if (!e.isDirectory && StaleParts::isStale(e.name, e.modified))
            ignoreResult(node.remove(staging + QLatin1Char('/') + e.name), "swept again by the next upload");
    }
}

void removeStaged(NodeState &s, const Place &place)
{
    Transport &node = *s.target->transport;
    if (!s.staged.isEmpty()) {
        ignoreResult(node.remove(s.staged), "a part left behind is stale and swept by the next upload");
        // What an interrupted SFTP copy leaves.
        ignoreResult(node.remove(SftpClient::remotePartPath(s.staged)), "a part left behind is stale and swept by the next upload");
        s.staged.clear();
    }
    if (!s.part.isEmpty()) {
        ignoreResult(node.exec(NodeShareCommands::inFolder(place.root, place.relative,
                                                           QStringLiteral("rm -f -- %1\n")
                                                               .arg(shellQuote(QStringLiteral("./") + s.part))),
                               30000),
                     "a part left behind is stale and swept by the next upload");
        s.part.clear();
    }
}

// Runs one of NodeShareCommands' commands on the node of `s`; its failure in words.
VoidResult run(NodeState &s, const QString &command, const QString &path)
{
    const auto ran = s.target->transport->exec(command, 6 * 3600 * 1000);  // a move across file systems copies
    if (!ran)
        return ran.failure();
    if (ran->exitCode != 0)
        return fail(NodeShareCommands::reason(path, *ran));
    return {};
}

// The staged copy moved into the share's folder as a part file (a copy across file systems).
VoidResult moveIn(NodeState &s, const Place &place, const QString &partName, const QString &folder)
{
    const auto moved = run(s, NodeShareCommands::moveInCommand(place.root, place.relative, s.staged, partName), folder);
    s.staged.clear();  // moved, or removed by the command
    if (moved)
        s.part = partName;
    return moved;
}

// Renames the part file over the target on one node, saying so when the target is a folder.
VoidResult commit(NodeState &s, const Place &place, const QString &name, const QString &target)
{
    const auto placed = run(s, NodeShareCommands::commitCommand(place.root, place.relative, s.part, name), target);
    s.part.clear();  // renamed, or removed by the command
    return placed;
}

} // namespace

QString lockName() { return QStringLiteral(".traindesk-lock"); }

namespace {

// Each reachable node's staging folder (its stale parts and staged files swept first).
void prepareStaging(QList<NodeState> &states, const Place &place)
{
    for (NodeState &s : states) {
        if (!s.error.isEmpty())
            continue;
        removeStaleParts(*s.target->transport, place);
        const auto staging = s.target->transport->exec(NodeShareCommands::stagingFolderCommand(), 30000);
        if (!staging)
            s.error = staging.error();
        else if (staging->exitCode != 0)
            s.error = QString::fromLocal8Bit(staging->stdErr).trimmed();
        else
            s.staging = QString::fromUtf8(staging->stdOut).trimmed();
        if (!s.staging.isEmpty())
            removeStaleStaged(*s.target->transport, s.staging);
    }
}

QList<NodeState *> live(QList<NodeState> &states)
{
    QList<NodeState *> alive;
    for (NodeState &s : states) {
        if (s.error.isEmpty())
            alive << &s;
    }
    return alive;
}

// Into place on every node that has it staged at once, as seen by other uploads of this
// folder (under the folder's lock on the first node); false when no node is left.
bool commitEverywhere(QList<NodeState> &states, const Place &place, const QString &name, const QString &target)
{
    const QList<NodeState *> ready = live(states);
    if (ready.isEmpty())
        return false;
    Transport &lockNode = *ready.first()->target->transport;
    const bool holding = takeLock(lockNode, place);
    for (NodeState *s : ready) {
        if (auto placed = commit(*s, place, name, target); !placed)
            s->error = placed.error();
    }
    // A lock left behind holds up other uploads of this folder until it is a minute old.
    if (holding)
        logFailure(lockNode.exec(dropLockCommand(place), 30000),
                   QStringLiteral("node %1: cannot drop the upload lock of %2").arg(lockNode.nodeName(), place.root));
    return !live(states).isEmpty();
}

// The outcome's error from the nodes' states: none, every node's, or the ones that failed
// beside the ones the files reached.
QString summary(const QString &what, const QList<NodeState> &states, bool *reachedNone)
{
    QStringList failures;
    QStringList reached;
    for (const NodeState &s : states) {
        if (s.error.isEmpty())
            reached << s.target->nodeName;
        else
            failures << QStringLiteral("node %1: %2").arg(s.target->nodeName, s.error);
    }
    *reachedNone = reached.isEmpty();
    if (failures.isEmpty())
        return {};
    if (reached.isEmpty())
        return QStringLiteral("%1: %2").arg(what, failures.join(QStringLiteral("; ")));
    return QStringLiteral("%1: the upload failed on %2 of %3 nodes: %4; the files reached node%5 %6")
        .arg(what)
        .arg(failures.size())
        .arg(states.size())
        .arg(failures.join(QStringLiteral("; ")), reached.size() == 1 ? QString() : QStringLiteral("s"),
             reached.join(QStringLiteral(", ")));
}

} // namespace

ShareUpload::Outcome copy(const QString &what, const QList<Target> &nodes, const QString &root, const QString &relative,
                          const QStringList &files, qint64 totalBytes, const CancelFlag *cancel,
                          const ShareUpload::Progress &progress)
{
    ShareUpload::Outcome outcome;
    const Place place{what, root, relative};
    const QString folder = relative.isEmpty() ? root : root + QLatin1Char('/') + relative;
    QList<NodeState> states;
    for (const Target &t : nodes)
        states.append({&t, t.error, {}, {}, {}});
    prepareStaging(states, place);

    qint64 done = 0;
    for (const QString &file : files) {
        const QString name = QFileInfo(file).fileName();
        const QString target = folder + QLatin1Char('/') + name;
        const QString partName = QFileInfo(AtomicReplace::uniquePartPath(target)).fileName();
        const qint64 size = QFileInfo(file).size();
        // 1. A staged copy of this upload's own on every node, moved into the share's folder.
        for (NodeState *s : live(states)) {
            if (progress)
                progress(done, totalBytes, name);
            s->staged = s->staging + QLatin1Char('/') + partName;
            TransferOptions options;
            options.cancel = cancel;
            options.progress = [&progress, done, totalBytes, &name](qint64 fileDone, qint64) {
                if (progress)
                    progress(done + fileDone, totalBytes, name);
            };
            auto sent = s->target->transport->upload(file, s->staged, options);
            if (!sent && cancel && cancel->isCancelled()) {
                // A cancelled upload is not resumed: nothing of this file is left behind.
                for (NodeState &other : states)
                    removeStaged(other, place);
                outcome.error = QStringLiteral("upload cancelled after %1 of %2 files").arg(outcome.copied).arg(files.size());
                return outcome;
            }
            if (sent)
                sent = moveIn(*s, place, partName, folder);
            if (!sent) {
                removeStaged(*s, place);
                s->error = sent.error();
            }
            done += size;
        }
        // 2. Into place on every node at once.
        if (!commitEverywhere(states, place, name, target))
            break;
        ++outcome.copied;
    }
    if (progress)
        progress(done, totalBytes, QString());
    bool reachedNone = false;
    outcome.error = summary(what, states, &reachedNone);
    if (!outcome.error.isEmpty() && reachedNone)
        outcome.copied = 0;
    return outcome;
}

} // namespace TrainDesk::NodeUpload
