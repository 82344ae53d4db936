#include "ShareMapping.h"

namespace TrainDesk {

QString lastSegment(const QString &urlOrId)
{
    QString s = urlOrId;
    const qsizetype query = s.indexOf(QLatin1Char('?'));
    if (query >= 0)
        s.truncate(query);
    const qsizetype fragment = s.indexOf(QLatin1Char('#'));
    if (fragment >= 0)
        s.truncate(fragment);
    while (s.endsWith(QLatin1Char('/')))
        s.chop(1);
    return s.mid(s.lastIndexOf(QLatin1Char('/')) + 1);
}

QList<MountReference> mountReferences(const JobSpec &spec)
{
    QList<MountReference> refs;
    if (!spec.mountVolumes)
        return refs;
    const MountVolumes &m = *spec.mountVolumes;
    const QString base = QStringLiteral("properties.mountVolumes.");
    auto add = [&](MountReference::Kind kind, const QString &path, const QString &relative, const QString &name) {
        MountReference r;
        r.kind = kind;
        r.path = path;
        r.relativeMountPath = relative;
        if (!name.isEmpty())
            r.candidateNames << name;
        if (!relative.isEmpty() && relative != name)
            r.candidateNames << relative;
        refs.append(r);
        return &refs.last();
    };
    if (m.azureFileShares) {
        for (qsizetype i = 0; i < m.azureFileShares->size(); ++i) {
            const AzureFileShareReference &s = m.azureFileShares->at(i);
            add(MountReference::Kind::AzureFileShare, base + QStringLiteral("azureFileShares[%1]").arg(i),
                s.relativeMountPath, lastSegment(s.azureFileUrl));
        }
    }
    if (m.azureBlobFileSystems) {
        for (qsizetype i = 0; i < m.azureBlobFileSystems->size(); ++i) {
            const AzureBlobFileSystemReference &b = m.azureBlobFileSystems->at(i);
            add(MountReference::Kind::AzureBlobFileSystem, base + QStringLiteral("azureBlobFileSystems[%1]").arg(i),
                b.relativeMountPath, b.containerName);
        }
    }
    if (m.fileServers) {
        for (qsizetype i = 0; i < m.fileServers->size(); ++i) {
            const FileServerReference &f = m.fileServers->at(i);
            MountReference *r = add(MountReference::Kind::FileServer, base + QStringLiteral("fileServers[%1]").arg(i),
                                    f.relativeMountPath, lastSegment(f.fileServer.id));
            r->sourceDirectory = f.sourceDirectory.value_or(QString());
        }
    }
    if (m.unmanagedFileSystems) {
        for (qsizetype i = 0; i < m.unmanagedFileSystems->size(); ++i) {
            const UnmanagedFileSystemReference &u = m.unmanagedFileSystems->at(i);
            MountReference *r = add(MountReference::Kind::UnmanagedFileSystem,
                                    base + QStringLiteral("unmanagedFileSystems[%1]").arg(i), u.relativeMountPath, {});
            r->candidateNames.clear();
            r->mountCommand = u.mountCommand;
        }
    }
    return refs;
}

QString matchShare(const MountReference &reference, const QStringList &shareNames)
{
    if (reference.kind == MountReference::Kind::UnmanagedFileSystem)
        return {};
    for (const QString &candidate : reference.candidateNames) {
        if (shareNames.contains(candidate))
            return candidate;
    }
    for (const QString &candidate : reference.candidateNames) {
        for (const QString &name : shareNames) {
            if (name.compare(candidate, Qt::CaseInsensitive) == 0)
                return name;
        }
    }
    return {};
}

} // namespace TrainDesk
