#!/usr/bin/env bash
# End-to-end: the `traindesk` CLI creates a job on the local cluster that runs the bundled
# trainer with 2 MPI ranks on a small synthetic set, waits for it, and checks its outputs:
# states, stdout, the metrics file (the loss fell) and the saved model.
set -euo pipefail
traindesk="$1"
export TRAINDESK_HOME="$(mktemp -d)"
export TRAINDESK_TRAINER_DIR="$(dirname "$traindesk")"
trap 'rm -rf "$TRAINDESK_HOME"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

# The embedded default is there from the first command on.
"$traindesk" workspace list -o json | grep -q '"name": "default"' || fail "no default workspace"
"$traindesk" cluster show -n local | grep -E '^local +steady +1 +0 +0 +0 +0$' >/dev/null || fail "cluster show row"
"$traindesk" job list -e demo | grep -q 'fashion-mnist-demo .* draft' || fail "no draft demo job"

"$traindesk" experiment create -n e2e >/dev/null
cat > "$TRAINDESK_HOME/job.json" <<'JSON'
{
  "properties": {
    "nodeCount": 1,
    "customMpiSettings": {
      "commandLine": "traindesk-trainer --format synthetic --synthetic-train 1024 --synthetic-test 256 --synthetic-shape 16x16x1 --epochs 3 --log-every 4 --lr 0.001 --dir $AZ_BATCHAI_OUTPUT_MODEL",
      "processCount": 2
    },
    "stdOutErrPathPrefix": "$AZ_BATCHAI_JOB_MOUNT_ROOT/local",
    "outputDirectories": [{"id": "MODEL", "pathPrefix": "$AZ_BATCHAI_JOB_MOUNT_ROOT/local"}]
  }
}
JSON
"$traindesk" job validate -f "$TRAINDESK_HOME/job.json" >/dev/null || fail "validate"
"$traindesk" job create -e e2e -n smoke -c local -f "$TRAINDESK_HOME/job.json" -o json > "$TRAINDESK_HOME/created.json"
# `job create` returns once the job is stored and queued; the agent, started on demand, runs it.
grep -q '"executionState": "queued"' "$TRAINDESK_HOME/created.json" || fail "job not queued: $(cat "$TRAINDESK_HOME/created.json")"
"$traindesk" agent status | grep -q 'The agent runs' || fail "no agent after job create: $("$traindesk" agent status)"

# Streaming follows the file until the job ends.
"$traindesk" job file stream -e e2e -j smoke -f stdout.txt > "$TRAINDESK_HOME/stream.txt"
"$traindesk" job wait -e e2e -n smoke || fail "job wait exit code $?: $("$traindesk" job file stream -e e2e -j smoke -f stderr.txt)"
[ "$("$traindesk" job show -e e2e -n smoke --query executionState)" = succeeded ] || fail "state"
[ "$("$traindesk" job show -e e2e -n smoke --query executionInfo.exitCode)" = 0 ] || fail "exit code"
grep -q 'Epoch 3/3' "$TRAINDESK_HOME/stream.txt" || fail "stream lacks the last epoch: $(tail -5 "$TRAINDESK_HOME/stream.txt")"

"$traindesk" job file list -e e2e -j smoke > "$TRAINDESK_HOME/files.txt"
for f in stdout.txt stderr.txt metrics.jsonl execution-localhost.log; do
  grep -q "^$f " "$TRAINDESK_HOME/files.txt" || fail "job file list lacks $f"
done
"$traindesk" job file list -e e2e -j smoke -d MODEL -p saved_models | grep -q 'keras_cifar10_trained_model.h5' \
  || fail "no saved model"

jobdir=$("$traindesk" job show -e e2e -n smoke --query jobDirectory)
python3 - "$jobdir/stdouterr/metrics.jsonl" <<'PY'
import json, sys
records = [json.loads(line) for line in open(sys.argv[1])]
kinds = [r["kind"] for r in records]
assert kinds[0] == "info" and kinds[-1] == "done", kinds
train = [r for r in records if r["kind"] == "train"]
assert len(train) >= 4, len(train)
assert all(r["workers"] == 2 for r in train), "workers"
assert [r["global_step"] for r in train] == sorted(r["global_step"] for r in train)
assert sum(1 for r in records if r["kind"] == "val") == 3
first, last = train[0]["loss"], train[-1]["loss"]
assert last < 0.8 * first, f"loss did not fall: {first} -> {last}"
print(f"metrics ok: {len(records)} records, loss {first:.4f} -> {last:.4f}")
PY
# Nobody ran `job wait` while it ran (only `job file stream`): the agent stored every record.
stored=$("$traindesk" job metrics -e e2e -j smoke -o json | python3 -c 'import json,sys; print(len(json.load(sys.stdin)))')
[ "$stored" = "$(wc -l < "$jobdir/stdouterr/metrics.jsonl")" ] || fail "stored $stored metric records, the file has $(wc -l < "$jobdir/stdouterr/metrics.jsonl")"

# A job that fails reports its exit code through `job wait`.
sed 's/--epochs 3/--epochs banana/' "$TRAINDESK_HOME/job.json" > "$TRAINDESK_HOME/bad.json"
"$traindesk" job create -e e2e -n bad -c local -f "$TRAINDESK_HOME/bad.json" >/dev/null
set +e
"$traindesk" job wait -e e2e -n bad > "$TRAINDESK_HOME/bad-wait.txt"
rc=$?
set -e
[ "$rc" -ne 0 ] || fail "failing job waited with exit 0"
[ "$("$traindesk" job show -e e2e -n bad --query executionState)" = failed ] || fail "bad job state"
"$traindesk" job file stream -e e2e -j bad -f stderr.txt | grep -q -- '--epochs' || fail "stderr does not name the flag"
echo "e2e ok"
