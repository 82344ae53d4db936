#include "KerasProgressParser.h"
#include "MpiOutputTag.h"

#include <QDateTime>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>

namespace TrainDesk {

namespace {

const QRegularExpression epochPattern(QStringLiteral("^\\s*Epoch (\\d+)/(\\d+)\\s*$"));
const QRegularExpression progressPattern(QStringLiteral("^\\s*(\\d+)/(\\d+) \\["));
// " - name: value" pairs; Keras writes acc or accuracy, and val_ variants.
const QRegularExpression valuePattern(QStringLiteral("- (val_loss|val_acc|val_accuracy|loss|acc|accuracy): ([-+0-9.eE]+|nan|inf)"));

} // namespace

qsizetype KerasProgressParser::wholeLinesLength(const QByteArray &chunk)
{
    const qsizetype lastNewline = chunk.lastIndexOf('\n');
    const qsizetype lastReturn = chunk.lastIndexOf('\r');
    return qMax(lastNewline, lastReturn) + 1;
}

QByteArray KerasProgressParser::state() const
{
    QJsonObject epochs{{"0", m_epoch}};
    for (auto it = m_otherEpochs.cbegin(); it != m_otherEpochs.cend(); ++it)
        epochs.insert(QString::number(it.key()), it.value());
    return QJsonDocument(QJsonObject{{"epochs", epochs}}).toJson(QJsonDocument::Compact);
}

void KerasProgressParser::setState(const QByteArray &state)
{
    const QJsonObject epochs = QJsonDocument::fromJson(state).object().value(QStringLiteral("epochs")).toObject();
    m_otherEpochs.clear();
    for (auto it = epochs.begin(); it != epochs.end(); ++it) {
        const int rank = it.key().toInt();
        const int epoch = it.value().toInt(1);
        if (rank == 0)
            m_epoch = epoch;
        else
            m_otherEpochs.insert(rank, epoch);
    }
}

QList<QByteArray> KerasProgressParser::parse(const QByteArray &text)
{
    QList<QByteArray> records;
    const double now = QDateTime::currentMSecsSinceEpoch() / 1000.0;
    QByteArray normalised = text;
    normalised.replace('\r', '\n');
    for (const QByteArray &rawLine : normalised.split('\n')) {
        QString line = QString::fromUtf8(rawLine);
        int rank = 0;
        if (const MpiOutputTag tag = MpiOutputTag::of(line); tag.rank >= 0) {
            rank = tag.rank;
            line = line.mid(tag.length);
        }
        if (const auto e = epochPattern.match(line); e.hasMatch()) {
            if (rank != 0) {
                m_otherEpochs.insert(rank, e.captured(1).toInt());
                continue;
            }
            m_epoch = e.captured(1).toInt();
            // Stored too, so that a reader resuming after this line knows the epoch.
            records.append(QJsonDocument(QJsonObject{{"time", now}, {"kind", "epoch"}, {"epoch", m_epoch},
                                                     {"epochs", e.captured(2).toInt()}, {"source", "keras"}})
                               .toJson(QJsonDocument::Compact));
            continue;
        }
        const auto progress = progressPattern.match(line);
        if (!progress.hasMatch())
            continue;
        const int epoch = rank == 0 ? m_epoch : m_otherEpochs.value(rank, m_epoch);
        const qint64 done = progress.captured(1).toLongLong();
        const qint64 total = progress.captured(2).toLongLong();
        const qint64 globalStep = (epoch - 1) * total + done;
        QJsonObject train{{"time", now}, {"kind", "train"}, {"epoch", epoch}, {"step", done},
                          {"global_step", globalStep}, {"source", "keras"}};
        QJsonObject val{{"time", now}, {"kind", "val"}, {"epoch", epoch}, {"step", done},
                        {"global_step", globalStep}, {"source", "keras"}};
        auto it = valuePattern.globalMatch(line);
        while (it.hasNext()) {
            const auto m = it.next();
            QString name = m.captured(1);
            name.replace(QLatin1String("accuracy"), QLatin1String("acc"));
            const double value = m.captured(2).toDouble();
            (name.startsWith(QLatin1String("val_")) ? val : train).insert(name, value);
        }
        if (!train.contains(QLatin1String("loss")))
            continue;
        if (rank != 0) {
            // Another rank's own values: a per-rank series, not the job's.
            train.insert(QStringLiteral("kind"), QStringLiteral("rank"));
            train.insert(QStringLiteral("rank"), rank);
            records.append(QJsonDocument(train).toJson(QJsonDocument::Compact));
            continue;
        }
        records.append(QJsonDocument(train).toJson(QJsonDocument::Compact));
        if (val.contains(QLatin1String("val_loss")))
            records.append(QJsonDocument(val).toJson(QJsonDocument::Compact));
    }
    return records;
}

} // namespace TrainDesk
