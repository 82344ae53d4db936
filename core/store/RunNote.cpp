#include "RunNote.h"

namespace TrainDesk::RunNotes {

QStringList parseTags(const QString &text)
{
    QStringList tags;
    for (const QString &part : text.split(QLatin1Char(','))) {
        const QString tag = part.trimmed();
        if (!tag.isEmpty() && !tags.contains(tag))
            tags << tag;
    }
    return tags;
}

} // namespace TrainDesk::RunNotes
