#pragma once

#include <QString>

namespace TrainDesk::Ui {

// The tooltip of a form field from the job.json table (core/jobspec/JobSpecFields.cpp):
// "<shown>: <help>", where `shown` is how the field is named (its path under properties
// when empty), marked when it is a TrainDesk extension.
QString fieldToolTip(const QString &path, const QString &shown = {});

} // namespace TrainDesk::Ui
