#pragma once

#include "Transport.h"

namespace TrainDesk {

// This machine, without SSH: QProcess for commands, the file system for files.
class LocalTransport final : public Transport
{
public:
    QString nodeName() const override { return QStringLiteral("localhost"); }

    Result<ExecResult> exec(const QString &shellCommand, int timeoutMs = 60000) override;
    Result<QByteArray> readAt(const QString &path, qint64 offset, qint64 maxBytes) override;
    Result<RemoteFileInfo> stat(const QString &path) override;
    Result<QList<RemoteFileInfo>> list(const QString &directory) override;
    VoidResult makeDirectories(const QString &path) override;
    VoidResult writeFile(const QString &path, const QByteArray &data,
                         QFileDevice::Permissions permissions) override;
};

} // namespace TrainDesk
