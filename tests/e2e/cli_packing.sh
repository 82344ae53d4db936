#!/usr/bin/env bash
# Jobs share the local node by its GPUs and cores (issue #40). No GPU needed: a fake
# nvidia-smi first on PATH lists 4 GPUs to the probe, and a fake nproc says 8 cores while
# $work/ncores holds a number. Every job blocks on a file of its own, so "at once" is seen
# from the jobs' own markers, never from timing.
set -u
traindesk=$1
work=$(mktemp -d "${TMPDIR:-/tmp}/td-packing.XXXXXX")
export TRAINDESK_HOME=$work/home
cleanup() { touch "$work"/go-{1,2,3,4,5,6,7} "$work/go"; "$traindesk" agent stop >/dev/null 2>&1; rm -rf "$work"; }
trap cleanup EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
td() { "$traindesk" "$@"; }
until_true() {  # seconds command... -> waits for the command to succeed
  local n=$(( $1 * 10 )); shift
  for _ in $(seq 1 "$n"); do "$@" && return 0; sleep 0.1; done
  return 1
}

mkdir -p "$work/bin" "$work/out"
cat > "$work/bin/nvidia-smi" <<'SMI'
#!/bin/sh
[ "$*" = "--query-gpu=name,memory.total --format=csv,noheader" ] || { echo "unknown query" >&2; exit 2; }
for i in 0 1 2 3; do echo "NVIDIA Fake GPU, 81559 MiB"; done
SMI
cat > "$work/bin/nproc" <<NPROC
#!/bin/sh
cat "$work/ncores" 2>/dev/null || exec /usr/bin/nproc "\$@"
NPROC
chmod +x "$work/bin/nvidia-smi" "$work/bin/nproc"
export PATH=$work/bin:$PATH
echo 8 > "$work/ncores"

job_json() {  # name gpusPerProcess -> a job that records what it sees, then waits for go-<name>
  cat > "$work/$1.json" <<JSON
{ "properties": { "nodeCount": 1, "stdOutErrPathPrefix": "$work/jobs", "gpusPerProcess": $2,
  "customToolkitSettings": { "commandLine": "sh -c 'echo \"\$CUDA_VISIBLE_DEVICES \$AZ_BATCHAI_NUM_GPUS \$(grep Cpus_allowed_list /proc/self/status | cut -f2)\" > $work/out/$1.tmp && mv $work/out/$1.tmp $work/out/$1; while [ ! -e $work/go-$1 ]; do sleep 0.1; done'" } } }
JSON
  echo "$work/$1.json"
}
state() { td job show -e pack -n "$1" --query executionState; }
ended() { s=$(state "$1"); [ "$s" = succeeded ] || [ "$s" = failed ]; }

td experiment create -n pack >/dev/null || fail "experiment create"
td cluster probe -n local > "$work/probe.txt" 2>&1
grep -q "GPUs.*4: NVIDIA Fake GPU" "$work/probe.txt" || fail "the probe did not count 4 GPUs: $(cat "$work/probe.txt")"

echo "== bad GPU counts refused at submit, the field named"
td job create -e pack -n big -c local -f "$(job_json big 5)" > "$work/err.txt" 2>&1 && fail "5 GPUs accepted"
grep -q "properties.gpusPerProcess: the job needs 5 GPUs on a node" "$work/err.txt" || fail "big: $(cat "$work/err.txt")"
td job create -e pack -n half -c local -f "$(job_json half 0.5)" > "$work/err.txt" 2>&1 && fail "0.5 GPU accepted"
grep -q "properties.gpusPerProcess.*expected an integer, found 0.5" "$work/err.txt" || fail "half: $(cat "$work/err.txt")"
td job create -e pack -n half -c local -f "$(job_json half 1)" --gpus-per-process 0.5 > "$work/err.txt" 2>&1 && fail "--gpus-per-process 0.5 accepted"
grep -q -- "--gpus-per-process: expected a whole number" "$work/err.txt" || fail "option: $(cat "$work/err.txt")"

echo "== 4 one-GPU jobs on the 4-GPU node run at once, each with its own GPU"
for i in 1 2 3 4; do td job create -e pack -n $i -c local -f "$(job_json $i 0)" --gpus-per-process 1 >/dev/null || fail "create $i"; done
until_true 120 test -e "$work/out/1" -a -e "$work/out/2" -a -e "$work/out/3" -a -e "$work/out/4" \
  || fail "not all 4 ran at once: $(ls "$work/out"); $(td job list -e pack)"
seen=$(cat "$work"/out/{1,2,3,4} | cut -d' ' -f1 | sort | tr '\n' ' ')
[ "$seen" = "0 1 2 3 " ] || fail "CUDA_VISIBLE_DEVICES of the 4 jobs: $seen"
[ "$(cut -d' ' -f2 "$work/out/1")" = 1 ] || fail "AZ_BATCHAI_NUM_GPUS: $(cat "$work/out/1")"
td job show -e pack -n 1 | grep -q "Holds: node localhost, cores [0-9], GPUs [0-3]" || fail "show: $(td job show -e pack -n 1)"

echo "== a 2-GPU job waits for two free GPUs"
td job create -e pack -n two -c local -f "$(job_json two 2)" >/dev/null || fail "create two"
until_true 60 sh -c "\"$traindesk\" job show -e pack -n two | grep -q 'Waiting: needs 2 GPUs and 1 core, node localhost has 0 GPUs free'" \
  || fail "two: $(td job show -e pack -n two)"
touch "$work/go-1"
until_true 60 sh -c "\"$traindesk\" job show -e pack -n two | grep -q 'node localhost has 1 GPU free'" \
  || fail "two after 1 ended: $(td job show -e pack -n two)"
[ "$(state two)" = queued ] || fail "two runs on one free GPU"
td job show -e pack -n two -o json | grep -q '"waitingFor": "needs 2 GPUs' || fail "json: $(td job show -e pack -n two -o json)"
touch "$work/go-2"
until_true 60 test -e "$work/out/two" || fail "two never ran: $(td job show -e pack -n two)"
freed=$(cat "$work"/out/{1,2} | cut -d' ' -f1 | sort -n | tr '\n' ',' | sed 's/,$//')
[ "$(cut -d' ' -f1 "$work/out/two")" = "$freed" ] || fail "two got $(cat "$work/out/two"), the freed GPUs were $freed"
touch "$work"/go-{3,4,two}
for j in 1 2 3 4 two; do until_true 60 ended $j || fail "$j did not end"; [ "$(state $j)" = succeeded ] || fail "$j: $(state $j)"; done

echo "== cores never shared: two 1-rank jobs on 2 cores each get one of their own"
echo 2 > "$work/ncores"
td cluster probe -n local > "$work/probe.txt" 2>&1
for i in 5 6; do td job create -e pack -n $i -c local -f "$(job_json $i 0)" >/dev/null || fail "create $i"; done
until_true 120 test -e "$work/out/5" -a -e "$work/out/6" || fail "5 and 6 not at once: $(td job list -e pack)"
a=$(cut -d' ' -f3 "$work/out/5"); b=$(cut -d' ' -f3 "$work/out/6")
[ -n "$a" ] && [ -n "$b" ] && [ "$a" != "$b" ] || fail "CPUs of 5: '$a', of 6: '$b'"
case ",$a," in *",$b,"*) fail "5 and 6 share CPU $b" ;; esac
[ "$(cut -d' ' -f1 "$work/out/5")" = "" ] || fail "gpusPerProcess 0 sees GPUs: $(cat "$work/out/5")"
touch "$work/go-5" "$work/go-6"
for j in 5 6; do until_true 60 ended $j || fail "$j did not end"; done

echo "== a 4-trial sweep with --max-concurrent 2 on local (2 cores, 1-rank trials) runs 2 trials at once"
cat > "$work/trial.json" <<JSON
{ "properties": { "nodeCount": 1, "stdOutErrPathPrefix": "$work/jobs", "gpusPerProcess": 0,
  "customToolkitSettings": { "commandLine": "sh -c 'touch $work/out/trial-PARAM_I; while [ ! -e $work/go ]; do sleep 0.1; done'" } } }
JSON
td sweep create -e pack -n sw -c local -f "$work/trial.json" --param I=1,2,3,4 --max-concurrent 2 >/dev/null || fail "sweep create"
until_true 120 sh -c "[ \$(ls $work/out | grep -c '^trial-') -ge 2 ]" || fail "2 trials never ran at once: $(td sweep show -e pack -n sw)"
[ "$(ls "$work/out" | grep -c '^trial-')" = 2 ] || fail "more than 2 trials at once"
touch "$work/go"
until_true 120 sh -c "[ \"\$(\"$traindesk\" sweep show -e pack -n sw --query state)\" = completed ]" || fail "sweep: $(td sweep show -e pack -n sw)"
echo "PASS"
