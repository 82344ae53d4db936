#include "Names.h"

#include <QRegularExpression>

namespace TrainDesk {

VoidResult validateName(const QString &what, const QString &name)
{
    static const QRegularExpression pattern(QStringLiteral("^[-\\w_]+$"));
    if (name.isEmpty())
        return fail(QStringLiteral("%1 name is empty").arg(what));
    if (name.size() > 64)
        return fail(QStringLiteral("%1 name '%2' is longer than 64 characters").arg(what, name));
    if (!pattern.match(name).hasMatch())
        return fail(QStringLiteral("%1 name '%2' may contain only letters, digits, '-' and '_'")
                        .arg(what, name));
    return {};
}

} // namespace TrainDesk
