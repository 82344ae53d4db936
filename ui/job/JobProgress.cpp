#include "JobProgress.h"

#include <QCoreApplication>

#include <cmath>

namespace TrainDesk::Ui {

JobProgress JobProgress::of(const QList<MetricRecord> &records)
{
    JobProgress p;
    int startEpoch = 1;
    qint64 stepsPerEpoch = -1;
    double firstTime = NAN, lastTime = NAN;
    qint64 step = -1;
    for (const MetricRecord &r : records) {
        if (r.kind == QLatin1String("info") && std::isnan(firstTime))
            firstTime = r.time;  // the run's start: work before the first train record counts
        if (r.kind == QLatin1String("info") || r.kind == QLatin1String("epoch")) {
            if (r.epochs > 0)
                p.epochs = r.epochs;
            if (r.startEpoch > 0)
                startEpoch = r.startEpoch;
            if (r.stepsPerEpoch > 0)
                stepsPerEpoch = r.stepsPerEpoch;
        }
        if (r.kind == QLatin1String("train") && r.epoch > 0) {
            if (std::isnan(firstTime))
                firstTime = r.time;
            lastTime = r.time;
            p.epoch = r.epoch;
            step = r.step;
        }
        if (r.kind == QLatin1String("done"))
            return {p.epoch, p.epochs, 0};
    }
    if (p.epoch < 0 || p.epochs < p.epoch)
        return p;
    const double within = stepsPerEpoch > 0 && step >= 0 ? std::min(1.0, double(step) / double(stepsPerEpoch)) : 0.0;
    const double done = (p.epoch - startEpoch) + within;  // epochs' worth of work since the first record
    const double todo = (p.epochs - startEpoch + 1) - done;
    if (done > 0 && lastTime > firstTime)
        p.etaSeconds = (lastTime - firstTime) / done * todo;
    return p;
}

QString JobProgress::text() const
{
    const auto tr = [](const char *s) { return QCoreApplication::translate("TrainDesk::Ui::JobProgress", s); };
    if (epoch < 0)
        return QString();
    QString t = epochs > 0 ? tr("epoch %1/%2").arg(epoch).arg(epochs) : tr("epoch %1").arg(epoch);
    if (etaSeconds > 0) {
        const qint64 s = qint64(std::ceil(etaSeconds));
        const qint64 minutes = (s + 30) / 60;  // to the nearest minute
        const QString eta = s < 60 ? tr("%1 s").arg(s)
            : minutes < 60         ? tr("%1 min").arg(minutes)
                                   : tr("%1 h %2 min").arg(minutes / 60).arg(minutes % 60);
        t += tr(" · ETA %1").arg(eta);
    }
    return t;
}

} // namespace TrainDesk::Ui
