#!/usr/bin/env bash
# The Batch AI tutorial's job.json on two SSH nodes (network namespaces with their own sshd
# and hostname, no docker daemon, apptainer or `python`), with only nodeCount changed and a
# small Horovod-style script (Debian's mpi4py, Keras-style progress) in place of the
# tutorial's:
# - submit refuses its containerSettings, saying how to run without the container;
# - `job create --no-container` runs one rank on each node, python3 standing in for python
#   (said once in the execution log); the progress becomes metrics (job metrics, --csv);
# - every node has its execution-<node>.log (preparation, launch, exit) and `job node list`
#   says each node finished;
# - a second job does not upload the trainer again;
# - a node where a library of the trainer is broken fails the probe's trainer check, which
#   names the library and its Debian package; `cluster setup --install-missing` says the
#   user has no passwordless sudo and what to run.
set -u
traindesk=$1
data=$2
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/td-tutorial.XXXXXX")
chmod 755 "$work"
. "$here/netns_nodes.sh"
cleanup() { "$traindesk" agent stop >/dev/null 2>&1; netns_down; rm -rf "$work"; }
trap cleanup EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
td() { "$traindesk" "$@"; }
[ "$(id -u)" = 0 ] || { echo "SKIP: network namespaces need root"; exit 77; }
/usr/bin/python3 -c 'import mpi4py' 2>/dev/null || { echo "SKIP: python3-mpi4py is not installed"; exit 77; }
netns_up "$work" 2 || fail "the test nodes do not start"
export TRAINDESK_HOME=$work/data TRAINDESK_TRAINER_DIR=$(dirname "$traindesk") TRAINDESK_SSH_PASSWORD=$NETNS_PASSWORD
td cluster create -n net --nodes "node1=$NETNS_USER@${NETNS_ADDR[1]},node2=$NETNS_USER@${NETNS_ADDR[2]}" --generate-ssh-keys \
  --accept-new-host-keys >/dev/null 2>"$work/create.err" || fail "cluster create: $(cat "$work/create.err")"
# The tutorial's next step: every check, which also records what each node can run.
# The workspace's `local` share is a folder of this machine, which no job on these nodes can
# use: the probe names it, and passes (issue #39: it failed every new SSH cluster).
td cluster probe -n net > "$work/probe0.txt" 2>"$work/probe0.err" || fail "the probe fails: $(cat "$work/probe0.txt" "$work/probe0.err")"
grep -q "PASS node2  Trainer: traindesk-trainer" "$work/probe0.txt" || fail "the trainer check: $(cat "$work/probe0.txt")"
grep -q "PASS node1  Shares mounted: none of the workspace's shares is for this cluster (local: " "$work/probe0.txt" \
  && grep -q "warning: shares not checked, as no job on cluster 'net' can use them .*: local" "$work/probe0.err" \
  || fail "the local share: $(cat "$work/probe0.txt" "$work/probe0.err")"
td experiment create -n cifar >/dev/null
# The tutorial's share: a folder both nodes see (their home is shared too), with the script.
mkdir -p "$work/myshare" && chown "$NETNS_USER" "$work/myshare"
td share create -n myshare --kind cluster --path "$work/myshare" -c net >/dev/null || fail "share create"
td share directory create --share myshare -n cifar >/dev/null || fail "share directory create"
td share file upload --share myshare --path cifar --source "$data/tutorial/cifar_cnn_distributed.py" >/dev/null 2>&1 \
  || fail "share file upload"
python3 - "$data/tutorial-job.json" "$work/job.json" <<'PY'
import json, sys
job = json.load(open(sys.argv[1]))
job["properties"]["nodeCount"] = 2
json.dump(job, open(sys.argv[2], "w"), indent=2)
PY

echo "== the image cannot run on these nodes: refused at submit, saying how to run without it"
td job create -e cifar -n run0 -c net -f "$work/job.json" > /dev/null 2> "$work/refused.err" && fail "the container job was accepted"
grep -q "tensorflow/tensorflow:1.8.0-gpu" "$work/refused.err" && grep -q -- "--no-container" "$work/refused.err" \
  && grep -q "nodes node1, node2 have neither" "$work/refused.err" || fail "refusal: $(cat "$work/refused.err")"
[ "$(td job list -e cifar -o json | python3 -c 'import json, sys; print(len(json.load(sys.stdin)))')" = 0 ] \
  || fail "a refused job was stored"

echo "== --no-container: one rank per node, python3 for python, progress stored as metrics"
td job create -e cifar -n run1 -c net -f "$work/job.json" --no-container >/dev/null || fail "job create --no-container"
timeout 300 "$traindesk" job wait -e cifar -n run1 >/dev/null \
  || fail "run1: $(td job show -e cifar -n run1 -o json; td job file stream -e cifar -j run1 -f stderr.txt | tail -20)"
jobdir=$(td job show -e cifar -n run1 --query jobDirectory)
out=$jobdir/stdouterr
for n in 1 2; do
  grep -q "rank $(( n - 1 )) of 2 on node$n args --dir=" "$out/stdout.txt" || fail "no rank on node$n: $(cat "$out/stdout.txt")"
done
td job show -e cifar -n run1 -o json | python3 -c '
import json, sys
ranks = json.load(sys.stdin)["rankNodes"]
assert len(ranks) == 2 and ranks[0] != ranks[1], ranks' || fail "rank map: $(td job show -e cifar -n run1 -o json)"
[ "$(grep -c "no 'python' on this node: the job's Python script runs with python3" "$out"/execution-*.log | awk -F: '{s+=$2} END {print s}')" = 1 ] \
  || fail "the python3 fallback is not said once: $(cat "$out"/execution-*.log)"
td job metrics -e cifar -j run1 --csv > "$work/metrics.csv" || fail "job metrics --csv"
python3 - "$work/metrics.csv" <<'PY' || fail "metrics: $(cat "$work/metrics.csv")"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
train = [r for r in rows if r["kind"] == "train"]
val = [r for r in rows if r["kind"] in ("val", "epoch") and r["val_loss"]]
assert len(train) >= 2 and {r["epoch"] for r in train} == {"1", "2"}, rows
assert float(train[-1]["loss"]) < float(train[0]["loss"]), rows
assert len(val) >= 2, rows
PY

echo "== every node's story: its own execution log and its state in the job"
for n in 1 2; do
  log=$out/execution-node$n.log
  [ -f "$log" ] || fail "no execution-node$n.log: $(ls "$out")"
  grep -q "job started: rank $(( n - 1 )) of 2 on this node" "$log" || fail "node$n's log has no launch: $(cat "$log")"
  grep -q "finished with exit code 0" "$log" || fail "node$n's log has no exit: $(cat "$log")"
done
grep -q "node setup succeeded" "$out/execution-node2.log" || fail "node2's log has no setup: $(cat "$out/execution-node2.log")"
td job node list -e cifar -j run1 -o json | python3 -c '
import json, sys
nodes = json.load(sys.stdin)
assert [n["stateInJob"] for n in nodes] == ["finished", "finished"], nodes
assert [n["ranks"] for n in nodes] == [[0], [1]], nodes' || fail "job node list: $(td job node list -e cifar -j run1 -o json)"

echo "== a second job does not upload the trainer again"
trainer=$(ls "$work"/home/traindesk/mounts/default/net/.traindesk-trainer/*/traindesk-trainer) || fail "no trainer copied"
before=$(stat -c '%i %Y' "$trainer")
sleep 1
td job create -e cifar -n run2 -c net -f "$work/job.json" --no-container >/dev/null || fail "job create run2"
timeout 300 "$traindesk" job wait -e cifar -n run2 >/dev/null || fail "run2 failed"
[ "$(stat -c '%i %Y' "$trainer")" = "$before" ] || fail "the trainer was written again"
[ "$(ls -d "$work"/home/traindesk/mounts/default/net/.traindesk-trainer/* | wc -l)" = 1 ] || fail "a second trainer folder"

echo "== a node with a broken library: the probe names it and its package"
lib=$(ldd "$(dirname "$traindesk")/traindesk-trainer" | awk '$1 == "libdnnl.so.2" {print $3}')
[ -n "$lib" ] || fail "the trainer does not use libdnnl.so.2: nothing to break"
real=$(readlink -f "$lib")
: > "$work/empty.so"
netns_exec 2 mount --bind "$work/empty.so" "$real" || fail "cannot hide $real on node2"
# The deployed portable trainer carries its own copy: broken on node2 too, or the probe
# rightly finds the trainer whole (it once failed here for the shares instead).
bundled=$(find "$work"/home/traindesk/mounts/default/net/.traindesk-trainer -name 'libdnnl.so.2*' -type f | head -1)
[ -z "$bundled" ] || netns_exec 2 mount --bind "$work/empty.so" "$bundled" || fail "cannot hide $bundled on node2"
td cluster probe -n net > "$work/probe.txt" 2>&1 && fail "the probe passed with a broken library: $(cat "$work/probe.txt")"
grep -q "FAIL node2  Trainer: .*libdnnl.so.2 (package libdnnl2)" "$work/probe.txt" || fail "probe: $(cat "$work/probe.txt")"
grep -q "apt-get install libdnnl2" "$work/probe.txt" || fail "probe hint: $(cat "$work/probe.txt")"
grep -q "PASS node1  Trainer" "$work/probe.txt" || fail "node1's trainer: $(cat "$work/probe.txt")"
td cluster setup -n net --install-missing > /dev/null 2> "$work/install.err" && fail "installed without sudo"
grep -q "node2: the user may not use sudo without a password.*apt-get install -y libdnnl2" "$work/install.err" \
  || fail "install: $(cat "$work/install.err")"
netns_exec 2 umount "$real"
[ -z "$bundled" ] || netns_exec 2 umount "$bundled"
td cluster probe -n net > "$work/probe2.txt" 2>&1
grep -q "PASS node2  Trainer" "$work/probe2.txt" || fail "node2's trainer after the fix: $(cat "$work/probe2.txt")"
echo "tutorial on two nodes ok"
