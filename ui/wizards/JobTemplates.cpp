#include "JobTemplates.h"

#include "common/Icons.h"
#include "common/StateStyle.h"
#include "datasets/DataSetCatalogue.h"
#include "defaults/EmbeddedDefaults.h"
#include "jobspec/JobSpec.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>

namespace TrainDesk::Ui {

namespace {

// `text` as it goes between the quotes of a JSON string.
QByteArray jsonStringBody(const QString &text)
{
    const QByteArray quoted = QJsonDocument(QJsonArray{text}).toJson(QJsonDocument::Compact);
    return quoted.mid(2, quoted.size() - 4);  // ["..."]
}

QList<JobTemplate> buildTemplates()
{
    const auto tr = [](const char *text) { return QCoreApplication::translate("JobTemplates", text); };
    // The sizes as the file has them (the demo job's file may change).
    const QByteArray demo = EmbeddedDefaults::demoJobSpec();
    const JobSpec demoSpec = parseJobSpec(demo).spec;
    return {
        {tr("Fashion-MNIST with the bundled trainer"),
         tr("The tutorial's CNN trained by traindesk-trainer on Fashion-MNIST: %1, %2, the model in the "
            "MODEL output directory. Runs on the local cluster as it is.")
             .arg(countOf(demoSpec.nodeCount, tr("node"), tr("nodes")),
                  countOf(demoSpec.processCount(), tr("MPI process"), tr("MPI processes"))),
         QStringLiteral("fashion-mnist"), demo, {}},
        {tr("Tutorial: CIFAR-10 with the bundled trainer"),
         tr("The Horovod tutorial's training by traindesk-trainer on CIFAR-10 from a share: 4 MPI processes "
            "(the tutorial's 4 workers) on one node, its settings (RMSprop, batch 32 per worker, learning "
            "rate 1e-4 x workers, 100 / workers epochs), the model in the MODEL output directory. "
            "The next pages choose the share and fetch the data set into it when it is not there."),
         QStringLiteral("cifar10-tutorial"), uiResource(QStringLiteral("templates/trainer-tutorial.json")),
         QStringLiteral("cifar10")},
        {tr("Horovod tutorial: Keras CNN on CIFAR-10"),
         tr("The Batch AI tutorial's job.json unchanged: 4 nodes, horovodSettings running "
            "cifar_cnn_distributed.py from the share myshare (directory cifar), with a job preparation "
            "that installs Keras and Horovod. Needs a share named myshare with the script in it."),
         QStringLiteral("cifar-horovod"), uiResource(QStringLiteral("templates/horovod-tutorial.json")), {}},
    };
}

} // namespace

QList<JobTemplate> jobTemplates()
{
    // Read once: the wizard asks on every page turn and button update.
    static const QList<JobTemplate> templates = buildTemplates();
    return templates;
}

QByteArray dataSetJobSpec(const JobTemplate &t, const QString &share, const QString &dataSet)
{
    const DataSet *set = DataSetCatalogue::find(dataSet);
    if (!set)
        return t.spec;
    // Share and data set names are words ([-\w]), so the paths need no shell quoting.
    const QString folder = QStringLiteral("$AZ_BATCHAI_JOB_MOUNT_ROOT/%1/%2").arg(share, set->name);
    QStringList names;
    for (const DataSetFile &f : set->files)
        names << f.name;
    const QString check =
        QStringLiteral("for f in %1; do test -s %2/$f || { echo \"%3 is not in share %4 (missing %2/$f): fetch it "
                       "with Data sets in the share's menu, or traindesk data fetch %5 --share %4\" >&2; exit 1; }; done")
            .arg(names.join(QLatin1Char(' ')), folder, set->title, share, set->name);
    QByteArray spec = t.spec;
    spec.replace("@SHARE@", jsonStringBody(share));
    spec.replace("@FOLDER@", jsonStringBody(set->name));
    spec.replace("@FORMAT@", jsonStringBody(set->trainerFormat));
    spec.replace("@CHECK@", jsonStringBody(check));
    return spec;
}

} // namespace TrainDesk::Ui
