#pragma once

#include <QRegularExpression>
#include <QString>

namespace TrainDesk {

// The "[1,2]<stdout>:" that Open MPI's --tag-output puts before each line (job id, rank).
// The parsers of printed metrics take the rank from it and read the rest of the line.
struct MpiOutputTag
{
    int rank = -1;  // -1: the line has no tag
    int length = 0; // characters of the tag, to skip

    static MpiOutputTag of(const QString &line)
    {
        static const QRegularExpression pattern(QStringLiteral("^\\[\\d+,(\\d+)\\]<std(?:out|err)>:"));
        const QRegularExpressionMatch m = pattern.match(line);
        if (!m.hasMatch())
            return {};
        return {m.captured(1).toInt(), int(m.capturedLength())};
    }
};

} // namespace TrainDesk
