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
};

// The bundled trainer on Fashion-MNIST (the demo job), then the Horovod tutorial's job
// (Keras CNN on CIFAR-10, 4 nodes, the `myshare` share) exactly as the tutorial wrote it.
QList<JobTemplate> jobTemplates();

} // namespace TrainDesk::Ui
