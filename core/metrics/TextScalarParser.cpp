#include "TextScalarParser.h"
#include "MpiOutputTag.h"

#include <QDateTime>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>

namespace TrainDesk {

namespace {

#define TD_NUMBER "[-+]?(?:\\d+\\.?\\d*|\\.\\d+)(?:[eE][-+]?\\d+)?|[-+]?(?:nan|inf)"

// "Epoch: [3][ 10/469]" or "Test: [ 10/79]" and what follows.
const QRegularExpression meterPattern(
    QStringLiteral("^\\s*([A-Za-z][\\w ]*?):\\s*(?:\\[\\s*(\\d+)\\s*\\])?\\[\\s*(\\d+)\\s*/\\s*(\\d+)\\s*\\](.*)$"));
// "Loss 2.3081e+00 (2.3081e+00)": a name, its value and its running average.
const QRegularExpression meterPairPattern(
    QStringLiteral("([A-Za-z][\\w@./%-]*)\\s+(" TD_NUMBER ")\\s*\\(\\s*(?:" TD_NUMBER ")\\s*\\)"));
// " * Acc@1 75.000 Acc@5 92.000": the validation summary.
const QRegularExpression summaryPattern(QStringLiteral("^\\s*\\*\\s+(.*)$"));
const QRegularExpression summaryPairPattern(QStringLiteral("([A-Za-z][\\w@./%-]*)\\s+(" TD_NUMBER ")(?=\\s|$)"));
const QRegularExpression dictPattern(QStringLiteral("^\\s*\\{(.*)\\}\\s*$"));
const QRegularExpression dictPairPattern(QStringLiteral("['\"]([^'\"]+)['\"]\\s*:\\s*(" TD_NUMBER ")\\s*(?=,|$)"));
// key=value or key: value, each pair on its own (spaces, commas, | or ; around it); a step
// or epoch may be "3/10".
const QRegularExpression pairPattern(QStringLiteral(
    "(?:^|[\\s,;:|(\\[{])([A-Za-z_][\\w./@-]*)\\s*[=:]\\s*(" TD_NUMBER ")(/\\d+)?(?=$|[\\s,;|)\\]}])"));
// pytorch/examples' MNIST (and VAE, hogwild, which put a pid in front): "Train Epoch: 1
// [640/60000 (1%)]\tLoss: 0.123456"; the test summary "Test set: Average loss: 0.0500,
// Accuracy: 9837/10000 (98%)" (VAE: "====> Test set loss: 127.5").
const QRegularExpression trainEpochPattern(
    QStringLiteral("Train Epoch:\\s*(\\d+)\\s*\\[\\s*(\\d+)\\s*/\\s*(\\d+)[^\\]]*\\](.*)$"));
const QRegularExpression colonPairPattern(QStringLiteral("([A-Za-z][\\w ]*?):\\s*(" TD_NUMBER ")(?=$|[\\s,;|])"));
const QRegularExpression testSetPattern(QStringLiteral(
    "Test set(?::\\s*Average| )\\s*loss:\\s*(" TD_NUMBER ")(?:,\\s*Accuracy:\\s*(\\d+)\\s*/\\s*(\\d+))?"));
#undef TD_NUMBER  // this file's alone (the build puts several sources in one unit)
const QRegularExpression stepKeyPattern(QStringLiteral("^(?:global_step|step|iter|iteration|it|batch)$"),
                                        QRegularExpression::CaseInsensitiveOption);
const QRegularExpression epochKeyPattern(QStringLiteral("^epoch$"), QRegularExpression::CaseInsensitiveOption);

double numberOf(const QString &text)
{
    const QString t = text.toLower();
    if (t.endsWith(QLatin1String("nan")))
        return NAN;
    if (t.endsWith(QLatin1String("inf")))
        return t.startsWith(QLatin1Char('-')) ? -INFINITY : INFINITY;
    return text.toDouble();
}

} // namespace

TextScalarParser::TextScalarParser(const QString &file, int rank) : m_file(file), m_rank(rank) {}

QByteArray TextScalarParser::state() const
{
    QJsonObject o;
    if (std::isfinite(m_epoch))
        o.insert("epoch", m_epoch);
    return QJsonDocument(o).toJson(QJsonDocument::Compact);
}

void TextScalarParser::setState(const QByteArray &state)
{
    const QJsonValue epoch = QJsonDocument::fromJson(state).object().value("epoch");
    m_epoch = epoch.isDouble() ? epoch.toDouble() : NAN;
}

QList<ScalarPoint> TextScalarParser::parse(const QByteArray &text)
{
    const double now = QDateTime::currentMSecsSinceEpoch() / 1000.0;
    QByteArray normalised = text;
    normalised.replace('\r', '\n');
    QList<ScalarPoint> points;
    for (const QByteArray &line : normalised.split('\n')) {
        if (!line.trimmed().isEmpty())
            points += parseLine(QString::fromUtf8(line), now);
    }
    return points;
}

QList<ScalarPoint> TextScalarParser::parseLine(const QString &text, double time)
{
    QString line = text;
    m_lineRank = m_rank;
    if (const MpiOutputTag tag = MpiOutputTag::of(line); tag.rank >= 0) {
        if (m_lineRank < 0)
            m_lineRank = tag.rank;
        line = line.mid(tag.length);
    }
    QList<ScalarPoint> points = pyTorchExamples(line);
    if (points.isEmpty())
        points = huggingFace(line);
    if (points.isEmpty())
        points = keyValues(line);
    for (ScalarPoint &p : points)
        p.time = time;
    return points;
}

ScalarPoint TextScalarParser::point(const QString &name, double value, const QString &source) const
{
    ScalarPoint p;
    p.name = name;
    p.tag = name;
    p.value = value;
    p.source = source;
    p.file = m_file;
    p.rank = m_lineRank;
    return p;
}

QList<ScalarPoint> TextScalarParser::pyTorchExamples(const QString &line)
{
    QList<ScalarPoint> points;
    const QString source = QStringLiteral("pytorch-examples");
    if (const auto train = trainEpochPattern.match(line); train.hasMatch()) {
        // No batch count is printed, only samples: the x is the fraction of epochs done,
        // as Hugging Face's (epoch E counts from 1: E - 1 + 640/60000).
        const double epoch = train.captured(1).toDouble();
        const double total = train.captured(3).toDouble();
        const double done = total > 0 ? epoch - 1 + train.captured(2).toDouble() / total : epoch - 1;
        auto it = colonPairPattern.globalMatch(train.captured(4));
        while (it.hasNext()) {
            const auto m = it.next();
            ScalarPoint p = point(m.captured(1).trimmed(), numberOf(m.captured(2)), source);
            p.epoch = done;
            p.tag = QStringLiteral("Train Epoch ") + p.name;
            points << p;
        }
        if (!points.isEmpty())
            m_epoch = epoch;  // the test summary after it stands at the epoch's end: E
        return points;
    }
    if (const auto test = testSetPattern.match(line); test.hasMatch()) {
        ScalarPoint loss = point(QStringLiteral("Test/Loss"), numberOf(test.captured(1)), source);
        loss.tag = QStringLiteral("Test set loss");
        points << loss;
        if (const double total = test.captured(3).toDouble(); total > 0) {
            // A percentage, as printed (rounded there) and as ImageNet's Acc@1.
            ScalarPoint accuracy = point(QStringLiteral("Test/Accuracy"), 100.0 * test.captured(2).toDouble() / total, source);
            accuracy.tag = QStringLiteral("Test set Accuracy");
            points << accuracy;
        }
        for (ScalarPoint &p : points)
            p.epoch = m_epoch;
        return points;
    }
    if (const auto meter = meterPattern.match(line); meter.hasMatch()) {
        const QString prefix = meter.captured(1).trimmed();
        const bool training = !meter.captured(2).isEmpty();
        const qint64 batch = meter.captured(3).toLongLong();
        const qint64 batches = meter.captured(4).toLongLong();
        auto it = meterPairPattern.globalMatch(meter.captured(5));
        while (it.hasNext()) {
            const auto m = it.next();
            // Training batches are the series' own; others (Test, Val) carry their prefix.
            ScalarPoint p = point(training ? m.captured(1) : prefix + QLatin1Char('/') + m.captured(1),
                                  numberOf(m.captured(2)), source);
            p.epoch = training ? meter.captured(2).toDouble() : m_epoch;
            p.step = training ? counterOf(double(counterOf(p.epoch)) * double(batches) + double(batch)) : batch;
            p.tag = prefix + QLatin1Char(' ') + m.captured(1);
            points << p;
        }
        if (training && !points.isEmpty())
            m_epoch = meter.captured(2).toDouble();
        return points;
    }
    if (const auto summary = summaryPattern.match(line); summary.hasMatch()) {
        auto it = summaryPairPattern.globalMatch(summary.captured(1));
        while (it.hasNext()) {
            const auto m = it.next();
            ScalarPoint p = point(m.captured(1) + QStringLiteral(" (val)"), numberOf(m.captured(2)), source);
            p.epoch = m_epoch;
            p.tag = QStringLiteral("* ") + m.captured(1);
            points << p;
        }
    }
    return points;
}

QList<ScalarPoint> TextScalarParser::huggingFace(const QString &line) const
{
    const auto dict = dictPattern.match(line);
    if (!dict.hasMatch())
        return {};
    QList<ScalarPoint> points;
    double epoch = NAN;
    qint64 step = -1;
    auto it = dictPairPattern.globalMatch(dict.captured(1));
    while (it.hasNext()) {
        const auto m = it.next();
        const QString key = m.captured(1);
        const double value = numberOf(m.captured(2));
        if (key == QLatin1String("epoch"))
            epoch = value;
        else if (key == QLatin1String("step") || key == QLatin1String("global_step"))
            step = counterOf(value);
        else
            points << point(key, value, QStringLiteral("huggingface"));
    }
    // A dict with neither an epoch nor a step is some other print.
    if (!std::isfinite(epoch) && step < 0)
        return {};
    for (ScalarPoint &p : points) {
        p.epoch = epoch;
        p.step = step;
    }
    return points;
}

QList<ScalarPoint> TextScalarParser::keyValues(const QString &line) const
{
    QList<ScalarPoint> points;
    double epoch = NAN;
    qint64 step = -1;
    auto it = pairPattern.globalMatch(line);
    while (it.hasNext()) {
        const auto m = it.next();
        const QString key = m.captured(1);
        const double value = numberOf(m.captured(2));
        if (stepKeyPattern.match(key).hasMatch())
            step = counterOf(value);
        else if (epochKeyPattern.match(key).hasMatch())
            epoch = value;
        else if (m.captured(3).isEmpty())  // "3/10" is a count, not a value
            points << point(key, value, QStringLiteral("key-value"));
    }
    if (!std::isfinite(epoch) && step < 0)
        return {};
    for (ScalarPoint &p : points) {
        p.epoch = epoch;
        p.step = step;
    }
    return points;
}

} // namespace TrainDesk
