#!/usr/bin/env bash
# A sweep of many short trials on `local`, 2 at a time (#40's scale figure): the agent's CPU
# time (user + system from /proc/PID/stat, from the sweep's creation to its end) and wall
# time, side by side with the same trials started by a shell loop (xargs -P 2). Every trial
# must end succeeded with its own metric (trial i reports loss = i): checked, not assumed.
#   bench/agent/run_sweep_scale.sh [build/bin/traindesk] [trials] [seconds per trial]
set -u
traindesk=${1:-build/bin/traindesk}
trials=${2:-200}
seconds=${3:-1}
work=$(mktemp -d "${TMPDIR:-/tmp}/td-sweep-scale.XXXXXX")
export TRAINDESK_HOME=$work/home OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
trap '"$traindesk" agent stop >/dev/null 2>&1; rm -rf "$work"' EXIT
hz=$(getconf CLK_TCK)
now() { date +%s%N; }

# The trial: one metric record with its own value, then `seconds` of sleep.
cat > "$work/trial.sh" <<'SH'
echo "{\"kind\": \"train\", \"step\": 1, \"loss\": $2}" >> "$1/metrics.jsonl"
sleep "$3"
SH

# The peer: the same trials by a shell loop, 2 at a time; its CPU is that of xargs and the sh
# it starts per trial (children included: `times` of this subshell).
mkdir -p "$work/loop"
w0=$(now)
cpu_loop=$( (seq 0 $((trials - 1)) | xargs -P 2 -I{} sh -c "mkdir -p '$work/loop/{}' && sh '$work/trial.sh' '$work/loop/{}' {} $seconds"
             times) | tail -1 | awk '{ split($1, a, /[ms]/); split($2, b, /[ms]/); print a[1] * 60 + a[2] + b[1] * 60 + b[2] }')
wall_loop=$(( ($(now) - w0) / 1000000 ))
bad_loop=0
for i in $(seq 0 $((trials - 1))); do
  grep -q "\"loss\": $i}" "$work/loop/$i/metrics.jsonl" 2>/dev/null || bad_loop=$((bad_loop + 1))
done

cat > "$work/job.json" <<JSON
{ "properties": { "nodeCount": 1, "stdOutErrPathPrefix": "$work/jobs",
  "customToolkitSettings": {
    "commandLine": "sh $work/trial.sh \$AZ_BATCHAI_STDOUTERR_DIR PARAM_I $seconds" } } }
JSON
"$traindesk" experiment create -n scale >/dev/null || { echo "experiment create failed"; exit 1; }
"$traindesk" agent >/dev/null  # warm, as while a user works
agent=$("$traindesk" agent status -o json | python3 -c 'import json, sys; print(json.load(sys.stdin).get("pid", ""))')
[ -n "$agent" ] || { echo "no agent process"; exit 1; }
ticks() { awk '{print $14 + $15}' "/proc/$agent/stat"; }
# What the agent ran and waited for (sh -c of its commands on the local node: ps, df, the
# detached start) is its children's time; the jobs it starts are detached, not among them.
child_ticks() { awk '{print $16 + $17}' "/proc/$agent/stat"; }
sleep 2  # past the start-up
t0=$(ticks); c0=$(child_ticks); w0=$(now)
"$traindesk" sweep create -e scale -n s -c local -f "$work/job.json" --param "I=range(0,$trials,1)" \
    --max-concurrent 2 --metric loss --goal min >/dev/null || { echo "sweep create failed"; exit 1; }
until s=$("$traindesk" sweep show -e scale -n s --query state 2>/dev/null) && [ "$s" != running ] && [ "$s" != stopping ]; do
  sleep 1
done
t1=$(ticks); c1=$(child_ticks); wall_agent=$(( ($(now) - w0) / 1000000 ))
"$traindesk" sweep show -e scale -n s -o json > "$work/sweep.json"
# A trial not right says why (its job's errors) before the work folder goes.
for j in $(python3 -c 'import json, sys
for t in json.load(open(sys.argv[1]))["trials"]:
    if t.get("state") != "succeeded": print(t["job"])' "$work/sweep.json" | head -5); do
  "$traindesk" job show -e scale -n "$j" 2>&1 | sed 's/^/  /'
  "$traindesk" job file stream -e scale -j "$j" -f stderr.txt 2>&1 | tail -5 | sed 's/^/  stderr: /'
done
python3 - "$work/sweep.json" "$trials" "$t0" "$t1" "$hz" "$wall_agent" "$cpu_loop" "$wall_loop" "$bad_loop" "$s" "$seconds" "$c0" "$c1" <<'PY'
import json, sys
path, trials, t0, t1, hz, wall_agent, cpu_loop, wall_loop, bad_loop, state, seconds, c0, c1 = sys.argv[1:]
trials, hz = int(trials), float(hz)
sweep = json.load(open(path))
rows = sweep.get("trials", [])
bad = []
for t in rows:
    want = t.get("parameters", {}).get("I")
    if t.get("state") != "succeeded" or want is None or t.get("lastMetric") is None or abs(float(t["lastMetric"]) - float(want)) > 1e-9:
        bad.append(t)
cpu = (float(t1) - float(t0)) / hz
wall_a, wall_l = float(wall_agent) / 1000, float(wall_loop) / 1000
print(f"machine: {open('/proc/cpuinfo').read().split('model name')[1].split(':')[1].splitlines()[0].strip()}, "
      f"{len(open('/proc/cpuinfo').read().split('processor')) - 1} cores, load {open('/proc/loadavg').read().split()[:3]}")
print(f"{trials} trials of a {seconds}-second script, 2 at a time; sweep {state}, {len(rows)} trials, "
      f"{len(rows) - len(bad)} succeeded with their own metric, {len(bad)} not")
for t in bad[:5]:
    print("  not right:", json.dumps(t)[:300])
print(f"shell loop (xargs -P 2): wall {wall_l:.1f} s, CPU {float(cpu_loop):.2f} s, {int(bad_loop)} trials wrong")
print(f"through the agent:       wall {wall_a:.1f} s, agent CPU {cpu:.2f} s = {cpu / trials * 1000:.1f} ms a trial, "
      f"{cpu / wall_a * 100:.1f}% of one core on average")
children = (float(c1) - float(c0)) / float(hz)
print(f"                         the agent's own commands (children it waited for): CPU {children:.2f} s = "
      f"{children / trials * 1000:.1f} ms a trial")
print(f"wall ratio agent / shell loop: {wall_a / wall_l:.2f}x")
sys.exit(1 if bad or len(rows) != trials or int(bad_loop) else 0)
PY
