#include "DataSetMirror.h"

#include "common/CappedRead.h"

#include <QRegularExpression>

namespace TrainDesk::DataSetMirror {

Result<QHash<QString, QString>> parseMd5Sums(const QByteArray &text, const QString &source)
{
    static const QRegularExpression line(QStringLiteral(R"(^([0-9a-fA-F]{32}) [ *](.+)$)"));
    QHash<QString, QString> sums;
    int number = 0;
    for (const QByteArray &raw : text.split('\n')) {
        ++number;
        const QString l = QString::fromUtf8(raw).trimmed();
        if (l.isEmpty())
            continue;
        const auto match = line.match(l);
        if (!match.hasMatch())
            return fail(QStringLiteral("%1:%2: expected '<md5>  <name>/<file>', found '%3'").arg(source).arg(number).arg(l));
        sums.insert(match.captured(2), match.captured(1).toLower());
    }
    return sums;
}

Result<DataSet> fromEnvironment(const DataSet &published)
{
    QString mirror = qEnvironmentVariable("TRAINDESK_DATASET_MIRROR").trimmed();
    const QString checksums = qEnvironmentVariable("TRAINDESK_DATASET_CHECKSUMS").trimmed();
    if (mirror.isEmpty()) {
        if (!checksums.isEmpty())
            return fail(QStringLiteral("TRAINDESK_DATASET_CHECKSUMS is honoured only with TRAINDESK_DATASET_MIRROR: "
                                       "the publishers' files are checked against their published checksums"));
        return published;
    }
    if (!mirror.endsWith(QLatin1Char('/')))
        mirror += QLatin1Char('/');
    DataSet mirrored = published;
    mirrored.mirrors = {mirror + published.name + QLatin1Char('/')};
    if (checksums.isEmpty())
        return mirrored;
    const auto text = readCapped(checksums, 1024 * 1024);
    if (!text)
        return fail(QStringLiteral("TRAINDESK_DATASET_CHECKSUMS: %1").arg(text.error()));
    const auto sums = parseMd5Sums(*text, checksums);
    if (!sums)
        return sums.failure();
    for (DataSetFile &file : mirrored.files) {
        const QString key = published.name + QLatin1Char('/') + file.name;
        if (!sums->contains(key))
            return fail(QStringLiteral("%1 (TRAINDESK_DATASET_CHECKSUMS) lists no checksum for %2").arg(checksums, key));
        file.md5 = sums->value(key);
    }
    return mirrored;
}

} // namespace TrainDesk::DataSetMirror
