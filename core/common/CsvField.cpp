#include "CsvField.h"

namespace TrainDesk {

namespace {

bool startsLikeFormula(const QString &text)
{
    if (text.isEmpty())
        return false;
    const QChar first = text.front();
    if (first != QLatin1Char('=') && first != QLatin1Char('+') && first != QLatin1Char('-') && first != QLatin1Char('@')
        && first != QLatin1Char('\t') && first != QLatin1Char('\r'))
        return false;
    bool number = false;
    text.toDouble(&number);  // -0.5 and +1e-3 are numbers, not formulas
    return !number;
}

} // namespace

QString csvField(const QString &text, CsvText mode)
{
    const QString cell = mode == CsvText::Safe && startsLikeFormula(text) ? QLatin1Char('\'') + text : text;
    if (!cell.contains(QLatin1Char(',')) && !cell.contains(QLatin1Char('"')) && !cell.contains(QLatin1Char('\n'))
        && !cell.contains(QLatin1Char('\r')))
        return cell;
    QString quoted = cell;
    quoted.replace(QLatin1Char('"'), QLatin1String("\"\""));
    return QLatin1Char('"') + quoted + QLatin1Char('"');
}

} // namespace TrainDesk
