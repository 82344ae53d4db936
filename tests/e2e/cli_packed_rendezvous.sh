#!/usr/bin/env bash
# Jobs packed side by side on one node each meet on a port of their own (LAUNCH_MATRIX's
# gap): two PyTorch jobs over gloo and two TensorFlow jobs (a parameter server and a worker
# each) run at once on the local cluster. Every rank binds and listens on its rendezvous
# address, as torch's TCPStore and a TensorFlow server do, then holds it until all six
# listen: with one fixed port (23456, 2222) the second job's rank cannot bind and its job
# fails. No framework needed (python3 sockets). A fake nproc says 8 cores, so the four jobs
# fit at once on any machine; everything waits on the ranks' own files, never on timing.
set -u
traindesk=$1
work=$(mktemp -d "${TMPDIR:-/tmp}/td-rendezvous.XXXXXX")
export TRAINDESK_HOME=$work/home
cleanup() { touch "$work/go"; "$traindesk" agent stop >/dev/null 2>&1; rm -rf "$work"; }
trap cleanup EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
td() { "$traindesk" "$@"; }
until_true() {  # seconds command... -> waits for the command to succeed
  local n=$(( $1 * 10 )); shift
  for _ in $(seq 1 "$n"); do "$@" && return 0; sleep 0.1; done
  return 1
}

mkdir -p "$work/bin" "$work/out"
cat > "$work/bin/nproc" <<'NPROC'
#!/bin/sh
echo 8
NPROC
chmod +x "$work/bin/nproc"
export PATH=$work/bin:$PATH

cat > "$work/rdv.py" <<'PY'
import json, os, socket, sys, time
job, out = sys.argv[1], sys.argv[2]
tf = os.environ.get("TF_CONFIG")
if tf:
    config = json.loads(tf)
    task = config["task"]
    address = config["cluster"][task["type"]][task["index"]]
    name = "%s-%s%d" % (job, task["type"], task["index"])
else:
    address = "%s:%s" % (os.environ["MASTER_ADDR"], os.environ["MASTER_PORT"])
    name = job + "-rank0"
host, port = address.rsplit(":", 1)
server = socket.socket()
try:
    server.bind((host, int(port)))
except OSError as e:
    print("%s cannot listen on %s: %s" % (name, address, e), file=sys.stderr)
    sys.exit(3)
server.listen(1)
with open(os.path.join(out, name + ".tmp"), "w") as f:
    f.write(port + "\n")
os.rename(os.path.join(out, name + ".tmp"), os.path.join(out, name))
while not os.path.exists(os.path.join(out, "..", "go")):
    time.sleep(0.1)
PY

pytorch_json() {  # name
  cat > "$work/$1.json" <<JSON
{ "properties": { "nodeCount": 1, "stdOutErrPathPrefix": "$work/jobs",
  "pyTorchSettings": { "pythonScriptFilePath": "$work/rdv.py", "pythonInterpreterPath": "python3",
                       "commandLineArgs": "$1 $work/out", "communicationBackend": "gloo" } } }
JSON
  echo "$work/$1.json"
}
tensorflow_json() {  # name
  cat > "$work/$1.json" <<JSON
{ "properties": { "nodeCount": 1, "stdOutErrPathPrefix": "$work/jobs",
  "tensorFlowSettings": { "pythonScriptFilePath": "$work/rdv.py", "pythonInterpreterPath": "python3",
                          "workerCount": 1, "parameterServerCount": 1,
                          "workerCommandLineArgs": "$1 $work/out", "parameterServerCommandLineArgs": "$1 $work/out" } } }
JSON
  echo "$work/$1.json"
}
state() { td job show -e rdv -n "$1" --query executionState; }
ended() { s=$(state "$1"); [ "$s" = succeeded ] || [ "$s" = failed ]; }
markers="pt1-rank0 pt2-rank0 tf1-ps0 tf1-worker0 tf2-ps0 tf2-worker0"
all_listen() { for m in $markers; do [ -e "$work/out/$m" ] || return 1; done; }
all_listen_or_one_ended() { all_listen && return 0; for j in pt1 pt2 tf1 tf2; do ended $j && return 0; done; return 1; }
logs() { cat "$work"/jobs/workspaces/*/experiments/rdv/jobs/*/*/stdouterr/{stderr.txt,execution-*.log} 2>/dev/null | tail -40; }

td experiment create -n rdv >/dev/null || fail "experiment create"
td cluster probe -n local > "$work/probe.txt" 2>&1

echo "== an MPI job with more ranks than the node's cores is accepted, and job create says so"
cat > "$work/over.json" <<JSON
{ "properties": { "nodeCount": 1, "stdOutErrPathPrefix": "$work/jobs",
  "customMpiSettings": { "commandLine": "true", "processCount": 12 } } }
JSON
td job create -e rdv -n over -c local -f "$work/over.json" --draft >/dev/null 2>"$work/over.err" || fail "over: $(cat "$work/over.err")"
grep -q "^warning: job 'over': ranks oversubscribed: properties.customMpiSettings.processCount 12 over nodeCount 1 with 8 slots (cores) puts localhost: 12 ranks on 8 cores" "$work/over.err" \
  || fail "job create does not say the ranks are oversubscribed: $(cat "$work/over.err")"

echo "== two PyTorch and two TensorFlow jobs packed on the local node at once"
for j in pt1 pt2; do td job create -e rdv -n $j -c local -f "$(pytorch_json $j)" >/dev/null || fail "create $j"; done
for j in tf1 tf2; do td job create -e rdv -n $j -c local -f "$(tensorflow_json $j)" >/dev/null || fail "create $j"; done
until_true 300 all_listen_or_one_ended || fail "the jobs never all started: $(ls "$work/out"); $(td job list -e rdv)"
all_listen || fail "a job ended before all six ranks listened: $(td job list -e rdv); $(logs)"
ports=$(cat "$work"/out/* | sort -n)
[ "$(echo "$ports" | uniq | wc -l)" = 6 ] || fail "the six ranks do not each have a port of their own: $ports"
for j in pt1 pt2 tf1 tf2; do [ "$(state $j)" = running ] || fail "$j is $(state $j)"; done
pt1dir=$(td job show -e rdv -n pt1 --query jobDirectory)
grep -q "rendezvous port $(cat "$work/out/pt1-rank0") on this node: free at start" "$pt1dir"/stdouterr/execution-*.log \
  || fail "pt1's log does not say its port: $(cat "$pt1dir"/stdouterr/execution-*.log)"
[ "$(cat "$work/out/tf1-worker0")" = $(( $(cat "$work/out/tf1-ps0") + 1 )) ] || fail "tf1's worker is not on the port after its ps"

touch "$work/go"
for j in pt1 pt2 tf1 tf2; do
  until_true 120 ended $j || fail "$j did not end"
  [ "$(state $j)" = succeeded ] || fail "$j: $(state $j); $(logs)"
done
echo "PASS"
