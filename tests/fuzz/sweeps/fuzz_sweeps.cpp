// libFuzzer target for sweep parameters (issue #38). The first byte picks the form: a
// parameter file (job_factory's JSON) or inline --param lines. Nothing may crash, leak, trip
// a sanitizer or allocate what the limit forbids (run_fuzz.sh caps memory: a grid of 2e9
// values once took 2.4 GB before its refusal), and:
// - a grid is refused exactly when it counts more than the trials a sweep may have;
// - a grid that is made holds no more values than it counted;
// - a parameter written as JSON reads back as the same parameter.
#include "sweeps/SweepParam.h"
#include "sweeps/SweepSampler.h"

#include <QJsonDocument>

#include <cstdio>
#include <cstdlib>

using namespace TrainDesk;

namespace {

[[noreturn]] void failWith(const char *what, const QByteArray &detail = {})
{
    std::fprintf(stderr, "fuzz_sweeps: %s\n%s\n", what, detail.constData());
    std::abort();
}

void checkParam(const SweepParam &p)
{
    const QByteArray json = QJsonDocument(p.toJson()).toJson(QJsonDocument::Compact);
    const auto back = SweepParams::fromJson(p.toJson(), QStringLiteral("p"));
    if (!back || QJsonDocument(back->toJson()).toJson(QJsonDocument::Compact) != json)
        failWith("a parameter does not read back as itself", json);
    p.describe();
    std::mt19937_64 random(7);
    for (int i = 0; i < 3; ++i)
        p.draw(random);
    const auto count = p.gridCount();
    const auto values = p.gridValues();
    if (bool(count) != bool(values) && (!count || *count <= SweepParams::maxTrials))
        failWith("gridCount and gridValues disagree on whether a grid exists", json);
    if (count && *count > SweepParams::maxTrials && values)
        failWith("a grid over the limit was made", json);
    if (count && values && double(values->size()) > *count)
        failWith("a grid holds more values than it counted", json);
}

void checkSweep(const QList<SweepParam> &params)
{
    for (const SweepParam &p : params)
        checkParam(p);
    if (SweepParams::checkNames(params)) {
        if (const auto size = SweepSampler::gridSize(params); size && *size <= SweepSampler::maxTrials) {
            const auto grid = SweepSampler::trials(params, SweepSampling::Grid, 0, 1);
            if (grid && grid->size() > *size)
                failWith("a grid made more trials than it counted");
        }
        (void)SweepSampler::trials(params, SweepSampling::Random, 5, 3);  // only that it neither crashes nor leaks
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *bytes, size_t size)
{
    if (size < 1)
        return 0;
    const QByteArray data(reinterpret_cast<const char *>(bytes + 1), qsizetype(size - 1));
    if (bytes[0] % 2 == 0) {
        if (const auto params = SweepParams::parseSpec(data))
            checkSweep(*params);
        return 0;
    }
    QList<SweepParam> params;
    for (const QByteArray &line : data.split('\n')) {
        if (const auto p = SweepParams::parseInline(QString::fromUtf8(line)))
            params << *p;
    }
    checkSweep(params);
    return 0;
}
