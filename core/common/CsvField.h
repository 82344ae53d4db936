#pragma once

#include <QString>

namespace TrainDesk {

// The one cell writer of every CSV TrainDesk exports (metrics, scalar series, runs table).
// RFC 4180: a cell with a comma, a quote or a line break is quoted, its quotes doubled.
// A text that a spreadsheet would run as a formula (it starts with =, +, -, @, a tab or a
// carriage return, and is not a number) gets a leading ' as OWASP's CSV-injection advice
// says; `raw` writes it as it is (for programs that read the file, `--csv-raw`).
enum class CsvText { Safe, Raw };
QString csvField(const QString &text, CsvText mode = CsvText::Safe);

} // namespace TrainDesk
