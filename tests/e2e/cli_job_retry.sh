#!/usr/bin/env bash
# Retries and hangs on the local cluster, with the real CLI, agent, mpirun and trainer:
# - the trainer with rank 1 SIGKILLed in epoch 3 of 5 and --max-retries 1: attempt 2 runs in
#   its own directory, resumes at epoch 3 from attempt 1's checkpoint by itself, and the
#   stored series hold epochs 1-5 once each;
# - exit 1 with --retry-on-exit-codes 75 is not retried; exit 75 is, until no attempt is left;
# - a job that stops printing is named (its silent ranks and node) within the progress
#   timeout + 15 s, and with --fail-on-hang fails as JobHung;
# - a burn-in before each job (`cluster burn-in --before-each-job`) on a node whose
#   nvidia-smi lists a GPU the trainer cannot use: the node is unusable with the reason, the
#   job waits; a burn-in that passes makes it idle and the job runs.
set -euo pipefail
traindesk="$1"
export TRAINDESK_HOME="$(mktemp -d)"
export TRAINDESK_TRAINER_DIR="$(dirname "$traindesk")"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
trap '"$traindesk" agent stop >/dev/null 2>&1 || true; rm -rf "$TRAINDESK_HOME"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
q() { "$traindesk" job show -e retry -n "$1" --query "$2"; }

"$traindesk" experiment create -n retry >/dev/null

# --- 1. a rank killed in epoch 3 of 5 -----------------------------------------------------
# Rank 1 of attempt 1 is killed (SIGKILL) as soon as the trainer has recorded a step of epoch 3.
cat > "$TRAINDESK_HOME/kill-rank-1.sh" <<'SH'
#!/bin/sh
if [ "${TRAINDESK_ATTEMPT:-1}" = 1 ] && [ "$OMPI_COMM_WORLD_RANK" = 1 ]; then
  me=$$
  ( while ! grep -q '"kind": "train", "epoch": 3,' "$AZ_BATCHAI_STDOUTERR_DIR/metrics.jsonl" 2>/dev/null; do sleep 0.05; done
    kill -KILL "$me" ) &
fi
exec traindesk-trainer "$@"
SH
chmod +x "$TRAINDESK_HOME/kill-rank-1.sh"
cat > "$TRAINDESK_HOME/killed.json" <<JSON
{
  "properties": {
    "nodeCount": 1,
    "customMpiSettings": {
      "commandLine": "$TRAINDESK_HOME/kill-rank-1.sh --format synthetic --synthetic-train 2048 --synthetic-test 128 --synthetic-shape 16x16x1 --epochs 5 --log-every 4 --lr 0.001 --deterministic --dir \$AZ_BATCHAI_OUTPUT_MODEL",
      "processCount": 2
    },
    "stdOutErrPathPrefix": "\$AZ_BATCHAI_JOB_MOUNT_ROOT/local",
    "outputDirectories": [{"id": "MODEL", "pathPrefix": "\$AZ_BATCHAI_JOB_MOUNT_ROOT/local"}]
  }
}
JSON
"$traindesk" job create -e retry -n killed -c local -f "$TRAINDESK_HOME/killed.json" --max-retries 1 >/dev/null
"$traindesk" job wait -e retry -n killed >/dev/null || fail "killed job did not succeed: $("$traindesk" job show -e retry -n killed)"
[ "$(q killed attempt)" = 2 ] || fail "attempt $(q killed attempt), expected 2"
[ "$(q killed 'attempts[0].exitCode')" = 137 ] || fail "attempt 1's exit code: $(q killed 'attempts[0].exitCode')"
"$traindesk" job show -e retry -n killed | grep -F 'queued again as attempt 2 of 2: a process was killed by signal 9' >/dev/null \
  || fail "job show does not say why it was retried: $("$traindesk" job show -e retry -n killed)"
dir1=$(q killed 'attempts[0].jobDirectory'); dir2=$(q killed jobDirectory)
[ "$dir1" != "$dir2" ] || fail "both attempts in $dir1"
for d in "$dir1" "$dir2"; do
  [ -s "$d/stdouterr/execution-localhost.log" ] || fail "no execution log in $d/stdouterr"
done
grep -F 'resuming from' "$dir2/stdouterr/stderr.txt" "$dir2/stdouterr/stdout.txt" | grep -F "$dir1/outputs/checkpoints" >/dev/null \
  || fail "attempt 2 did not resume from attempt 1's checkpoint: $(cat "$dir2/stdouterr/stdout.txt" "$dir2/stdouterr/stderr.txt" | head -20)"
[ -n "$(ls "$dir2/outputs/checkpoints")" ] || fail "attempt 2 wrote no checkpoints"
"$traindesk" job metrics -e retry -j killed -o json > "$TRAINDESK_HOME/killed-metrics.json"
python3 - "$TRAINDESK_HOME/killed-metrics.json" "$dir2/stdouterr/metrics.jsonl" <<'PY' || fail "stored series"
import json, sys
stored = json.load(open(sys.argv[1]))
attempt2 = [json.loads(l) for l in open(sys.argv[2])]
info2 = [r for r in attempt2 if r["kind"] == "info"][0]
assert info2["start_epoch"] == 3, f"attempt 2 started at epoch {info2['start_epoch']}"
epochs = [r["epoch"] for r in stored if r["kind"] == "epoch"]
assert epochs == [1, 2, 3, 4, 5], f"epoch records stored: {epochs}"
vals = [r["epoch"] for r in stored if r["kind"] == "val"]
assert vals == [1, 2, 3, 4, 5], f"val records stored: {vals}"
steps = [r["global_step"] for r in stored if r["kind"] == "train"]
assert steps == sorted(set(steps)), f"train steps repeated or out of order: {steps}"
assert {r["epoch"] for r in stored if r["kind"] == "train"} == {1, 2, 3, 4, 5}
print(f"stored: epochs {epochs}, {len(steps)} train records, none twice")
PY

# --- 2. exit codes ------------------------------------------------------------------------
cat > "$TRAINDESK_HOME/exit.json" <<'JSON'
{"properties": {"nodeCount": 1, "customToolkitSettings": {"commandLine": "exit $CODE"},
  "environmentVariables": [{"name": "CODE", "value": "1"}],
  "stdOutErrPathPrefix": "$AZ_BATCHAI_JOB_MOUNT_ROOT/local"}}
JSON
"$traindesk" job create -e retry -n exit1 -c local -f "$TRAINDESK_HOME/exit.json" --max-retries 2 --retry-on-exit-codes 75 >/dev/null
"$traindesk" job wait -e retry -n exit1 >/dev/null && fail "exit 1 succeeded"
[ "$(q exit1 attempt)" = 1 ] || fail "exit 1 (not listed) was retried: attempt $(q exit1 attempt)"
[ "$(q exit1 executionInfo.exitCode)" = 1 ] || fail "exit1's exit code"
sed 's/"value": "1"/"value": "75"/' "$TRAINDESK_HOME/exit.json" > "$TRAINDESK_HOME/exit75.json"
"$traindesk" job create -e retry -n exit75 -c local -f "$TRAINDESK_HOME/exit75.json" --max-retries 2 --retry-on-exit-codes 75,143 >/dev/null
"$traindesk" job wait -e retry -n exit75 >/dev/null && fail "exit 75 succeeded"
[ "$(q exit75 attempt)" = 3 ] || fail "exit 75 (listed) ran $(q exit75 attempt) attempts, expected 3"
[ "$(q exit75 executionState)" = failed ] || fail "exit75's state"
"$traindesk" job create -e retry -n badcodes -c local -f "$TRAINDESK_HOME/exit.json" --max-retries 1 --retry-on-exit-codes 75,x \
  2> "$TRAINDESK_HOME/badcodes.err" && fail "bad --retry-on-exit-codes accepted"
grep -F "'x' is not an exit code" "$TRAINDESK_HOME/badcodes.err" >/dev/null || fail "bad codes: $(cat "$TRAINDESK_HOME/badcodes.err")"
"$traindesk" job validate -f <(sed 's/"nodeCount": 1,/"nodeCount": 1, "constraints": {"maxRetries": 2},/' "$TRAINDESK_HOME/exit.json") \
  | grep -F 'constraints.maxRetries: TrainDesk extension' >/dev/null || fail "validate does not mark the extension"

# --- 3. hangs -----------------------------------------------------------------------------
cat > "$TRAINDESK_HOME/hang.json" <<'JSON'
{"properties": {"nodeCount": 1,
  "customMpiSettings": {"commandLine": "sh -c 'echo rank $OMPI_COMM_WORLD_RANK starts; sleep 600'", "processCount": 2},
  "stdOutErrPathPrefix": "$AZ_BATCHAI_JOB_MOUNT_ROOT/local"}}
JSON
timeout=6
"$traindesk" job create -e retry -n hang -c local -f "$TRAINDESK_HOME/hang.json" --progress-timeout ${timeout}s >/dev/null
until [ "$(q hang executionState)" = running ]; do sleep 0.2; done
start=$(date +%s)
until "$traindesk" job show -e retry -n hang -o json | grep -F '"silence"' >/dev/null; do
  [ $(( $(date +%s) - start )) -le $((timeout + 15)) ] || fail "no silence named $((timeout + 15)) s after the start"
  sleep 0.5
done
"$traindesk" job show -e retry -n hang > "$TRAINDESK_HOME/hang.txt"
grep -E '^Silent: no output and no metric for [0-9]+ s \(progress timeout 6 s\); silent ranks, the longest first: rank [01] on localhost' \
  "$TRAINDESK_HOME/hang.txt" >/dev/null || fail "silence text: $(cat "$TRAINDESK_HOME/hang.txt")"
[ "$(q hang 'silence.ranks[1].node')" = localhost ] || fail "second silent rank"
[ "$(q hang executionState)" = running ] || fail "a hang without --fail-on-hang ended the job"
"$traindesk" job terminate -e retry -n hang >/dev/null

"$traindesk" job create -e retry -n hangfail -c local -f "$TRAINDESK_HOME/hang.json" --progress-timeout ${timeout}s \
  --fail-on-hang --max-retries 1 >/dev/null
"$traindesk" job wait -e retry -n hangfail >/dev/null && fail "hung job succeeded"
[ "$(q hangfail 'executionInfo.errors[0].code')" = JobHung ] || fail "hangfail: $("$traindesk" job show -e retry -n hangfail)"
[ "$(q hangfail attempt)" = 2 ] || fail "a hang with --fail-on-hang --max-retries 1 ran $(q hangfail attempt) attempts"

# --- 4. burn-in before each job ------------------------------------------------------------
"$traindesk" cluster burn-in -n local --before-each-job | grep -F "burn-in before each job" >/dev/null || fail "cluster burn-in"
mkdir -p "$TRAINDESK_HOME/fakebin"
cat > "$TRAINDESK_HOME/fakebin/nvidia-smi" <<'SH'
#!/bin/sh
# A GPU that no driver of this machine drives.
case "$*" in
  -L) echo "GPU 0: NVIDIA Test GPU (UUID: GPU-00000000-0000-0000-0000-000000000000)" ;;
  *--query-gpu=index,name,temperature.gpu*) echo "0, NVIDIA Test GPU, 41, 1410, 1980, 0" ;;
esac
SH
chmod +x "$TRAINDESK_HOME/fakebin/nvidia-smi"
"$traindesk" agent stop >/dev/null 2>&1 || true
# The agent (started by this command, with this PATH) burns the node in before the job.
PATH="$TRAINDESK_HOME/fakebin:$PATH" "$traindesk" job create -e retry -n burnt -c local -f "$TRAINDESK_HOME/exit.json" >/dev/null
for _ in $(seq 1 120); do
  "$traindesk" cluster node list -c local -o json | grep -F '"state": "unusable"' >/dev/null && break; sleep 0.5
done
"$traindesk" cluster node list -c local -o json > "$TRAINDESK_HOME/nodes.json"
grep -F '"stateReason": "burn-in: GPU self-check (trainer): exit code' "$TRAINDESK_HOME/nodes.json" >/dev/null \
  || fail "the node is not unusable after a failed burn-in: $(cat "$TRAINDESK_HOME/nodes.json")"
sleep 2
[ "$(q burnt executionState)" = queued ] || fail "a job was scheduled on an unusable node: $(q burnt executionState)"
"$traindesk" agent stop >/dev/null 2>&1 || true
"$traindesk" cluster burn-in -n local --off >/dev/null
"$traindesk" cluster probe -n local --burn-in > "$TRAINDESK_HOME/burnin.txt" 2>&1 || fail "burn-in without the GPU: $(cat "$TRAINDESK_HOME/burnin.txt")"
grep -E '^PASS localhost  All-reduce \(MPI\): [0-9.]+ GB/s bus bandwidth' "$TRAINDESK_HOME/burnin.txt" >/dev/null || fail "figure: $(cat "$TRAINDESK_HOME/burnin.txt")"
"$traindesk" cluster node list -c local -o json | grep -F '"state": "idle"' >/dev/null || fail "the node is not idle after a burn-in passed"
"$traindesk" job wait -e retry -n burnt >/dev/null || true; [ "$(q burnt executionInfo.exitCode)" = 1 ] || fail "the job did not run once the node passed"
echo "PASS"
