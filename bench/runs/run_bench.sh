#!/bin/bash
# Issue #44's runs benchmark: makes (once) a store of RUNS runs, 12 settings and 8 series of
# POINTS points each (bench/runs/make_runs_store, through core/store), then measures the
# Runs tab on it in the real window under Xvfb (bench/runs/bench_runs): cold start, sorts
# and filters, scrolling stalls, plots, 100 runs overlaid, memory.
# Usage: bench/runs/run_bench.sh [BUILD_DIR] [HOME_DIR] [RUNS] [POINTS] [bench_runs options...]
# (10,000 x 1,000: a 3.4 GB store, about 27 minutes to make on 2 busy cores.)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../../build}
home=${2:-/tmp/td-runs-bench}
runs=${3:-10000}
points=${4:-1000}
shift $(( $# < 4 ? $# : 4 ))
cmake --build "$build" --target make_runs_store bench_runs -j "${JOBS:-2}" >/dev/null
[ -f "$home/traindesk.db" ] || "$build/bin/make_runs_store" "$home" "$runs" "$points"
echo "command: bench_runs --home $home $*  (load average before: $(cut -d' ' -f1-3 /proc/loadavg))"
xvfb-run -a -s "-screen 0 1400x900x24" "$build/bin/bench_runs" --home "$home" "$@" \
  2> >(grep -v -e propagateSizeHints -e XDG_RUNTIME_DIR >&2)
