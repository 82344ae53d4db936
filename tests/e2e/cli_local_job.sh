#!/usr/bin/env bash
# End-to-end: the `traindesk` CLI creates a job on the local cluster that runs the bundled
# trainer with 2 MPI ranks on a small synthetic set, waits for it, and checks its outputs:
# states, stdout, the metrics file (the loss fell) and the saved model.
set -euo pipefail
traindesk="$1"
export TRAINDESK_HOME="$(mktemp -d)"
export TRAINDESK_TRAINER_DIR="$(dirname "$traindesk")"
# (Searches read their input whole, never `grep -q`: with pipefail, grep leaving early
# would fail the pipeline with the writer's SIGPIPE.)
trap 'rm -rf "$TRAINDESK_HOME"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

# The embedded default is there from the first command on.
"$traindesk" workspace list -o json | grep '"name": "default"' >/dev/null || fail "no default workspace"
"$traindesk" cluster show -n local | grep -E '^local +steady +1 +0 +0 +0 +0$' >/dev/null || fail "cluster show row"
"$traindesk" job list -e demo | grep 'fashion-mnist-demo .* draft' >/dev/null || fail "no draft demo job"

# Each command's help names it; the object's name as -n or as its own letter; --query on show.
for cmd in "job create" "job file download" "cluster show" "workspace delete"; do
  first=$("$traindesk" $cmd --help | sed -n 1p)
  [ "$first" = "Usage: traindesk $cmd [options]" ] || fail "help of $cmd starts '$first'"
done
# A group's name alone (or with --help) lists its commands only, as `az batchai job` does.
group=$("$traindesk" job --help) || fail "job --help exited $?"
grep -q '^  job file download ' <<<"$group" && ! grep -q 'cluster create' <<<"$group" \
  || fail "job --help does not list the job commands alone: $group"
[ "$("$traindesk" cluster node | sed -n 1p)" = "Usage: traindesk cluster node COMMAND [OPTIONS] [-o table|json]" ] \
  || fail "cluster node: $("$traindesk" cluster node 2>&1 | head -3)"
[ "$("$traindesk" help job create | sed -n 1p)" = "Usage: traindesk job create [options]" ] \
  && [ "$("$traindesk" help job)" = "$group" ] || fail "help job create: $("$traindesk" help job create 2>&1 | head -3)"
rc=0; wrong=$("$traindesk" job frobnicate 2>&1) || rc=$?
[ "$rc" = 2 ] && grep -q "^error: unknown command 'job frobnicate'" <<<"$wrong" && grep -q '^  job create ' <<<"$wrong" \
  && ! grep -q 'workspace create' <<<"$wrong" || fail "job frobnicate (exit $rc): $wrong"
[ "$("$traindesk" cluster show -c local --query nodeStateCounts.idleNodeCount)" = 1 ] || fail "cluster show -c --query"
[ "$("$traindesk" cluster show -n local --query 'nodes[0].name')" = localhost ] || fail "cluster show --query nodes[0].name"
"$traindesk" cluster show -n local --query nodeStateCounts -o json | python3 -c '
import json, sys; assert json.load(sys.stdin)["idleNodeCount"] == 1' || fail "cluster show --query nodeStateCounts"
"$traindesk" cluster show -n local --query nodeStateCount 2> "$TRAINDESK_HOME/query.err" && fail "a missing field was queried"
grep -q "no field 'nodeStateCount'" "$TRAINDESK_HOME/query.err" || fail "query error: $(cat "$TRAINDESK_HOME/query.err")"
"$traindesk" cluster show -n local -c other 2> "$TRAINDESK_HOME/alias.err" && fail "-n and -c with two names accepted"
grep -q "name the same thing" "$TRAINDESK_HOME/alias.err" || fail "alias error: $(cat "$TRAINDESK_HOME/alias.err")"
"$traindesk" workspace create -n scratch >/dev/null
[ "$("$traindesk" workspace show -w scratch --query name)" = scratch ] || fail "workspace show -w --query"
"$traindesk" workspace delete -w scratch || fail "workspace delete -w"
"$traindesk" workspace show -n scratch 2>/dev/null && fail "workspace not deleted"

"$traindesk" experiment create -n e2e >/dev/null
cat > "$TRAINDESK_HOME/job.json" <<'JSON'
{
  "properties": {
    "nodeCount": 1,
    "customMpiSettings": {
      "commandLine": "traindesk-trainer --format synthetic --synthetic-train 1024 --synthetic-test 256 --synthetic-shape 16x16x1 --epochs 3 --log-every 4 --lr 0.001 --deterministic --dir $AZ_BATCHAI_OUTPUT_MODEL",
      "processCount": 2
    },
    "stdOutErrPathPrefix": "$AZ_BATCHAI_JOB_MOUNT_ROOT/local",
    "outputDirectories": [{"id": "MODEL", "pathPrefix": "$AZ_BATCHAI_JOB_MOUNT_ROOT/local"}]
  }
}
JSON
"$traindesk" job validate -f "$TRAINDESK_HOME/job.json" >/dev/null || fail "validate"
# A job.json the cluster cannot run: job create names each error at its line, creates nothing.
sed 's/"nodeCount": 1/"nodeCount": 4/' "$TRAINDESK_HOME/job.json" > "$TRAINDESK_HOME/four.json"
"$traindesk" job create -e e2e -n four -c local -f "$TRAINDESK_HOME/four.json" 2> "$TRAINDESK_HOME/four.err" && fail "4 nodes on local created"
grep -qxF "$TRAINDESK_HOME/four.json:3:5: error: properties.nodeCount: expected at most 1 (the nodes of cluster 'local'), found 4" \
  "$TRAINDESK_HOME/four.err" && grep -qxF "error: $TRAINDESK_HOME/four.json is not valid" "$TRAINDESK_HOME/four.err" \
  || fail "job create's refusal: $(cat "$TRAINDESK_HOME/four.err")"
"$traindesk" job show -e e2e -n four 2>/dev/null && fail "the refused job was stored"
"$traindesk" job create -e e2e -n smoke -c local -f "$TRAINDESK_HOME/job.json" -o json > "$TRAINDESK_HOME/created.json"
# `job create` returns once the job is stored and queued; the agent, started on demand, runs it.
grep -q '"executionState": "queued"' "$TRAINDESK_HOME/created.json" || fail "job not queued: $(cat "$TRAINDESK_HOME/created.json")"
"$traindesk" agent status | grep 'The agent runs' >/dev/null || fail "no agent after job create: $("$traindesk" agent status)"

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
# A -d the job does not have names the ones it has.
rc=0; nodir=$("$traindesk" job file list -e e2e -j smoke -d outputs 2>&1) || rc=$?
[ "$rc" != 0 ] && grep -qF "job 'smoke' has no output directory 'outputs'; -d takes stdouterr, MODEL" <<<"$nodir" \
  || fail "-d outputs (exit $rc): $nodir"
"$traindesk" job file list -e e2e -j smoke -d MODEL -p saved_models | grep 'keras_cifar10_trained_model.h5' >/dev/null \
  || fail "no saved model"

jobdir=$("$traindesk" job show -e e2e -n smoke --query jobDirectory)

# job file download: stdouterr as a folder, the model as one file, each byte as on the node.
dest="$TRAINDESK_HOME/downloads"
"$traindesk" job file download -e e2e -j smoke --dest "$dest" > "$TRAINDESK_HOME/dl.txt" 2> "$TRAINDESK_HOME/dl.err" \
  || fail "download stdouterr: $(cat "$TRAINDESK_HOME/dl.err")"
for f in stdout.txt stderr.txt metrics.jsonl execution-localhost.log; do
  cmp "$jobdir/stdouterr/$f" "$dest/smoke/stdouterr/$f" || fail "downloaded $f differs"
  grep -qxF "stdouterr/$f -> $dest/smoke/stdouterr/$f" "$TRAINDESK_HOME/dl.txt" || fail "no line for $f: $(cat "$TRAINDESK_HOME/dl.txt")"
done
grep -q '^download: .* 100% ' "$TRAINDESK_HOME/dl.err" || fail "no progress: $(cat "$TRAINDESK_HOME/dl.err")"
model=saved_models/keras_cifar10_trained_model.h5
"$traindesk" job file download -e e2e -j smoke -d model -p "$model" --dest "$dest" >/dev/null || fail "download the model"
cmp "$jobdir/outputs/$model" "$dest/smoke/MODEL/$model" || fail "downloaded model differs"
[ "$(find "$dest" -name '*.traindesk-part' | wc -l)" = 0 ] || fail "part files left"
# Again: the same bytes are left alone; a local file that differs is refused, named, and kept.
"$traindesk" job file download -e e2e -j smoke -d MODEL --dest "$dest" | grep -xF "MODEL/$model -> $dest/smoke/MODEL/$model (unchanged)" >/dev/null \
  || fail "an unchanged model was not said to be unchanged"
echo "my notes" > "$dest/smoke/stdouterr/stdout.txt"
rm "$dest/smoke/stdouterr/stderr.txt"
if "$traindesk" job file download -e e2e -j smoke --dest "$dest" 2> "$TRAINDESK_HOME/conflict.err"; then fail "a different local file was replaced"; fi
grep -qF "$dest/smoke/stdouterr/stdout.txt exists and differs" "$TRAINDESK_HOME/conflict.err" || fail "conflict error: $(cat "$TRAINDESK_HOME/conflict.err")"
[ "$(cat "$dest/smoke/stdouterr/stdout.txt")" = "my notes" ] || fail "the local file was changed"
[ ! -e "$dest/smoke/stdouterr/stderr.txt" ] || fail "a refused download wrote a file"
"$traindesk" job file download -e e2e -j smoke -p stdout.txt --dest "$dest" --overwrite >/dev/null || fail "--overwrite"
cmp "$jobdir/stdouterr/stdout.txt" "$dest/smoke/stdouterr/stdout.txt" || fail "--overwrite did not replace stdout.txt"
"$traindesk" job file download -e e2e -j smoke -p ../../etc --dest "$dest" 2>/dev/null && fail "a path out of stdouterr was taken"
# A link in an output directory is never followed: named alone it is refused, saying where it
# leads; in a folder it is skipped with a warning.
ln -s /etc "$jobdir/outputs/etc-link"
"$traindesk" job file download -e e2e -j smoke -d MODEL -p etc-link --dest "$dest" 2> "$TRAINDESK_HOME/link.err" && fail "a link was followed"
grep -qF "MODEL/etc-link of job 'smoke' leads out of the job directory (to /etc)" "$TRAINDESK_HOME/link.err" \
  || fail "link error: $(cat "$TRAINDESK_HOME/link.err")"
"$traindesk" job file download -e e2e -j smoke -d MODEL --dest "$dest" 2> "$TRAINDESK_HOME/link.err" >/dev/null || fail "MODEL with a link"
grep -qF "warning: skipped MODEL/etc-link" "$TRAINDESK_HOME/link.err" || fail "no warning for the link: $(cat "$TRAINDESK_HOME/link.err")"
[ ! -e "$dest/smoke/MODEL/etc-link" ] || fail "the link was downloaded"
rm "$jobdir/outputs/etc-link"
"$traindesk" job file download -e e2e -j smoke -p nope.txt --dest "$dest" 2> "$TRAINDESK_HOME/missing.err" && fail "a missing file was downloaded"
grep -q "job 'smoke' has no file or folder stdouterr/nope.txt" "$TRAINDESK_HOME/missing.err" || fail "a missing file is not named"
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
# --deterministic fixes the seed: with a clock seed the last window's loss ranged 0.96-1.99 over runs.
assert last < 0.8 * first, f"loss did not fall: {first} -> {last}"
print(f"metrics ok: {len(records)} records, loss {first:.4f} -> {last:.4f}")
PY
# Nobody ran `job wait` while it ran (only `job file stream`): the agent stored every record.
stored=$("$traindesk" job metrics -e e2e -j smoke -o json | python3 -c 'import json,sys; print(len(json.load(sys.stdin)))')
[ "$stored" = "$(wc -l < "$jobdir/stdouterr/metrics.jsonl")" ] || fail "stored $stored metric records, the file has $(wc -l < "$jobdir/stdouterr/metrics.jsonl")"
# The train/val series as CSV (rank records too, every digit) and as a table: one line per
# train, val and epoch record of the file.
"$traindesk" job metrics -e e2e -j smoke --csv > "$TRAINDESK_HOME/metrics.csv" || fail "job metrics --csv"
"$traindesk" job metrics -e e2e -j smoke > "$TRAINDESK_HOME/metrics.txt" || fail "job metrics"
# The job is the command's own object: -n names it as -j does (as in job show, job wait).
"$traindesk" job metrics -e e2e -n smoke | cmp -s - "$TRAINDESK_HOME/metrics.txt" || fail "job metrics -n differs from -j"
python3 - "$jobdir/stdouterr/metrics.jsonl" "$TRAINDESK_HOME/metrics.csv" "$TRAINDESK_HOME/metrics.txt" <<'PY' || fail "job metrics series"
import csv, json, sys
records = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
series = [r for r in records if r.get("kind") in ("train", "val", "epoch", "rank")]
rows = list(csv.DictReader(open(sys.argv[2])))
assert len(rows) == len(series) > 0, (len(rows), len(series))
for row, r in zip(rows, series):
    assert row["kind"] == r["kind"], (row, r)
    if "loss" in r:
        assert float(row["loss"]) == r["loss"], (row, r)
    if "val_acc" in r:
        assert float(row["val_acc"]) == r["val_acc"], (row, r)  # lossless (docs/METRICS.md, CSV)
table = open(sys.argv[3]).read().splitlines()
assert len(table) == len([r for r in series if r["kind"] != "rank"]) + 2, (len(table), len(series))
PY

# A job that fails reports its exit code through `job wait`.
sed 's/--epochs 3/--epochs banana/' "$TRAINDESK_HOME/job.json" > "$TRAINDESK_HOME/bad.json"
"$traindesk" job create -e e2e -n bad -c local -f "$TRAINDESK_HOME/bad.json" >/dev/null
set +e
"$traindesk" job wait -e e2e -n bad > "$TRAINDESK_HOME/bad-wait.txt"
rc=$?
set -e
[ "$rc" -ne 0 ] || fail "failing job waited with exit 0"
[ "$("$traindesk" job show -e e2e -n bad --query executionState)" = failed ] || fail "bad job state"
# The table says why, not only -o json: the error's code, message and details.
"$traindesk" job show -e e2e -n bad > "$TRAINDESK_HOME/bad-show.txt"
code=$("$traindesk" job show -e e2e -n bad --query 'executionInfo.errors[0].code')
message=$("$traindesk" job show -e e2e -n bad --query 'executionInfo.errors[0].message')
detail=$("$traindesk" job show -e e2e -n bad --query 'executionInfo.errors[0].details[0].value')
[ -n "$code" ] && [ -n "$detail" ] || fail "the failed job has no error with details"
grep -qxF "Errors:" "$TRAINDESK_HOME/bad-show.txt" || fail "job show has no errors: $(cat "$TRAINDESK_HOME/bad-show.txt")"
grep -qxF "  $code: $message" "$TRAINDESK_HOME/bad-show.txt" || fail "job show lacks '$code: $message'"
grep -qxF "    $detail" "$TRAINDESK_HOME/bad-show.txt" || fail "job show lacks the detail '$detail'"
"$traindesk" job file stream -e e2e -j bad -f stderr.txt | grep -- '--epochs' >/dev/null || fail "stderr does not name the flag"
echo "e2e ok"
