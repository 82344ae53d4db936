#pragma once

#include <QString>
#include <QStringList>

namespace TrainDesk {

// Quotes one string so that a POSIX shell reads it back as exactly one word,
// with nothing expanded. Every string that reaches a shell goes through here.
QString shellQuote(const QString &word);

// Quotes each word and joins them with spaces.
QString shellJoin(const QStringList &words);

// One word in double quotes in which only variables ($NAME, ${NAME}) expand: for paths a
// job.json gives (script, interpreter, config), which may name $AZ_BATCHAI_* but must never
// run anything ($(...), `...`, ;, |, spaces are all literal).
QString shellWordWithVariables(const QString &word);

} // namespace TrainDesk
