// make_runs_store: the data set of issue #44's runs benchmark, stored the way the app stores
// it. RUNS finished jobs in experiment `runs` of workspace `default` (the embedded defaults'
// cluster), each with
//   - an info record of 12 settings (lr, batch_size, momentum, weight_decay, dropout,
//     optimizer, layers, width, warmup_steps, seed, label_smoothing, scheduler), as the trainer
//     writes its info record;
//   - POINTS train records (loss, acc, top5, grad_norm) and POINTS val records (val_loss,
//     val_acc, val_top5, val_f1): 8 series of POINTS points, stored as the agent stores a
//     job's metrics.jsonl (Store::appendJobOutput, one transaction a job);
//   - its runs-table summary kept in run_summaries by the session's own RunSummaryReader
//     (the rows read back once, as the GUI's worker would), so a new session reads no row;
//   - the tag "best" on the runs in the top 10 % by last val_acc, "baseline" on every 50th.
// Deterministic (the run index seeds everything), so two stores made alike are alike.
//   make_runs_store HOME [RUNS=10000] [POINTS=1000]
// HOME becomes the data directory (TRAINDESK_HOME): HOME/traindesk.db.
#include "common/DataPaths.h"
#include "defaults/EmbeddedDefaults.h"
#include "session/RunSummaryReader.h"
#include "store/RunNotes.h"
#include "store/Store.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QElapsedTimer>
#include <QUuid>

#include <algorithm>
#include <cmath>
#include <cstdio>

using namespace TrainDesk;

namespace {

// A small deterministic generator (splitmix64): the same run index gives the same run.
struct Random
{
    quint64 state;
    quint64 next()
    {
        quint64 z = (state += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }
    double uniform() { return double(next() >> 11) / double(1ull << 53); }
    template<typename T, size_t N>
    T pick(const T (&choices)[N]) { return choices[next() % N]; }
};

QByteArray number(double v)
{
    return QByteArray::number(v, 'g', 6);
}

struct Run
{
    QList<QByteArray> records;
    qint64 bytes = 0;
    double lastValAcc = 0;
};

Run makeRun(int index, int points, double startTime)
{
    Random rng{quint64(index) * 7919 + 17};
    static const double lrs[] = {1e-5, 3e-5, 1e-4, 3e-4, 1e-3, 2e-3, 3e-3, 1e-2, 3e-2, 1e-1};
    static const int batches[] = {32, 64, 128, 256, 512};
    static const char *const optimizers[] = {"sgd", "adam", "adamw", "rmsprop"};
    static const char *const schedulers[] = {"cosine", "step", "constant", "onecycle"};
    static const int layers[] = {2, 4, 6, 8, 12, 16};
    static const int widths[] = {64, 128, 256, 512, 1024};
    const double lr = rng.pick(lrs);
    const int batch = rng.pick(batches);
    const double momentum = 0.8 + 0.19 * rng.uniform();
    const double weightDecay = std::pow(10.0, -6 + 4 * rng.uniform());
    const double dropout = 0.5 * rng.uniform();
    const QByteArray optimizer = rng.pick(optimizers);
    const int depth = rng.pick(layers);
    const int width = rng.pick(widths);
    const int warmup = int(rng.next() % 2000);
    const int seed = int(rng.next() % 100000);
    const double smoothing = 0.2 * rng.uniform();
    const QByteArray scheduler = rng.pick(schedulers);

    Run run;
    run.records.reserve(1 + 2 * points);
    run.records.append("{\"kind\":\"info\",\"time\":" + number(startTime) + ",\"lr\":" + number(lr)
                       + ",\"batch_size\":" + QByteArray::number(batch) + ",\"momentum\":" + number(momentum)
                       + ",\"weight_decay\":" + number(weightDecay) + ",\"dropout\":" + number(dropout)
                       + ",\"optimizer\":\"" + optimizer + "\",\"layers\":" + QByteArray::number(depth)
                       + ",\"width\":" + QByteArray::number(width) + ",\"warmup_steps\":" + QByteArray::number(warmup)
                       + ",\"seed\":" + QByteArray::number(seed) + ",\"label_smoothing\":" + number(smoothing)
                       + ",\"scheduler\":\"" + scheduler + "\"}");
    // A learning curve whose floor and speed follow the settings, with noise.
    const double quality = 1.0 - std::abs(std::log10(lr) + 3.0) / 4.0;  // best near lr 1e-3
    const double floor = 0.05 + 0.4 * (1.0 - quality) + 0.1 * dropout;
    const double speed = 3.0 + 5.0 * quality;
    const int stepsPerEpoch = 100;
    for (int i = 1; i <= points; ++i) {
        const double t = double(i) / points;
        const double time = startTime + i * 1.5;
        const int epoch = (i - 1) / stepsPerEpoch;
        const double noise = 0.04 * (rng.uniform() - 0.5);
        const double loss = floor + 2.3 * std::exp(-speed * t) + noise;
        const double acc = std::clamp(1.0 - loss / 2.5, 0.0, 1.0);
        const QByteArray counters = ",\"epoch\":" + QByteArray::number(epoch) + ",\"global_step\":" + QByteArray::number(i)
                                    + ",\"time\":" + number(time);
        run.records.append("{\"kind\":\"train\"" + counters + ",\"step\":" + QByteArray::number((i - 1) % stepsPerEpoch)
                           + ",\"loss\":" + number(loss) + ",\"acc\":" + number(acc)
                           + ",\"top5\":" + number(std::min(1.0, acc + 0.15)) + ",\"grad_norm\":"
                           + number(0.5 + 4.0 * std::exp(-4 * t) + rng.uniform()) + "}");
        const double valLoss = loss * 1.08 + 0.02 * rng.uniform();
        const double valAcc = std::clamp(1.0 - valLoss / 2.5, 0.0, 1.0);
        run.records.append("{\"kind\":\"val\"" + counters + ",\"val_loss\":" + number(valLoss) + ",\"val_acc\":"
                           + number(valAcc) + ",\"val_top5\":" + number(std::min(1.0, valAcc + 0.12))
                           + ",\"val_f1\":" + number(valAcc * 0.97) + "}");
        run.lastValAcc = valAcc;
    }
    for (const QByteArray &r : std::as_const(run.records))
        run.bytes += r.size() + 1;
    return run;
}

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    const QStringList args = app.arguments();
    if (args.size() < 2) {
        std::fprintf(stderr, "usage: make_runs_store HOME [RUNS=10000] [POINTS=1000]\n");
        return 2;
    }
    const int runs = args.size() > 2 ? args.at(2).toInt() : 10000;
    const int points = args.size() > 3 ? args.at(3).toInt() : 1000;
    if (runs <= 0 || points <= 0) {
        std::fprintf(stderr, "make_runs_store: RUNS and POINTS must be positive numbers\n");
        return 2;
    }
    qputenv("TRAINDESK_HOME", args.at(1).toUtf8());
    const QString path = DataPaths::databasePath();
    Store store;
    if (auto opened = store.open(path); !opened) {
        std::fprintf(stderr, "make_runs_store: %s\n", qPrintable(opened.error()));
        return 1;
    }
    if (auto ensured = EmbeddedDefaults::ensure(store); !ensured) {
        std::fprintf(stderr, "make_runs_store: %s\n", qPrintable(ensured.error()));
        return 1;
    }
    const auto ws = store.workspace(QLatin1String(EmbeddedDefaults::workspaceName));
    const auto cluster = store.cluster(ws->id, QLatin1String(EmbeddedDefaults::clusterName));
    auto exp = store.experiment(ws->id, QStringLiteral("runs"));
    if (!exp)
        exp = store.createExperiment(ws->id, QStringLiteral("runs"));
    if (!exp || !cluster) {
        std::fprintf(stderr, "make_runs_store: cannot set up experiment 'runs' in %s\n", qPrintable(path));
        return 1;
    }
    if (!store.jobs(exp->id).isEmpty()) {
        std::fprintf(stderr, "make_runs_store: %s already holds experiment 'runs'; give an empty HOME\n", qPrintable(path));
        return 1;
    }

    RunSummaryReader summaries(store);
    QElapsedTimer timer;
    timer.start();
    const QDateTime base = QDateTime(QDate(2026, 11, 1), QTime(0, 0), Qt::UTC);
    QList<std::pair<double, qint64>> byValAcc;
    qint64 bytes = 0;
    for (int i = 0; i < runs; ++i) {
        const QDateTime started = base.addSecs(qint64(i) * 60);
        Run run = makeRun(i, points, double(started.toSecsSinceEpoch()));
        Job job;
        job.experimentId = exp->id;
        job.clusterId = cluster->id;
        job.name = QStringLiteral("run-%1").arg(i, 5, 10, QLatin1Char('0'));
        job.spec = EmbeddedDefaults::demoJobSpec();
        job.state = JobState::Draft;
        job.created = started;
        job.uuid = QUuid::createUuid().toString(QUuid::WithoutBraces);
        auto created = store.createJob(job);
        if (!created) {
            std::fprintf(stderr, "make_runs_store: %s\n", qPrintable(created.error()));
            return 1;
        }
        job = *created;
        job.state = JobState::Succeeded;
        job.started = started;
        job.ended = started.addSecs(qint64(points) * 3 / 2);
        job.exitCode = 0;
        job.nodes = {QStringLiteral("localhost")};
        if (auto updated = store.updateJob(job); !updated) {
            std::fprintf(stderr, "make_runs_store: %s\n", qPrintable(updated.error()));
            return 1;
        }
        auto stored = store.appendJobOutput(job.id, QStringLiteral("metrics.jsonl"), 0, run.bytes, run.records);
        if (!stored || !*stored) {
            std::fprintf(stderr, "make_runs_store: cannot store the metrics of %s: %s\n", qPrintable(job.name),
                         stored ? "another writer" : qPrintable(stored.error()));
            return 1;
        }
        summaries.read({job.id});  // kept in run_summaries, as the GUI's worker keeps it
        summaries.forget(job.id);
        byValAcc.append({run.lastValAcc, job.id});
        bytes += run.bytes;
        if ((i + 1) % 500 == 0 || i + 1 == runs)
            std::printf("%d runs, %lld records, %.0f MB of records, %.0f s\n", i + 1, qlonglong(i + 1) * (1 + 2 * points),
                        double(bytes) / 1e6, timer.elapsed() / 1000.0), std::fflush(stdout);
    }
    std::sort(byValAcc.begin(), byValAcc.end(), [](const auto &a, const auto &b) { return a.first > b.first; });
    for (qsizetype i = 0; i < byValAcc.size(); ++i) {
        QStringList tags;
        if (i < byValAcc.size() / 10)
            tags << QStringLiteral("best");
        if (byValAcc.at(i).second % 50 == 0)
            tags << QStringLiteral("baseline");
        if (tags.isEmpty())
            continue;
        if (auto written = RunNotes::write(path, byValAcc.at(i).second, {tags, {}, {}}); !written) {
            std::fprintf(stderr, "make_runs_store: %s\n", qPrintable(written.error()));
            return 1;
        }
    }
    store.truncateLogOver(0);
    std::printf("store: %s, %d runs x (12 settings, 8 series x %d points) = %lld points, in %.0f s\n", qPrintable(path),
                runs, points, qlonglong(runs) * 8 * points, timer.elapsed() / 1000.0);
    return 0;
}
