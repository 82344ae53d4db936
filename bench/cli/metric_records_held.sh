#!/usr/bin/env bash
# The memory a chart pays for holding a long run's decoded metric records, and the decode
# time: 1,000,000 `train` rows and 200,000 TensorBoard `scalar` rows decoded with
# MetricRecord::fromJson and held in one QList (as ui/charts/MetricSeries holds them), for
# each git revision given (its core/metrics/MetricRecord and ScalarPoint, compiled with -O2).
# Usage: metric_records_held.sh REV [REV ...]   (run from the repository)
set -eu
work=$(mktemp -d "${TMPDIR:-/tmp}/td-bench-records.XXXXXX")
trap 'rm -rf "$work"' EXIT
cat > "$work/held.cpp" <<'CPP'
#include "metrics/MetricRecord.h"
#include <QByteArray>
#include <QList>
#include <chrono>
#include <cstdio>
static long rssKiB() { FILE *f = std::fopen("/proc/self/statm", "r"); long size = 0, resident = 0;
                       if (f) { std::fscanf(f, "%ld %ld", &size, &resident); std::fclose(f); } return resident * 4; }
int main() {
    QList<QByteArray> rows;
    for (int i = 0; i < 1000000; ++i)
        rows << "{\"kind\":\"train\",\"time\":" + QByteArray::number(1764155412.25 + i * 0.01, 'f', 3) + ",\"rank\":0,\"epoch\":"
                    + QByteArray::number(i / 10000) + ",\"step\":" + QByteArray::number(i) + ",\"global_step\":"
                    + QByteArray::number(i) + ",\"loss\":" + QByteArray::number(2.0 / (1 + i * 1e-4)) + ",\"acc\":"
                    + QByteArray::number(i / 1e6) + "}";
    for (int i = 0; i < 200000; ++i)
        rows << "{\"time\":1764155412.25,\"kind\":\"scalar\",\"name\":\"train/loss\",\"source\":\"tensorboard\","
                "\"file\":\"logs/events.out.tfevents.1\",\"value\":" + QByteArray::number(1.0 / (i + 1)) + ",\"step\":"
                    + QByteArray::number(i) + "}";
    const long before = rssKiB();
    QList<TrainDesk::MetricRecord> records;
    const auto start = std::chrono::steady_clock::now();
    for (const QByteArray &row : rows)
        if (auto record = TrainDesk::MetricRecord::fromJson(row))
            records.append(*record);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::printf("%lld records, sizeof %zu B, held %ld MiB, decoded in %.2f s\n", (long long)records.size(),
                sizeof(TrainDesk::MetricRecord), (rssKiB() - before) / 1024, seconds);
}
CPP
for rev in "$@"; do
  mkdir -p "$work/$rev/metrics"
  for f in MetricRecord.h MetricRecord.cpp ScalarPoint.h ScalarPoint.cpp; do
    git show "$rev:core/metrics/$f" > "$work/$rev/metrics/$f"
  done
  # shellcheck disable=SC2046  # pkg-config's flags are several words
  g++ -std=c++20 -O2 -fPIC $(pkg-config --cflags Qt6Core) -I"$work/$rev" -I"$work/$rev/metrics" "$work/held.cpp" \
      "$work/$rev/metrics/MetricRecord.cpp" "$work/$rev/metrics/ScalarPoint.cpp" -o "$work/$rev/held" -lQt6Core
  printf '%s: ' "$rev"
  "$work/$rev/held"
done
