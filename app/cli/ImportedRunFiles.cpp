#include "ImportedRunFiles.h"

#include "metrics/TensorBoardFolder.h"
#include "store/Store.h"

#include <QFileInfo>
#include <QJsonArray>
#include <QJsonObject>

namespace TrainDesk::Cli {

int listImportedRunFiles(Context &c, const Job &job, const ImportedRun &run)
{
    const QString folder = TensorBoardFolder::displayName(run.folder);
    if (c.args.isSet(QStringLiteral("output-directory-id")) || c.args.isSet(QStringLiteral("path")))
        return c.error(QStringLiteral("run '%1' was imported from the TensorBoard folder %2: its files are the event "
                                      "files there, listed without --output-directory-id or --path")
                           .arg(job.name, folder));
    Table t{{"Name", "Type", "Size", "Modified", "Read", "Points", "Problem"}, {}};
    QJsonArray array;
    for (const ImportedFile &f : c.store.importedFiles(job.id)) {
        // The file as it is now: it may have grown since the import read it, or be gone.
        const QFileInfo info(QFile::decodeName(run.folder + '/' + f.name));
        const bool there = info.isFile();
        const QString name = TensorBoardFolder::displayName(f.name);
        const QString problem = there ? f.error : QStringLiteral("gone from %1").arg(folder);
        t.rows.append({name, QStringLiteral("event file"), there ? QString::number(info.size()) : QString(),
                       there ? info.lastModified().toUTC().toString(Qt::ISODate) : QString(), QString::number(f.offset),
                       QString::number(f.points), problem});
        array.append(QJsonObject{{"name", name}, {"isDirectory", false}, {"contentLength", there ? info.size() : -1},
                                 {"lastModified", there ? info.lastModified().toUTC().toString(Qt::ISODate) : QString()},
                                 {"bytesRead", f.offset}, {"points", f.points}, {"problem", problem}});
    }
    if (!c.printsJson() && t.rows.isEmpty())
        c.err << QStringLiteral("(run '%1', imported from %2, has no event file read yet)\n").arg(job.name, folder);
    return c.print(array, t);
}

} // namespace TrainDesk::Cli
