#include "Startup.h"

#include "common/DataDirectoryCheck.h"
#include "defaults/EmbeddedDefaults.h"
#include "store/Store.h"

#include <QCoreApplication>

namespace TrainDesk::Startup {

Outcome prepareDataDirectory(const QString &dataDirectory, const QString &databasePath)
{
    // Another user's (or a writable) data directory would let them act as this user.
    if (auto safe = DataDirectoryCheck::verify(dataDirectory); !safe)
        return {safe.error(), {}};
    Store store;
    if (auto opened = store.open(databasePath); !opened)
        return {QCoreApplication::translate("Startup", "Cannot open the database %1:\n%2").arg(databasePath, opened.error()), {}};
    if (auto ensured = EmbeddedDefaults::ensure(store); !ensured)
        return {{}, QCoreApplication::translate("Startup", "Cannot create the default workspace:\n%1").arg(ensured.error())};
    return {};
}

} // namespace TrainDesk::Startup
