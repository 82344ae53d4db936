#include "JobTemplates.h"

#include "common/Icons.h"
#include "common/StateStyle.h"
#include "defaults/EmbeddedDefaults.h"
#include "jobs/JobSpec.h"

#include <QCoreApplication>

namespace TrainDesk::Ui {

QList<JobTemplate> jobTemplates()
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
         QStringLiteral("fashion-mnist"), demo},
        {tr("Horovod tutorial: Keras CNN on CIFAR-10"),
         tr("The Batch AI tutorial's job.json unchanged: 4 nodes, horovodSettings running "
            "cifar_cnn_distributed.py from the share myshare (directory cifar), with a job preparation "
            "that installs Keras and Horovod. Needs a share named myshare with the script in it."),
         QStringLiteral("cifar-horovod"), uiResource(QStringLiteral("templates/horovod-tutorial.json"))},
    };
}

} // namespace TrainDesk::Ui
