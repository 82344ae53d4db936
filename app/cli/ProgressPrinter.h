#pragma once

#include "Command.h"

namespace TrainDesk::Cli {

// "upload: cifar10.bin 40% (4194304 of 10485760 bytes)" on stderr, at each tenth and each
// new file, so that stdout keeps only the result.
class ProgressPrinter
{
public:
    ProgressPrinter(Context &c, const QString &verb) : m_c(c), m_verb(verb) {}
    void operator()(qint64 done, qint64 total, const QString &file);

private:
    Context &m_c;
    QString m_verb;
    int m_tenth = -1;
    QString m_file;
};

} // namespace TrainDesk::Cli
