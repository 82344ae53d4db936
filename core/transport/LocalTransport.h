#pragma once

#include <QFile>

#include "Transport.h"

#include <QStringList>

class QProcess;

namespace TrainDesk {

// This machine, without SSH: QProcess for commands, the file system for files.
class LocalTransport final : public Transport
{
public:
    // `environment`: "NAME=value" set for every command, over this process's own.
    explicit LocalTransport(const QStringList &environment = {}) : m_environment(environment) {}

    QString nodeName() const override { return QStringLiteral("localhost"); }

    Result<ExecResult> exec(const QString &shellCommand, int timeoutMs = 60000) override;
    Result<int> exec(const QString &shellCommand, const ExecHandlers &handlers, const CancelFlag *cancel = nullptr,
                     int timeoutMs = 0) override;
    Result<QByteArray> readAt(const QString &path, qint64 offset, qint64 maxBytes) override;
    Result<RemoteFileInfo> stat(const QString &path) override;
    Result<QList<RemoteFileInfo>> list(const QString &directory) override;
    VoidResult makeDirectories(const QString &path) override;
    VoidResult writeFile(const QString &path, const QByteArray &data,
                         QFileDevice::Permissions permissions) override;
    VoidResult remove(const QString &path, bool recursive = false) override;
    VoidResult rename(const QString &from, const QString &to) override;
    // Copies within this machine; a partial copy is not resumed (nothing is slow to redo).
    VoidResult upload(const QString &localPath, const QString &remotePath, const TransferOptions &options = {}) override;
    VoidResult download(const QString &remotePath, const QString &localPath,
                        const TransferOptions &options = {}) override;
    // The same from a file already open (`from` names it in messages): what local shares
    // opened without following links is copied, not a name that may have changed since.
    static VoidResult copyOpened(QFile &source, const QString &from, const QString &to, const TransferOptions &options);

private:
    void applyEnvironment(QProcess &process) const;

    QStringList m_environment;
};

} // namespace TrainDesk
