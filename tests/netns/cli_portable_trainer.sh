#!/usr/bin/env bash
# The portable trainer on nodes without its libraries: two SSH nodes (network namespaces,
# each with its own mount namespace) on which the system's oneDNN, HDF5 and Open MPI (its
# libraries, mpirun and orted) are hidden, so the plain trainer cannot start there. TrainDesk
# copies its portable trainer folder (checksummed, once per node); the cluster probe's trainer
# check runs it there; a job of 2 nodes x 2 ranks runs under the folder's own mpirun, which
# starts the remote ranks from the same folder.
#
# cli_portable_trainer.sh TRAINDESK PORTABLE_ARCHIVE
set -u
traindesk=$1 archive=$2
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/td-portable-nodes.XXXXXX")
chmod 755 "$work"
. "$here/netns_nodes.sh"
cleanup() { "$traindesk" agent stop >/dev/null 2>&1; netns_down; rm -rf "$work"; }
trap cleanup EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
td() { "$traindesk" "$@"; }
[ "$(id -u)" = 0 ] || { echo "SKIP: network namespaces need root"; exit 77; }
[ -s "$archive" ] || fail "no portable trainer at $archive (build the target trainer-portable)"

# What a node without the packages lacks: every file of them that the loader or PATH finds.
mask=()
for lib in libdnnl.so.2 libhdf5_serial.so.103 libmpi.so.40 libopen-rte.so.40 libopen-pal.so.40; do
  path=$(ldconfig -p | awk -v l="$lib" '$1 == l && /x86-64/ {print $NF; exit}')
  [ -n "$path" ] && mask+=("$(readlink -f "$path")")
done
for prog in orterun orted; do mask+=("$(readlink -f "$(command -v $prog)")"); done
[ ${#mask[@]} -ge 7 ] || fail "could not find the system libraries to hide: ${mask[*]}"
export NETNS_MASK="${mask[*]}"
trainer_dir=$work/trainer
mkdir -p "$trainer_dir"
cp "$archive" "$trainer_dir/"
netns_up "$work" 2 || fail "the test nodes do not start"
echo "hidden on the nodes: $NETNS_MASK"
# The mask holds: the system's trainer build cannot start on a node.
out=$(netns_exec 1 sh -c 'ldd /proc/1/exe >/dev/null; [ -x /usr/bin/mpirun ] && echo mpirun-present; cat /usr/lib/x86_64-linux-gnu/libdnnl.so.2 | wc -c')
[ "$(echo "$out" | tail -1)" = 0 ] && ! echo "$out" | grep -q mpirun-present || fail "the libraries are not hidden on node1: $out"

export TRAINDESK_HOME=$work/data TRAINDESK_TRAINER_DIR=$trainer_dir TRAINDESK_SSH_PASSWORD=$NETNS_PASSWORD
td cluster create -n net --nodes "$NETNS_USER@${NETNS_ADDR[1]},$NETNS_USER@${NETNS_ADDR[2]}" --generate-ssh-keys \
  --accept-new-host-keys >"$work/create.out" 2>&1 || fail "cluster create: $(cat "$work/create.out")"
echo "== the probe's trainer check runs the copied folder on each node"
td cluster probe -n net >"$work/probe.out" 2>&1
cat "$work/probe.out"
for i in 1 2; do
  grep -E "PASS +node$i +Trainer: traindesk-trainer .*\.traindesk-trainer/[0-9a-f]{16}/traindesk-trainer" "$work/probe.out" >/dev/null \
    || grep -E "PASS +${NETNS_ADDR[$i]} +Trainer: traindesk-trainer .*\.traindesk-trainer/[0-9a-f]{16}/traindesk-trainer" "$work/probe.out" >/dev/null \
    || fail "no passing trainer check of the copied folder on node$i"
done
copies=("$work"/home/traindesk/mounts/default/net/.traindesk-trainer/*/)
[ ${#copies[@]} = 1 ] && [ -x "${copies[0]}mpi/bin/orted.bin" ] && [ -f "${copies[0]}lib/libdnnl.so.2" ] \
  || fail "the node's copy is not the portable folder: $(ls -la "$work"/home/traindesk/mounts/default/net/.traindesk-trainer/*)"
ls -d "$work"/home/traindesk/mounts/default/net/.traindesk-trainer/*.part-* 2>/dev/null && fail "a temporary folder was left behind"

echo "== a job of 2 nodes x 2 ranks with the portable trainer"
td experiment create -n portable >/dev/null
mkdir -p "$work/out" && chown "$NETNS_USER" "$work/out"
cat > "$work/trainer.json" <<JSON
{ "properties": { "nodeCount": 2, "stdOutErrPathPrefix": "$work/out",
  "customMpiSettings": { "processCount": 4, "commandLine": "traindesk-trainer --format synthetic --synthetic-train 512 --synthetic-test 128 --synthetic-shape 16x16x1 --epochs 1 --log-every 4 --no-save" } } }
JSON
td job create -e portable -n trainer -c net -f "$work/trainer.json" >/dev/null || fail "job create trainer"
timeout 300 "$traindesk" job wait -e portable -n trainer >/dev/null \
  || fail "trainer job: $(td job show -e portable -n trainer -o json; td job file stream -e portable -j trainer -f stderr.txt | tail -20)"
jobdir=$(td job show -e portable -n trainer --query jobDirectory)
td job show -e portable -n trainer -o json | python3 -c '
import json, sys
ranks = json.load(sys.stdin)["rankNodes"]
assert len(ranks) == 4 and ranks[0] == ranks[1] and ranks[2] == ranks[3] and ranks[0] != ranks[2], ranks' \
  || fail "ranks: $(td job show -e portable -n trainer -o json)"
grep -q '"workers": 4' "$jobdir/stdouterr/metrics.jsonl" || fail "the trainer did not run with 4 workers"
grep -q '"kind": "done"' "$jobdir/stdouterr/metrics.jsonl" || fail "the trainer did not finish: $(tail -3 "$jobdir/stdouterr/metrics.jsonl")"
echo "ok"
