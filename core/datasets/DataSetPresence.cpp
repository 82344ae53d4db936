#include "DataSetPresence.h"

namespace TrainDesk {

QString toString(DataSetPresence::State state)
{
    switch (state) {
    case DataSetPresence::State::Absent:
        return QStringLiteral("absent");
    case DataSetPresence::State::Partial:
        return QStringLiteral("partial");
    case DataSetPresence::State::Unverified:
        return QStringLiteral("unverified");
    case DataSetPresence::State::Fetched:
        return QStringLiteral("fetched");
    }
    return {};
}

} // namespace TrainDesk
