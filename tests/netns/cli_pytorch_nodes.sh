#!/usr/bin/env bash
# A user's own PyTorch DDP script (gloo on CPU, Debian's python3-torch) through
# pyTorchSettings, processCount 2 on 2 SSH nodes (network namespaces) whose host names do not
# resolve, with no interface variable in the job.json:
# - it trains: gloo is told the nodes' shared interface, recorded by `cluster create` (no
#   `cluster probe` first: said in the execution log); the ranks' weights agree at the end;
# - each rank's stdout-<i>.txt holds its own lines (and job file list/stream show them);
# - its pytorch/examples lines and the TensorBoard file it writes become named series with
#   the points the script wrote (job metrics --scalars, --series);
# - a user's own GLOO_SOCKET_IFNAME in environmentVariables wins (lo, which is what gloo
#   falls back to when the host name does not resolve: the job fails, connecting to 127.0.0.1).
set -u
traindesk=$1
data=$2
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/td-pytorch.XXXXXX")
chmod 755 "$work"
. "$here/netns_nodes.sh"
cleanup() { "$traindesk" agent stop >/dev/null 2>&1; netns_down; rm -rf "$work"; }
trap cleanup EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
td() { "$traindesk" "$@"; }
[ "$(id -u)" = 0 ] || { echo "SKIP: network namespaces need root"; exit 77; }
/usr/bin/python3 -c 'import torch.distributed' 2>/dev/null || { echo "SKIP: python3-torch is not installed"; exit 77; }
netns_up "$work" 2 || fail "the test nodes do not start"
getent hosts node1 >/dev/null && fail "node1 resolves here: the test needs names that do not"
export TRAINDESK_HOME=$work/data TRAINDESK_TRAINER_DIR=$(dirname "$traindesk") TRAINDESK_SSH_PASSWORD=$NETNS_PASSWORD
td cluster create -n net --nodes "node1=$NETNS_USER@${NETNS_ADDR[1]},node2=$NETNS_USER@${NETNS_ADDR[2]}" --generate-ssh-keys \
  --accept-new-host-keys >"$work/create.out" 2>"$work/create.err" || fail "cluster create: $(cat "$work/create.err")"
# `cluster create` records each node's interfaces (eth0 on the nodes' bridge network): the
# job below runs without a `cluster probe` first, as the README's order has it (issue #39).
grep -q "node node2: interfaces .*eth0 ${NETNS_ADDR[2]}/24" "$work/create.err" "$work/create.out" 2>/dev/null \
  || fail "cluster create does not record the interfaces: $(cat "$work/create.out" "$work/create.err")"
td experiment create -n ddp >/dev/null
mkdir -p "$work/out" "$work/scripts" && cp "$data/pytorch/ddp_tensorboard.py" "$work/scripts/" \
  && chown -R "$NETNS_USER" "$work/out" "$work/scripts"
cat > "$work/job.json" <<JSON
{ "properties": { "nodeCount": 2, "stdOutErrPathPrefix": "$work/out",
  "outputDirectories": [ { "id": "TB", "pathPrefix": "$work/out", "pathSuffix": "tensorboard" } ],
  "pyTorchSettings": { "pythonScriptFilePath": "$work/scripts/ddp_tensorboard.py", "commandLineArgs": "--epochs 2 --batches 5",
                       "processCount": 2, "communicationBackend": "gloo" } } }
JSON
grep -q IFNAME "$work/job.json" && fail "the job.json names an interface"

echo "== gloo across the nodes with no interface variable in the job.json"
td job create -e ddp -n run1 -c net -f "$work/job.json" >/dev/null || fail "job create"
timeout 400 "$traindesk" job wait -e ddp -n run1 >/dev/null \
  || fail "run1: $(td job show -e ddp -n run1 -o json; cat "$work"/out/*/*/*/*/*/*/*/stdouterr/*.txt "$work"/out/*/*/*/*/*/*/stdouterr/*.txt 2>/dev/null | tail -40)"
jobdir=$(td job show -e ddp -n run1 --query jobDirectory)
out=$jobdir/stdouterr
log=$out/execution-node1.log
grep -q "network ${NETNS_ADDR[1]%.*}.0/24 (eth0 on node1, eth0 on node2), from the nodes' recorded interfaces: .*GLOO_SOCKET_IFNAME=eth0" "$log" \
  || fail "the execution log does not say the interface: $(cat "$log")"
grep -q "NCCL_SOCKET_IFNAME=eth0" "$log" && grep -q "OMPI_MCA_btl_tcp_if_include=${NETNS_ADDR[1]%.*}.0/24" "$log" \
  || fail "NCCL and Open MPI: $(cat "$log")"
grep -q "Python interpreter: python3 (/usr/bin/python3, Python 3" "$log" || fail "the interpreter is not named: $(cat "$log")"

echo "== each rank's stdout-<i>.txt holds its own lines"
for r in 0 1; do
  f=$out/stdout-$r.txt
  [ -f "$f" ] || fail "no stdout-$r.txt: $(ls "$out")"
  other=$(( 1 - r ))
  grep -q "^rank $r of 2 on node$(( r + 1 ))$" "$f" || fail "stdout-$r.txt: $(cat "$f")"
  grep -q "^rank $r done: weights" "$f" || fail "stdout-$r.txt has no end: $(cat "$f")"
  grep -q "rank $other" "$f" && fail "stdout-$r.txt has rank $other's lines: $(cat "$f")"
  [ "$(grep -c '^Epoch: \[' "$f")" = 10 ] || fail "stdout-$r.txt: $(cat "$f")"
  grep -q '^\[' "$f" && fail "stdout-$r.txt keeps mpirun's tags: $(head -3 "$f")"
done
grep -q "^\[1,1\]<stdout>:rank 1 of 2" "$out/stdout.txt" || fail "the combined stdout.txt: $(head -5 "$out/stdout.txt")"
td job file list -e ddp -j run1 -o json | python3 -c '
import json, sys
names = {f["name"] for f in json.load(sys.stdin)}
assert {"stdout.txt", "stdout-0.txt", "stdout-1.txt"} <= names, names' || fail "job file list: $(td job file list -e ddp -j run1)"
td job file stream -e ddp -j run1 -f stdout-1.txt > "$work/stream1.txt" || fail "job file stream -f stdout-1.txt"
cmp -s "$work/stream1.txt" "$out/stdout-1.txt" || fail "stream: $(diff "$work/stream1.txt" "$out/stdout-1.txt")"

echo "== its pytorch/examples lines and its TensorBoard file become series"
for _ in $(seq 1 40); do
  td job metrics -e ddp -j run1 --scalars -o json > "$work/scalars.json" 2>"$work/scalars.err"
  python3 -c 'import json,sys; s=json.load(open(sys.argv[1])); sys.exit(0 if sum(x["points"] for x in s) >= 40 else 1)' "$work/scalars.json" && break
  sleep 0.5
done
td job metrics -e ddp -j run1 --series Loss --csv > "$work/loss.csv" || fail "job metrics --series Loss"
td job metrics -e ddp -j run1 --series train/loss -o json > "$work/tbloss.json" || fail "job metrics --series train/loss"
# The table's times read as `job metrics` prints them: local date and time, not Unix seconds.
td job metrics -e ddp -j run1 --series Loss | awk 'NR == 3' | grep -qE ' [0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{3} ' \
  || fail "job metrics --series prints no readable time: $(td job metrics -e ddp -j run1 --series Loss | head -3)"
td job metrics -e ddp -j run1 --series lr -o json > "$work/lr.json" || fail "job metrics --series lr"
python3 - "$work" "$jobdir" "$work/out" <<'PY' || fail "series: $(cat "$work/scalars.json" "$work/scalars.err")"
import csv, glob, json, math, sys
work, jobdir, outroot = sys.argv[1:4]
series = json.load(open(work + "/scalars.json"))
by = {(s["name"], s.get("rank", -1)): s for s in series}
assert by[("Loss", 0)]["file"] == "stdouterr/stdout-0.txt" and by[("Loss", 1)]["file"] == "stdouterr/stdout-1.txt", series
assert by[("Loss", 0)]["source"] == "pytorch-examples" and by[("train/loss", -1)]["source"] == "tensorboard", series
# The output directory is under the job directory here: named relative to it.
assert by[("train/loss", -1)]["file"].startswith("outputs/tensorboard/events.out.tfevents."), series
expected = {r: json.load(open(glob.glob(outroot + "/*/*/*/*/*/*/*/outputs/tensorboard/expected-%d.json" % r)[0])) for r in (0, 1)}
rows = list(csv.DictReader(open(work + "/loss.csv")))
for r in (0, 1):
    got = [(int(row["step"]), float(row["value"])) for row in rows if row["rank"] == str(r)]
    want = [(s, v) for s, v in expected[r]["Loss"]]
    assert len(got) == 10 and [s for s, _ in got] == [s for s, _ in want], (r, got, want)
    assert all(math.isclose(g, w, rel_tol=1e-5) for (_, g), (_, w) in zip(got, want)), (r, got, want)
for name, file in (("train/loss", "tbloss.json"), ("lr", "lr.json")):
    got = [(p["step"], p["value"]) for p in json.load(open(work + "/" + file))]
    want = [(s, v) for s, v in expected[0][name]]
    assert len(got) == 10 and [s for s, _ in got] == [s for s, _ in want], (name, got, want)
    assert all(math.isclose(g, w, rel_tol=1e-6) for (_, g), (_, w) in zip(got, want)), (name, got, want)
PY
td job metrics -e ddp -j run1 --series nothing-like-it > /dev/null 2> "$work/none.err" && fail "an unknown series printed"
grep -q "has no series named 'nothing-like-it' (it has: .*Loss" "$work/none.err" || fail "unknown series: $(cat "$work/none.err")"

echo "== the user's own GLOO_SOCKET_IFNAME wins: lo, as an unresolved host name gives gloo, fails across nodes"
python3 - "$work/job.json" "$work/job2.json" <<'PY'
import json, sys
job = json.load(open(sys.argv[1]))
job["properties"]["environmentVariables"] = [{"name": "GLOO_SOCKET_IFNAME", "value": "lo"}]
job["properties"]["pyTorchSettings"]["commandLineArgs"] = "--epochs 1 --batches 1"
json.dump(job, open(sys.argv[2], "w"))
PY
td job create -e ddp -n run2 -c net -f "$work/job2.json" >/dev/null || fail "job create run2"
# job wait again if the agent it asked was on its way out (idle since run1): the next one starts.
for _ in 1 2 3; do
  timeout 300 "$traindesk" job wait -e ddp -n run2 >/dev/null 2>&1
  case "$(td job show -e ddp -n run2 --query executionState)" in succeeded|failed) break ;; esac
done
[ "$(td job show -e ddp -n run2 --query executionState)" = failed ] || fail "run2 did not fail over lo: $(td job show -e ddp -n run2 -o json)"
out2=$(td job show -e ddp -n run2 --query jobDirectory)/stdouterr
grep -q "the job's own GLOO_SOCKET_IFNAME kept (environmentVariables win)" "$out2/execution-node1.log" \
  || fail "run2's log: $(cat "$out2/execution-node1.log")"
grep -q "recorded interfaces: .*GLOO_SOCKET_IFNAME" "$out2/execution-node1.log" \
  && fail "GLOO_SOCKET_IFNAME set over the user's: $(cat "$out2/execution-node1.log")"
grep -q "127.0.0.1" "$out2"/stderr-*.txt || fail "run2 failed otherwise: $(tail -5 "$out2"/stderr*.txt)"
echo "pytorch on two nodes ok"
