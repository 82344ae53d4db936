#include "NodeUpload.h"

#include "common/SafeFiles.h"
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
    QString error;   // the node's first failure; it is left out from then on
    QString staged;  // the current file's staged copy on the node
};

// One try at the lock: a folder made by mkdir (atomic on every file system, NFS included)
// holding its owner's token. Exit 0: taken; 5: held (the owner's token printed); 6: held
// for more than a minute, when a commit takes milliseconds: its owner is gone.
QString tryLockCommand(const QString &lock)
{
    return QStringLiteral("l=%1; if mkdir -- \"$l\" 2>/dev/null; then printf '%s' %2 > \"$l/owner\"; exit 0; fi; "
                          "if [ -n \"$(find \"$l\" -maxdepth 0 -mmin +1 2>/dev/null)\" ]; then exit 6; fi; "
                          "cat \"$l/owner\" 2>/dev/null; exit 5")
        .arg(shellQuote(lock), shellQuote(SafeFiles::processToken()));
}

// Waits for the lock, breaking one whose owner was killed (a process of this machine that
// has ended, or a minute old); false when it cannot be had in 90 s.
bool takeLock(Transport &node, const QString &lock)
{
    QElapsedTimer waited;
    waited.start();
    while (waited.elapsed() < 90000) {
        const auto tried = node.exec(tryLockCommand(lock), 30000);
        if (!tried)
            return false;
        if (tried->exitCode == 0)
            return true;
        if (tried->exitCode == 6 || (tried->exitCode == 5 && SafeFiles::processIsGone(QString::fromUtf8(tried->stdOut)))) {
            node.exec(QStringLiteral("rm -rf -- %1").arg(shellQuote(lock)), 30000);
            continue;
        }
        QThread::msleep(20);
    }
    return false;
}

void sweepStaleParts(Transport &node, const QString &folder)
{
    const auto entries = node.list(folder);
    if (!entries)
        return;
    for (const RemoteFileInfo &e : *entries) {
        if (!e.isDirectory && SafeFiles::isStalePart(e.name, e.modified))
            node.remove(folder + QLatin1Char('/') + e.name);
    }
}

void removeStaged(NodeState &s)
{
    if (s.staged.isEmpty())
        return;
    s.target->transport->remove(s.staged);
    s.target->transport->remove(SftpClient::remotePartPath(s.staged));  // what an interrupted SFTP copy leaves
    s.staged.clear();
}

// Renames the staged copy over the target on one node, saying so when the target is a folder.
VoidResult commit(NodeState &s, const QString &target)
{
    Transport &node = *s.target->transport;
    if (auto renamed = node.rename(s.staged, target); !renamed) {
        const auto existing = node.stat(target);
        removeStaged(s);
        if (existing && existing->isDirectory)
            return fail(QStringLiteral("%1 is a folder: nothing was replaced").arg(target));
        return renamed;
    }
    s.staged.clear();
    return {};
}

} // namespace

QString lockName() { return QStringLiteral(".traindesk-lock"); }

ShareUpload::Outcome copy(const QString &what, const QList<Target> &nodes, const QString &folder, const QStringList &files,
                          qint64 totalBytes, const CancelFlag *cancel, const ShareUpload::Progress &progress)
{
    ShareUpload::Outcome outcome;
    QList<NodeState> states;
    for (const Target &t : nodes)
        states.append({&t, t.error, {}});
    for (NodeState &s : states) {
        if (s.error.isEmpty())
            sweepStaleParts(*s.target->transport, folder);
    }
    const auto live = [&states] {
        QList<NodeState *> alive;
        for (NodeState &s : states) {
            if (s.error.isEmpty())
                alive << &s;
        }
        return alive;
    };

    qint64 done = 0;
    for (const QString &file : files) {
        const QString name = QFileInfo(file).fileName();
        const QString target = folder + QLatin1Char('/') + name;
        const qint64 size = QFileInfo(file).size();
        // 1. A staged copy of this upload's own on every node.
        for (NodeState *s : live()) {
            if (progress)
                progress(done, totalBytes, name);
            s->staged = SafeFiles::uniquePartPath(target);
            TransferOptions options;
            options.cancel = cancel;
            options.progress = [&progress, done, totalBytes, &name](qint64 fileDone, qint64) {
                if (progress)
                    progress(done + fileDone, totalBytes, name);
            };
            if (auto sent = s->target->transport->upload(file, s->staged, options); !sent) {
                if (cancel && cancel->isCancelled()) {
                    // A cancelled upload is not resumed: nothing of this file is left behind.
                    for (NodeState &other : states)
                        removeStaged(other);
                    outcome.error = QStringLiteral("upload cancelled after %1 of %2 files").arg(outcome.copied).arg(files.size());
                    return outcome;
                }
                removeStaged(*s);
                s->error = sent.error();
            }
            done += size;
        }
        // 2. Into place on every node at once, as seen by other uploads of this folder.
        const QList<NodeState *> ready = live();
        if (ready.isEmpty())
            break;
        Transport &lockNode = *ready.first()->target->transport;
        const QString lock = folder + QLatin1Char('/') + lockName();
        const bool holding = takeLock(lockNode, lock);
        for (NodeState *s : ready) {
            if (auto placed = commit(*s, target); !placed)
                s->error = placed.error();
        }
        if (holding)
            lockNode.exec(QStringLiteral("rm -rf -- %1").arg(shellQuote(lock)), 30000);
        if (live().isEmpty())
            break;
        ++outcome.copied;
    }
    if (progress)
        progress(done, totalBytes, QString());

    QStringList failures;
    QStringList reached;
    for (const NodeState &s : std::as_const(states)) {
        if (s.error.isEmpty())
            reached << s.target->nodeName;
        else
            failures << QStringLiteral("node %1: %2").arg(s.target->nodeName, s.error);
    }
    if (failures.isEmpty())
        return outcome;
    if (reached.isEmpty()) {
        outcome.copied = 0;
        outcome.error = QStringLiteral("%1: %2").arg(what, failures.join(QStringLiteral("; ")));
    } else {
        outcome.error = QStringLiteral("%1: the upload failed on %2 of %3 nodes: %4; the files reached node%5 %6")
                            .arg(what)
                            .arg(failures.size())
                            .arg(states.size())
                            .arg(failures.join(QStringLiteral("; ")), reached.size() == 1 ? QString() : QStringLiteral("s"),
                                 reached.join(QStringLiteral(", ")));
    }
    return outcome;
}

} // namespace TrainDesk::NodeUpload
