#pragma once

#include <QByteArray>
#include <QHash>
#include <QList>
#include <QSet>
#include <QString>

#include <optional>

namespace TrainDesk {

class Store;
struct MetricRecord;

// A trial's metric series by name, from the metric records the agent stores (docs/METRICS.md):
// the values of field `metric` in the records of the first kind that carries it (val_acc
// from `val` records, not again from `epoch` ones; never a `rank` record's one rank's value),
// in the order they were written. Kept per job with the last row read, so a look reads
// only new rows.
class TrialMetric
{
public:
    explicit TrialMetric(QString metric) : m_metric(std::move(metric)) {}

    // Reads stored rows (id order) into the series, as MetricRecord decodes them.
    static QList<double> seriesOf(const QList<QByteArray> &records, const QString &metric);

    // New: the rows stored since the last look are read. Kept: the job ended with all its
    // rows stored; they are read once more (for a job not read since) and then never again.
    enum class Read { New, Kept };
    const QList<double> &series(const Store &store, qint64 jobId, Read read = Read::New);
    // The best value (max or min), or none.
    static std::optional<double> best(const QList<double> &series, bool maximize);
    // While none of the job's records read so far carries the metric: the number fields they
    // do carry (loss, val_acc, a script's own "top5"; not time, step or epoch), what a
    // misspelt metric may have meant. Empty once the metric is found.
    QStringList fieldsInstead(qint64 jobId) const;

private:
    struct Cache
    {
        qint64 lastId = 0;
        QString kind;
        QList<double> values;
        bool complete = false;  // read after the job ended: nothing more comes
        QSet<QString> fields;   // fieldsInstead(), kept until a value is found
    };
    static void add(Cache &cache, const MetricRecord &record, const QString &metric);

    QString m_metric;
    QHash<qint64, Cache> m_cache;
};

} // namespace TrainDesk
