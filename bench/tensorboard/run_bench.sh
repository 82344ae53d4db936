#!/usr/bin/env bash
# Issue #44's TensorBoard import benchmark: 1,000 runs of 10,000 scalars each (10 M points,
# real event files from make_tb_runs.cpp), imported in place by `traindesk runs import`,
# imported again unchanged (the re-open: only the index is read), one CSV of 100 runs'
# points (`runs export`, the rows the overlay reads), against peer_read.py (TensorBoard's
# loader's way, in Python with Debian's protobuf; TensorBoard is not in Debian 12).
# Usage: bench/tensorboard/run_bench.sh build/bin/traindesk [WORKDIR] [RUNS] [POINTS]
set -eu
traindesk=$(realpath "$1")
work=${2:-$(mktemp -d "${TMPDIR:-/tmp}/td-tbbench.XXXXXX")}
runs=${3:-1000}
points=${4:-10000}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$work"
g++ -O2 -o "$work/make_tb_runs" "$here/make_tb_runs.cpp"
[ -d "$work/logs" ] || "$work/make_tb_runs" "$work/logs" "$runs" "$points"
echo "folder: $(du -sh "$work/logs" | cut -f1), $runs runs x $points points; load: $(cut -d' ' -f1-3 /proc/loadavg)"
export TRAINDESK_HOME=$work/home.$$
t() { /usr/bin/time -f "$1: %e s wall, %U s user, %S s sys, %M KB max RSS" "${@:2}"; }
t "import" "$traindesk" runs import "$work/logs" -e bench
t "re-open (import again, unchanged)" "$traindesk" runs import "$work/logs" -e bench
chosen=()
for i in $(seq 0 99); do chosen+=(--run "lr_$((i / 10))/seed_$((i % 10))"); done
t "export 100 runs' points as CSV" "$traindesk" runs export -e bench "${chosen[@]}" > "$work/export.csv"
echo "exported rows: $(($(wc -l < "$work/export.csv") - 1))"
t "peer: peer_read.py (TensorBoard's loader's way, Python + protobuf)" /usr/bin/python3 "$here/peer_read.py" "$work/logs"
rm -rf "$TRAINDESK_HOME"
