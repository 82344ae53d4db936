#include "LocalTransport.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QSaveFile>

namespace TrainDesk {

namespace {

RemoteFileInfo infoFrom(const QFileInfo &fi)
{
    return {fi.fileName(), fi.isDir() ? 0 : fi.size(), fi.lastModified().toUTC(), fi.isDir()};
}

} // namespace

Result<ExecResult> LocalTransport::exec(const QString &shellCommand, int timeoutMs)
{
    QProcess process;
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
    for (const QFileInfo &fi : dir.entryInfoList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden,
                                                 QDir::Name))
        entries.append(infoFrom(fi));
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

} // namespace TrainDesk
