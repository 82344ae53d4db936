#include "ProgressPrinter.h"

namespace TrainDesk::Cli {

void ProgressPrinter::operator()(qint64 done, qint64 total, const QString &file)
{
    const int tenth = total > 0 ? int(done * 10 / total) : 10;
    if (file.isEmpty() || (tenth == m_tenth && file == m_file))
        return;
    m_tenth = tenth;
    m_file = file;
    m_c.err << m_verb << ": " << file << ' ' << tenth * 10 << "% (" << done << " of " << total << " bytes)\n";
    m_c.err.flush();
}

} // namespace TrainDesk::Cli
