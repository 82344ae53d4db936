#include "DataSetTexts.h"

#include "common/StateStyle.h"
#include "datasets/DataSetMirror.h"

#include <QCoreApplication>
#include <QStringList>

namespace TrainDesk::Ui {

namespace {
QString dataSetText(const char *text)
{
    return QCoreApplication::translate("DataSets", text);
}
} // namespace

QString presenceText(const DataSetPresence &presence)
{
    using State = DataSetPresence::State;
    switch (presence.state) {
    case State::Absent:
        return dataSetText("not fetched");
    case State::Partial:
        return dataSetText("partly there: Fetch continues it");
    case State::Unverified:
        return dataSetText("there, not verified: Fetch checks it");
    case State::Fetched:
        return dataSetText("fetched and verified (%1, %2)").arg(formatBytes(presence.bytes), formatTime(presence.placed));
    }
    return {};
}

QColor presenceColor(DataSetPresence::State state)
{
    using State = DataSetPresence::State;
    switch (state) {
    case State::Fetched:
        return QColor(0x2e, 0x7d, 0x32);
    case State::Partial:
    case State::Unverified:
        return QColor(0xef, 0x8f, 0x00);
    case State::Absent:
        break;
    }
    return QColor(0x9e, 0x9e, 0x9e);
}

QString fetchErrorText(const DataSet &set, const QString &error, bool unreachable)
{
    QString text = dataSetText("Cannot fetch %1: %2").arg(set.title, error);
    if (!unreachable)
        return text;
    // The addresses this machine would use (a mirror's when one is set), so the user fetches the same files.
    const auto resolved = DataSetMirror::fromEnvironment(set);
    const DataSet &from = resolved ? *resolved : set;
    QStringList urls;
    for (const DataSetFile &f : from.files)
        urls << from.url(from.mirrors.first(), f);
    text += QLatin1Char('\n')
        + dataSetText("To place it by hand: download %1 on a computer that can (a browser will do), bring the file%2 here "
             "and choose \u201cFrom file…\u201d. Any file name will do: each file is recognised and verified by its "
             "published MD5.")
              .arg(urls.join(QStringLiteral(", ")), from.files.size() == 1 ? QString() : QStringLiteral("s"));
    return text;
}

QString filesText(const DataSet &set)
{
    QStringList names;
    for (const DataSetFile &f : set.files)
        names << f.name;
    return names.join(QStringLiteral(", "));
}

} // namespace TrainDesk::Ui
