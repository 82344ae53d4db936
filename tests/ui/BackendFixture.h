#pragma once

#include "common/DataPaths.h"
#include "defaults/EmbeddedDefaults.h"
#include "session/Backend.h"
#include "store/Store.h"

#include <QTest>

#include <memory>

// Opens `store` on the test's data directory (a TestHome made before), adds the embedded
// defaults and starts a Backend on it with a 100 ms poll. True once the Backend's worker
// published its first snapshot within `timeoutMs`.
inline bool startBackend(TrainDesk::Store &store, std::unique_ptr<TrainDesk::Backend> &backend, int timeoutMs = 10000)
{
    using namespace TrainDesk;
    if (!store.open(DataPaths::databasePath()) || !EmbeddedDefaults::ensure(store))
        return false;
    backend = std::make_unique<Backend>(DataPaths::databasePath(), 100);
    return QTest::qWaitFor([&backend] { return !backend->snapshot().workspaces.isEmpty(); }, timeoutMs);
}
