#pragma once

#include "common/Result.h"
#include "metrics/ScalarPoint.h"
#include "store/ImportedRuns.h"

#include <QByteArray>

#include <functional>

namespace TrainDesk {

class Store;

// The metric rows of a run imported from a TensorBoard folder, read in place from its event
// files (nothing of them is in the store but how far each was read): each scalar as the
// record of kind "scalar" that ScalarIngest stores for a job's own event files (ScalarPoint),
// files in name order, each up to its saved offset, so every reader sees what the import
// counted. A file that is damaged after its last good record gives an "error" record naming
// the file and offset; a file gone since gives one naming it. Row ids count the points from 1,
// so a reader that keeps the last id reads the following ones (files before it are skipped
// by their counted points, not decoded).
namespace ImportedRunRows {

VoidResult forEach(const Store &store, const ImportedRun &run, qint64 afterId,
                   const std::function<bool(qint64 id, const QByteArray &row)> &each);

// The same without JSON: each point as read (`point`), or an error record's JSON (`error`,
// with `point` null). The charts and the CSV export read imported runs this way.
struct Item
{
    qint64 id = 0;
    const ScalarPoint *point = nullptr;
    QByteArray error;
};
VoidResult forEachItem(const Store &store, const ImportedRun &run, qint64 afterId, const std::function<bool(const Item &)> &each);

} // namespace ImportedRunRows
} // namespace TrainDesk
