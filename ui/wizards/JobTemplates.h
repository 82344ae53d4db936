#pragma once

#include <QByteArray>
#include <QList>
#include <QString>

namespace TrainDesk::Ui {

// The job.json files a new job can start from.
struct JobTemplate
{
    QString title;
    QString description;
    QString suggestedName;
    QByteArray spec;
    // A template that reads a data set from a share: the catalogue name it starts with. Its
    // spec holds @SHARE@, @FOLDER@, @FORMAT@ and @CHECK@, filled in by dataSetJobSpec().
    QString dataSet;
};

// The bundled trainer on Fashion-MNIST (the demo job), the tutorial's training by the bundled
// trainer on CIFAR-10 from a share, then the Horovod tutorial's job (Keras CNN on CIFAR-10,
// 4 nodes, the `myshare` share) exactly as the tutorial wrote it.
QList<JobTemplate> jobTemplates();

// A data set template's job.json for data set `dataSet` (a catalogue name) in the folder of
// its name in share `share`. Its jobPreparation checks on every node that the files are
// there, so a job queued without them fails at once saying how to fetch them.
QByteArray dataSetJobSpec(const JobTemplate &t, const QString &share, const QString &dataSet);

} // namespace TrainDesk::Ui
