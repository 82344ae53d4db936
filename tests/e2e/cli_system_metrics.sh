#!/usr/bin/env bash
# System metrics of a real job on the local cluster: the agent samples the job's node while
# it runs, stores the samples with the job, and `job metrics --system` prints them.
# The GPU part: this machine may have no GPU, so a fake `nvidia-smi` first on PATH prints
# what the real one prints for TrainDesk's query (the CSV format of
# `--query-gpu=index,utilization.gpu,memory.used,memory.total --format=csv,noheader,nounits`,
# two GPUs, the second one idle) and refuses any other query.
set -u
traindesk=$1
work=$(mktemp -d "${TMPDIR:-/tmp}/td-sysmetrics.XXXXXX")
export TRAINDESK_HOME=$work/home TRAINDESK_SYSTEM_SAMPLE_SECONDS=1
cleanup() { "$traindesk" agent stop >/dev/null 2>&1; rm -rf "$work"; }
trap cleanup EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
td() { "$traindesk" "$@"; }

mkdir -p "$work/bin"
cat > "$work/bin/nvidia-smi" <<'SMI'
#!/bin/sh
[ "$*" = "--query-gpu=index,utilization.gpu,memory.used,memory.total --format=csv,noheader,nounits" ] || {
  echo "Field \"$*\" is not a valid field to query." >&2; exit 2; }
printf '0, 87, 40513, 81559\n1, 0, 4, 81559\n'
SMI
chmod +x "$work/bin/nvidia-smi"
export PATH=$work/bin:$PATH

cat > "$work/job.json" <<JSON
{ "properties": { "nodeCount": 1, "stdOutErrPathPrefix": "$work/jobs",
  "customToolkitSettings": { "commandLine": "sleep 6" } } }
JSON
td experiment create -n sysm >/dev/null || fail "experiment create"
td job create -e sysm -n sampled -c local -f "$work/job.json" >/dev/null || fail "job create"
timeout 120 "$traindesk" job wait -e sysm -n sampled >/dev/null || fail "job wait: $(td job show -e sysm -n sampled)"
[ "$(td job show -e sysm -n sampled --query executionState)" = succeeded ] || fail "job: $(td job show -e sysm -n sampled)"

json=$(td job metrics -e sysm -j sampled --system -o json) || fail "job metrics --system -o json"
echo "$json" | python3 -c '
import json, sys
samples = json.load(sys.stdin)
mem_total = 0
for line in open("/proc/meminfo"):
    if line.startswith("MemTotal:"):
        mem_total = int(line.split()[1]) * 1024
assert len(samples) >= 3, f"{len(samples)} samples in a 6 s job sampled every second"
for s in samples:
    assert s["node"], s
    assert 0 <= s["cpu_percent"] <= 100, s
    assert s["mem_total"] == mem_total, (s["mem_total"], mem_total)
    assert 0 < s["mem_used"] < mem_total, s
    assert s["net_rx"] >= 0 and s["net_tx"] >= 0, s
    gpus = s["gpus"]
    assert [g["index"] for g in gpus] == [0, 1], gpus
    assert gpus[0]["util_percent"] == 87 and gpus[1]["util_percent"] == 0, gpus
    assert gpus[0]["mem_used"] == 40513 * 1024 * 1024 and gpus[0]["mem_total"] == 81559 * 1024 * 1024, gpus
times = [s["time"] for s in samples]
assert times == sorted(times), times
print(len(samples), "samples, cpu %:", [round(s["cpu_percent"]) for s in samples])
' || fail "samples: $json"

table=$(td job metrics -e sysm -j sampled --system) || fail "job metrics --system"
echo "$table" | head -3
echo "$table" | head -1 | grep -q "CPU %" || fail "no CPU % column: $table"
echo "$table" | grep -q "0:87 1:0" || fail "no GPU use per GPU: $table"
echo "$table" | grep -q "0:39.56/79.65" || fail "no GPU memory in GiB: $table"
echo "PASS"
