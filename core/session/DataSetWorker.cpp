#include "DataSetWorker.h"

#include "datasets/DataSetMirror.h"
#include "datasets/DataSetPresenceCheck.h"
#include "datasets/DataSetShareFetch.h"
#include "shares/ShareService.h"
#include "store/Store.h"

#include <QElapsedTimer>
#include <QtConcurrent>

namespace TrainDesk {

DataSetWorker::DataSetWorker(const QString &databasePath, QObject *parent)
    : QObject(parent), m_databasePath(databasePath)
{
    // One fetch and one look at the states at a time are plenty; more would share one link.
    m_pool.setMaxThreadCount(2);
}

DataSetWorker::~DataSetWorker()
{
    for (const auto &cancel : std::as_const(m_cancels))
        cancel->cancel();
    m_pool.waitForDone();
}

int DataSetWorker::readStates(const Share &share)
{
    const int id = m_nextId++;
    (void)QtConcurrent::run(&m_pool, [this, id, share, path = m_databasePath] {
        QList<DataSetPresence> states;
        QString error;
        Store store;
        if (const auto opened = store.open(path); !opened) {
            error = opened.error();
        } else {
            ShareService service(store);
            for (const DataSet &published : DataSetCatalogue::all()) {
                // A set the environment cannot resolve (a test checksum file without it) is
                // judged by its published checksums; fetching it reports the problem.
                const auto set = DataSetMirror::fromEnvironment(published);
                const auto presence = presenceInShare(service, share, published.name, set ? *set : published);
                if (!presence) {
                    error = presence.error();
                    break;
                }
                states.append(*presence);
            }
        }
        QMetaObject::invokeMethod(this, [this, id, states, error] { Q_EMIT statesRead(id, states, error); },
                                  Qt::QueuedConnection);
    });
    return id;
}

int DataSetWorker::fetch(const Share &share, const QString &name, const QStringList &from)
{
    const int id = m_nextId++;
    auto cancel = std::make_shared<CancelFlag>();
    m_cancels.insert(id, cancel);
    (void)QtConcurrent::run(&m_pool, [this, id, share, name, from, cancel, path = m_databasePath] {
        QString error;
        bool unreachable = false;
        bool changed = false;
        QElapsedTimer sinceProgress;
        sinceProgress.start();
        FetchOptions options;
        options.from = from;
        options.cancel = cancel.get();
        options.log = [this, id](const QString &line) {
            QMetaObject::invokeMethod(this, [this, id, line] { Q_EMIT fetchLog(id, line); }, Qt::QueuedConnection);
        };
        // A few updates a second are enough to see it move; the last one always goes out.
        options.progress = [this, id, &sinceProgress](qint64 done, qint64 total, const QString &what) {
            if (done != total && sinceProgress.elapsed() < 100)
                return;
            sinceProgress.restart();
            QMetaObject::invokeMethod(this, [this, id, done, total, what] { Q_EMIT fetchProgress(id, done, total, what); },
                                      Qt::QueuedConnection);
        };
        const DataSet *published = DataSetCatalogue::find(name);
        Store store;
        if (!published) {
            error = QStringLiteral("no data set called '%1' (known: %2)").arg(name, DataSetCatalogue::names());
        } else if (const auto opened = store.open(path); !opened) {
            error = opened.error();
        } else if (const auto set = DataSetMirror::fromEnvironment(*published); !set) {
            error = set.error();
        } else {
            ShareService service(store);
            const auto outcome = fetchIntoShare(service, share, name, *set, options);
            if (outcome) {
                changed = outcome->fetched.changed;
            } else {
                error = outcome.error();
                // DataSetFetcher's words when no address gave the file.
                unreachable = from.isEmpty() && error.startsWith(QLatin1String("cannot download"));
            }
        }
        QMetaObject::invokeMethod(this, [this, id, error, unreachable, changed] {
            m_cancels.remove(id);
            Q_EMIT fetchFinished(id, error, unreachable, changed);
        }, Qt::QueuedConnection);
    });
    return id;
}

void DataSetWorker::cancel(int requestId)
{
    if (const auto flag = m_cancels.value(requestId))
        flag->cancel();
}

} // namespace TrainDesk
