#include "LocalTransport.h"

#include "common/AtomicReplace.h"
#include "common/ErrnoText.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QSaveFile>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <sys/stat.h>
#include <unistd.h>

namespace TrainDesk {

namespace {

RemoteFileInfo infoFrom(const QFileInfo &fi)
{
    // A link is listed as a link: not the size of what it points to.
    // (QFileInfo::isDir follows links: a link to a folder is a link, as SFTP's lstat says.)
    const bool link = fi.isSymLink();
    return {fi.fileName(), fi.isDir() || link ? 0 : fi.size(), fi.lastModified().toUTC(), fi.isDir() && !link, link,
            link ? fi.symLinkTarget() : QString()};
}

} // namespace

void LocalTransport::applyEnvironment(QProcess &process) const
{
    if (m_environment.isEmpty())
        return;
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    for (const QString &entry : m_environment)
        environment.insert(entry.section(QLatin1Char('='), 0, 0), entry.section(QLatin1Char('='), 1));
    process.setProcessEnvironment(environment);
}

Result<ExecResult> LocalTransport::exec(const QString &shellCommand, int timeoutMs)
{
    QProcess process;
    applyEnvironment(process);
    // "--" so that a command starting with a dash is not read as an option of sh.
    process.start(QStringLiteral("/bin/sh"), {QStringLiteral("-c"), QStringLiteral("--"), shellCommand});
    if (!process.waitForStarted())
        return fail(QStringLiteral("localhost: cannot run /bin/sh: %1").arg(process.errorString()));
    if (!process.waitForFinished(timeoutMs)) {
        process.kill();
        process.waitForFinished(2000);
        return fail(QStringLiteral("localhost: command timed out after %1 s: %2")
                        .arg(timeoutMs / 1000.0).arg(shellCommand.left(200)));
    }
    ExecResult result;
    result.exitCode = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : 128 + 9;
    result.stdOut = process.readAllStandardOutput();
    result.stdErr = process.readAllStandardError();
    return result;
}

Result<int> LocalTransport::exec(const QString &shellCommand, const ExecHandlers &handlers, const CancelFlag *cancel,
                                 int timeoutMs)
{
    QProcess process;
    applyEnvironment(process);
    // Its own session, so that cancel and the timeout end everything it started.
    process.setChildProcessModifier([] { ::setsid(); });
    process.start(QStringLiteral("/bin/sh"), {QStringLiteral("-c"), QStringLiteral("--"), shellCommand});
    if (!process.waitForStarted())
        return fail(QStringLiteral("localhost: cannot run /bin/sh: %1").arg(process.errorString()));
    const auto deliver = [&] {
        if (const QByteArray out = process.readAllStandardOutput(); !out.isEmpty() && handlers.onStdOut)
            handlers.onStdOut(out);
        if (const QByteArray err = process.readAllStandardError(); !err.isEmpty() && handlers.onStdErr)
            handlers.onStdErr(err);
    };
    const auto endGroup = [&] {
        ::kill(-pid_t(process.processId()), SIGKILL);
        process.waitForFinished(2000);
    };
    QElapsedTimer clock;
    clock.start();
    while (!process.waitForFinished(100)) {
        deliver();
        if (cancel && cancel->isCancelled()) {
            endGroup();
            return fail(QStringLiteral("localhost: cancelled: %1").arg(shellCommand.left(200)));
        }
        if (timeoutMs > 0 && clock.elapsed() > timeoutMs) {
            endGroup();
            return fail(QStringLiteral("localhost: command timed out after %1 s: %2")
                            .arg(timeoutMs / 1000.0).arg(shellCommand.left(200)));
        }
    }
    deliver();
    return process.exitStatus() == QProcess::NormalExit ? process.exitCode() : 128 + 9;
}

Result<QByteArray> LocalTransport::readAt(const QString &path, qint64 offset, qint64 maxBytes)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return fail(QStringLiteral("localhost: cannot read %1: %2").arg(path, file.errorString()));
    if (offset > file.size())
        return QByteArray();
    if (!file.seek(offset))
        return fail(QStringLiteral("localhost: cannot seek to %1 in %2").arg(offset).arg(path));
    return file.read(maxBytes);
}

Result<RemoteFileInfo> LocalTransport::stat(const QString &path)
{
    const QFileInfo fi(path);
    if (!fi.exists())
        return fail(QStringLiteral("localhost: %1 does not exist").arg(path));
    return infoFrom(fi);
}

Result<QList<RemoteFileInfo>> LocalTransport::list(const QString &directory)
{
    const QDir dir(directory);
    if (!dir.exists())
        return fail(QStringLiteral("localhost: directory %1 does not exist").arg(directory));
    QList<RemoteFileInfo> entries;
    // System: a dangling link is listed too (as the link it is).
    for (const QFileInfo &fi : dir.entryInfoList(QDir::AllEntries | QDir::System | QDir::NoDotAndDotDot | QDir::Hidden,
                                                 QDir::Name)) {
        // FIFOs, sockets and devices are not files a job wrote to download (a read would block).
        if (fi.isSymLink() || fi.isFile() || fi.isDir())
            entries.append(infoFrom(fi));
    }
    return entries;
}

VoidResult LocalTransport::makeDirectories(const QString &path)
{
    if (!QDir().mkpath(path))
        return fail(QStringLiteral("localhost: cannot create directory %1").arg(path));
    return {};
}

VoidResult LocalTransport::writeFile(const QString &path, const QByteArray &data,
                                     QFileDevice::Permissions permissions)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return fail(QStringLiteral("localhost: cannot write %1: %2").arg(path, file.errorString()));
    file.write(data);
    file.setPermissions(permissions);
    if (!file.commit())
        return fail(QStringLiteral("localhost: cannot write %1: %2").arg(path, file.errorString()));
    return {};
}

VoidResult LocalTransport::remove(const QString &path, bool recursive)
{
    const QFileInfo fi(path);
    if (!fi.exists() && !fi.isSymLink())
        return fail(QStringLiteral("localhost: cannot remove %1: it does not exist").arg(path));
    const bool removed = fi.isDir() && !fi.isSymLink() ? (recursive ? QDir(path).removeRecursively() : QDir().rmdir(path))
                                                       : QFile::remove(path);
    if (!removed)
        return fail(QStringLiteral("localhost: cannot remove %1").arg(path));
    return {};
}

VoidResult LocalTransport::rename(const QString &from, const QString &to)
{
    if (::rename(QFile::encodeName(from).constData(), QFile::encodeName(to).constData()) != 0)
        return fail(QStringLiteral("localhost: cannot rename %1 to %2: %3").arg(from, to, QString::fromLocal8Bit(strerror(errno))));
    return {};
}

namespace {

// A copy that shows up only when complete: a part file of this copy's own beside the
// target (hidden from share listings, swept when its writer is killed) is renamed over the
// target at the end (common/AtomicReplace).
VoidResult copyWhole(const QString &from, const QString &to, const TransferOptions &options)
{
    QFile source(from);
    if (!source.open(QIODevice::ReadOnly))
        return fail(QStringLiteral("localhost: cannot read %1: %2").arg(from, source.errorString()));
    return LocalTransport::copyOpened(source, from, to, options);
}

} // namespace

VoidResult LocalTransport::copyOpened(QFile &source, const QString &from, const QString &to, const TransferOptions &options)
{
    QFile target(AtomicReplace::uniquePartPath(to));
    if (!target.open(QIODevice::WriteOnly | QIODevice::NewOnly))
        return fail(QStringLiteral("localhost: cannot write %1: %2").arg(target.fileName(), errnoText(errno)));
    const auto failed = [&target](const QString &error) {
        target.remove();
        return fail(error);
    };
    struct stat info {};  // of the open file: a file opened by descriptor has no name to look up
    if (::fstat(source.handle(), &info) != 0)
        return failed(QStringLiteral("localhost: cannot read %1: %2").arg(from, errnoText(errno)));
    const qint64 total = info.st_size;
    qint64 done = 0;
    QByteArray buffer(1 << 20, Qt::Uninitialized);
    for (;;) {
        if (options.cancel && options.cancel->isCancelled())
            return failed(QStringLiteral("localhost: copy of %1 cancelled").arg(from));
        const qint64 n = source.read(buffer.data(), buffer.size());
        if (n < 0)
            return failed(QStringLiteral("localhost: cannot read %1: %2").arg(from, source.errorString()));
        if (n == 0)
            break;
        if (target.write(buffer.constData(), n) != n || !target.flush())
            return failed(QStringLiteral("localhost: cannot write %1: %2").arg(to, errnoText(errno)));
        done += n;
        if (options.progress)
            options.progress(done, total);
    }
    ::fchmod(target.handle(), info.st_mode & 0777);
    target.close();
    if (target.error() != QFileDevice::NoError)
        return failed(QStringLiteral("localhost: cannot write %1: %2").arg(to, errnoText(errno)));
    if (auto placed = AtomicReplace::replace(target.fileName(), to); !placed)
        return fail(QStringLiteral("localhost: %1").arg(placed.error()));
    return {};
}

VoidResult LocalTransport::upload(const QString &localPath, const QString &remotePath, const TransferOptions &options)
{
    return copyWhole(localPath, remotePath, options);
}

VoidResult LocalTransport::download(const QString &remotePath, const QString &localPath, const TransferOptions &options)
{
    return copyWhole(remotePath, localPath, options);
}

} // namespace TrainDesk
