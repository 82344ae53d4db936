#include "FieldHelp.h"

#include "jobspec/JobSpecFields.h"

#include <QObject>

namespace TrainDesk::Ui {

QString fieldToolTip(const QString &path, const QString &shown)
{
    const FieldRow *row = jobSpecField(path);
    Q_ASSERT_X(row, "fieldToolTip", qPrintable(path));
    if (!row)
        return {};
    const QString name = shown.isEmpty() ? path : shown;
    if (row->info.extension)
        return QObject::tr("%1 (TrainDesk extension): %2").arg(name, row->info.help);
    return QStringLiteral("%1: %2").arg(name, row->info.help);
}

} // namespace TrainDesk::Ui
