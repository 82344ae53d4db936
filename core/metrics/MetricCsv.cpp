#include "MetricCsv.h"

#include "common/CsvField.h"

#include <QLocale>

#include <cmath>

namespace TrainDesk::MetricCsv {

namespace {

QString counter(qint64 value) { return value < 0 ? QString() : QString::number(value); }

} // namespace

QByteArray header()
{
    return QByteArrayLiteral("run,kind,time,epoch,step,global_step,loss,acc,val_loss,val_acc,lr,images_per_sec,rank\n");
}

bool isRow(const MetricRecord &record)
{
    return record.kind == QLatin1String("train") || record.kind == QLatin1String("val")
        || record.kind == QLatin1String("epoch") || record.kind == QLatin1String("rank");
}

QString number(double value)
{
    // The shortest digits that read back as the same double (0.1 stays "0.1", 1/3 gets 16),
    // in the shorter of the plain and the exponent form (0.0002 is "2e-04"); C locale.
    return std::isnan(value) ? QString() : QString::number(value, 'g', QLocale::FloatingPointShortest);
}

QByteArray row(const QString &run, const MetricRecord &r)
{
    const QStringList cells{csvField(run),          csvField(r.kind),         number(r.time),    counter(r.epoch),
                            counter(r.step),    counter(r.globalStep), number(r.loss),    number(r.acc),
                            number(r.valLoss),  number(r.valAcc),     number(r.lr),      number(r.imagesPerSec),
                            counter(r.rank)};
    return cells.join(QLatin1Char(',')).toUtf8() + '\n';
}

} // namespace TrainDesk::MetricCsv
