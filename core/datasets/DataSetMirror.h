#pragma once

#include "DataSetCatalogue.h"
#include "common/Result.h"

#include <QHash>

namespace TrainDesk::DataSetMirror {

// `published` as the environment says to fetch it:
// - $TRAINDESK_DATASET_MIRROR=BASE (a site's own copy, or a test's server) replaces every
//   publisher's address: files come from BASE<name>/<file>. The published checksums stay
//   in force, so a mirror of the real files needs nothing else.
// - $TRAINDESK_DATASET_CHECKSUMS=FILE (md5sum's format, lines "<md5>  <name>/<file>"),
//   honoured only together with a mirror, replaces the checksums: tests serve small
//   archives of their own. Without a mirror it is refused, so the published checksums
//   are always the ones checked against the publishers' addresses.
// Unchanged when neither is set.
Result<DataSet> fromEnvironment(const DataSet &published);

// "<md5>  <path>" lines into path -> md5; `source` names the text in errors.
Result<QHash<QString, QString>> parseMd5Sums(const QByteArray &text, const QString &source);

} // namespace TrainDesk::DataSetMirror
