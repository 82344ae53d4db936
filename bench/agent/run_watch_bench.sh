#!/usr/bin/env bash
# The agent watching many running jobs: 50 jobs (one per local cluster, so all run at once),
# each writing 100 metric records a second. Measures the agent's CPU time per second of wall
# time and its memory while it stores them all, checks that every record reached the store,
# and (with bench_gui built) the longest event-loop stall of a GUI connected to it.
#   bench/agent/run_watch_bench.sh [build dir] [jobs] [seconds of measurement]
set -u
build=${1:-build}
jobs=${2:-50}
measure=${3:-20}
traindesk=$build/bin/traindesk
# bench_gui is not in the default build: built now (where it can be), before anything is measured.
cmake --build "$build" --target bench_gui >/dev/null 2>&1 || true
work=$(mktemp -d "${TMPDIR:-/tmp}/td-watch-bench.XXXXXX")
export TRAINDESK_HOME=$work/home OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# Whoever starts the agent starts this program (bench_gui must not start itself as one).
export TRAINDESK_AGENT_PROGRAM=$(cd "$build/bin" && pwd)/traindesk
trap '"$traindesk" agent stop >/dev/null 2>&1; rm -rf "$work"' EXIT
# Each job writes for this long: the other jobs' start, the measurement, the GUI's.
run_for=$((measure + jobs + 60))

# One writer per job: 10 records every 0.1 s, flushed, for run_for seconds.
cat > "$work/writer.py" <<'PY'
import json, sys, time
path, seconds = sys.argv[1] + "/metrics.jsonl", float(sys.argv[2])
step, start = 0, time.time()
with open(path, "a") as out:
    while time.time() - start < seconds:
        for _ in range(10):
            step += 1
            out.write(json.dumps({"kind": "train", "step": step, "loss": 1.0 / step}) + "\n")
        out.flush()
        time.sleep(0.1)
PY

"$traindesk" experiment create -n watch >/dev/null
for i in $(seq 1 "$jobs"); do
  "$traindesk" cluster create --local -n c$i >/dev/null || { echo "cluster create failed"; exit 1; }
done
for i in $(seq 1 "$jobs"); do
  cat > "$work/job-$i.json" <<JSON
{ "properties": { "nodeCount": 1, "stdOutErrPathPrefix": "$work/jobs",
  "customMpiSettings": { "processCount": 1,
    "commandLine": "python3 $work/writer.py \$AZ_BATCHAI_STDOUTERR_DIR $run_for" } } }
JSON
  "$traindesk" job create -e watch -n j$i -c c$i -f "$work/job-$i.json" >/dev/null || { echo "job create failed"; exit 1; }
done
until [ "$("$traindesk" job list -e watch -o json | grep -c '"executionState": "running"')" = "$jobs" ]; do
  sleep 1
done
agent=$("$traindesk" agent status -o json | python3 -c 'import json, sys; print(json.load(sys.stdin).get("pid", ""))')
[ -n "$agent" ] || { echo "no agent process"; exit 1; }
sleep 3  # past the start-up catch-up
ticks() { awk '{print $14 + $15}' "/proc/$agent/stat"; }
hz=$(getconf CLK_TCK)
t0=$(ticks); w0=$(date +%s%N)
sleep "$measure"
t1=$(ticks); w1=$(date +%s%N)
rss=$(awk '/VmRSS/ {print $2}' "/proc/$agent/status")
hwm=$(awk '/VmHWM/ {print $2}' "/proc/$agent/status")
python3 - "$t0" "$t1" "$w0" "$w1" "$hz" "$rss" "$hwm" "$jobs" "$measure" <<'PY'
import sys
t0, t1, w0, w1, hz, rss, hwm, jobs, measure = map(float, sys.argv[1:])
cpu = (t1 - t0) / hz
wall = (w1 - w0) / 1e9
print(f"machine: {open('/proc/cpuinfo').read().split('model name')[1].split(':')[1].splitlines()[0].strip()}, load {open('/proc/loadavg').read().split()[:3]}")
print(f"agent watching {int(jobs)} running jobs x 100 records/s for {wall:.1f} s: CPU {cpu:.2f} s = {cpu/wall*100:.1f}% of one core; RSS {rss/1024:.1f} MiB (peak {hwm/1024:.1f} MiB)")
PY

if [ -x "$build/bin/bench_gui" ]; then
  QT_QPA_PLATFORM=offscreen "$build/bin/bench_gui" --watch-home "$TRAINDESK_HOME" --seconds 10 2>/dev/null | grep -v "^machine"
fi

# Every record of every job stored once: wait for the ends, then count.
for i in $(seq 1 "$jobs"); do "$traindesk" job wait -e watch -n j$i >/dev/null; done
python3 - "$TRAINDESK_HOME/traindesk.db" "$work/jobs" "$jobs" <<'PY'
import glob, sqlite3, sys
db, jobsdir, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
written = sum(sum(1 for _ in open(f)) for f in glob.glob(jobsdir + "/**/metrics.jsonl", recursive=True))
con = sqlite3.connect(db)
stored = con.execute("select count(*) from job_metrics").fetchone()[0]
dups = con.execute("select count(*) from (select job_id, record from job_metrics group by job_id, record having count(*) > 1)").fetchone()[0]
print(f"records written by the jobs: {written}; stored: {stored}; duplicated: {dups}")
PY
