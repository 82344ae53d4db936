#include "ImportedRunFiles.h"

#include "metrics/EventFiles.h"
#include "metrics/TensorBoardFolder.h"
#include "store/Store.h"

#include <QFileInfo>
#include <QJsonArray>
#include <QJsonObject>

namespace TrainDesk::Cli {

int listImportedRunFiles(Context &c, const Job &job, const ImportedRun &run)
{
    const auto files = eventFilesOfRun(c.store, job.id);
    if (!files)
        return c.error(files.error());
    const QString folder = (*files)->place() + TensorBoardFolder::displayName(run.folder);
    if (c.args.isSet(QStringLiteral("output-directory-id")) || c.args.isSet(QStringLiteral("path")))
        return c.error(QStringLiteral("run '%1' was imported from the TensorBoard folder %2: its files are the event "
                                      "files there, listed without --output-directory-id or --path")
                           .arg(job.name, folder));
    Table t{{"Name", "Type", "Size", "Modified", "Read", "Points", "Problem"}, {}};
    QJsonArray array;
    for (const ImportedFile &f : c.store.importedFiles(job.id)) {
        // The file as it is now: it may have grown since the import read it, or be gone.
        const auto state = (*files)->stat(run.folder + '/' + f.name);
        const bool there = state && *state;
        const qint64 size = there ? (*state)->size : -1;
        const QString modified = there ? (*state)->modified.toUTC().toString(Qt::ISODate) : QString();
        const QString name = TensorBoardFolder::displayName(f.name);
        const QString problem = there ? f.error : state ? QStringLiteral("gone from %1").arg(folder) : state.error();
        t.rows.append({name, QStringLiteral("event file"), there ? QString::number(size) : QString(), modified,
                       QString::number(f.offset), QString::number(f.points), problem});
        array.append(QJsonObject{{"name", name}, {"isDirectory", false}, {"contentLength", size},
                                 {"lastModified", modified},
                                 {"bytesRead", f.offset}, {"points", f.points}, {"problem", problem}});
    }
    if (!c.printsJson() && t.rows.isEmpty())
        c.err << QStringLiteral("(run '%1', imported from %2, has no event file read yet)\n").arg(job.name, folder);
    return c.print(array, t);
}

} // namespace TrainDesk::Cli
