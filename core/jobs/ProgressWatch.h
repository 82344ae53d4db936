#pragma once

#include "store/Entities.h"
#include "transport/Transport.h"

#include <QByteArray>
#include <QDateTime>
#include <QHash>
#include <QList>
#include <QMap>

#include <optional>

namespace TrainDesk {

class Store;

// A running job's ranks that went silent (constraints.progressTimeout, a TrainDesk
// extension): the agent's JobRunner reads what the job printed since its last look
// (stdouterr/stdout.txt and stderr.txt, whose lines mpirun --tag-output marks with their
// rank) and notes when each rank last printed and when the last metric arrived. When
// neither happened for the timeout, the job is silent: each rank with its node and how long
// it has been quiet, the longest first. The bundled trainer's own peer time-out ("silent
// rank(s): 1, 3") names its ranks through the same report.
class ProgressWatch
{
public:
    struct SilentRank
    {
        int rank = 0;
        QString node;
        qint64 seconds = 0;
    };
    struct Silence
    {
        qint64 seconds = 0;         // since the last output or metric of any rank
        qint64 timeoutSeconds = 0;
        bool fromTrainer = false;   // the trainer's peer time-out named the ranks
        QList<SilentRank> ranks;    // the longest silent first

        QString text() const;
        QByteArray toJson() const;
        static std::optional<Silence> fromJson(const QByteArray &json);
    };

    // Looks at the job (at most every lookIntervalMs; `looked` says whether it did this
    // time): the silence past `timeoutSeconds`, or nothing while it makes progress.
    std::optional<Silence> look(const Job &job, Transport &head, qint64 lastMetricId, qint64 timeoutSeconds,
                                const QDateTime &now = QDateTime::currentDateTimeUtc(), bool *looked = nullptr);
    void forget(qint64 jobId) { m_jobs.remove(jobId); }

    // The rank of an `mpirun --tag-output` line ("[1,2]<stdout>:..." is rank 2), -1 if untagged.
    static int rankOfLine(const QByteArray &line);
    // The ranks a trainer's peer time-out message names, empty if the text has none.
    static QList<int> trainerSilentRanks(const QByteArray &text);

    static constexpr int lookIntervalMs = 2000;

private:
    struct Watched
    {
        QString uuid;
        QDateTime lastLook;
        QDateTime lastProgress;           // any output or metric
        QMap<int, QDateTime> rankLast;    // rank -> last output
        QHash<QString, qint64> offsets;   // file -> bytes read
        qint64 lastMetricId = -1;
        QList<int> trainerSilent;
    };
    void readNew(Watched &w, const Job &job, Transport &head, const QDateTime &now);

    QHash<qint64, Watched> m_jobs;
};

} // namespace TrainDesk
