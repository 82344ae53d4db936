#!/bin/bash
# GUI benchmark: the event loop's longest stall while a fake job streams 10,000 metric
# records a second and a 100 MB log into the real window, and a 1,000,000-point chart
# redrawn and zoomed. Builds bench_gui in BUILD_DIR, then runs it on the offscreen
# platform (BENCH_XVFB=1: under Xvfb, as docs/screenshots/render.sh does).
# Usage: bench/gui/run_bench.sh [BUILD_DIR] [bench_gui options, e.g. --seconds 20]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../../build-ui}
shift || true
cmake --build "$build" --target bench_gui -j "${JOBS:-2}" >/dev/null
echo "command: bench_gui $*  (load average before: $(cut -d' ' -f1-3 /proc/loadavg))"
if [ "${BENCH_XVFB:-0}" = 1 ]; then
  xvfb-run -a -s "-screen 0 1400x900x24" "$build/bin/bench_gui" "$@"
else
  QT_QPA_PLATFORM=offscreen "$build/bin/bench_gui" "$@"
fi 2> >(grep -v -e propagateSizeHints -e XDG_RUNTIME_DIR >&2)
