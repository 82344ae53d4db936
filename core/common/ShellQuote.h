#pragma once

#include <QString>
#include <QStringList>

namespace TrainDesk {

// Quotes one string so that a POSIX shell reads it back as exactly one word,
// with nothing expanded. Every string that reaches a shell goes through here.
QString shellQuote(const QString &word);

// Quotes each word and joins them with spaces.
QString shellJoin(const QStringList &words);

} // namespace TrainDesk
