#include "JobTemplates.h"

#include "common/Icons.h"
#include "defaults/EmbeddedDefaults.h"

#include <QCoreApplication>

namespace TrainDesk::Ui {

QList<JobTemplate> jobTemplates()
{
    const auto tr = [](const char *text) { return QCoreApplication::translate("JobTemplates", text); };
    return {
        {tr("Fashion-MNIST with the bundled trainer"),
         tr("The tutorial's CNN trained by traindesk-trainer on Fashion-MNIST: 1 node, 2 MPI processes, "
            "2 epochs, the model in the MODEL output directory. Runs on the local cluster as it is."),
         QStringLiteral("fashion-mnist"), EmbeddedDefaults::demoJobSpec()},
        {tr("Horovod tutorial: Keras CNN on CIFAR-10"),
         tr("The Batch AI tutorial's job.json unchanged: 4 nodes, horovodSettings running "
            "cifar_cnn_distributed.py from the share myshare (directory cifar), with a job preparation "
            "that installs Keras and Horovod. Needs a share named myshare with the script in it."),
         QStringLiteral("cifar-horovod"), uiResource(QStringLiteral("templates/horovod-tutorial.json"))},
    };
}

} // namespace TrainDesk::Ui
