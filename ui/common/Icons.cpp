#include "Icons.h"

#include "ThemedSvgIconEngine.h"

#include <QFile>
#include <QHash>

// Outside any namespace: Q_INIT_RESOURCE declares a global function.
static void initUiResources()
{
    static const bool done = [] {
        Q_INIT_RESOURCE(traindesk_ui);
        return true;
    }();
    Q_UNUSED(done);
}

namespace TrainDesk::Ui {

QIcon appIcon(const QString &name)
{
    initUiResources();
    // One QIcon per name: models compare icons by cache key.
    static QHash<QString, QIcon> cache;
    auto it = cache.find(name);
    if (it == cache.end()) {
        // Drawn for the palette in use when painted: View > Theme changes them at once.
        QFile file(QStringLiteral(":/traindesk/ui/icons/%1.svg").arg(name));
        it = cache.insert(name, file.open(QIODevice::ReadOnly) ? QIcon(new ThemedSvgIconEngine(file.readAll())) : QIcon());
    }
    return *it;
}

QByteArray uiResource(const QString &path)
{
    initUiResources();
    QFile file(QStringLiteral(":/traindesk/ui/") + path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

} // namespace TrainDesk::Ui
