#!/usr/bin/env bash
# Hyperparameter sweeps end to end: the real CLI, the agent and the bundled trainer on this
# machine. A 2x2 grid with --max-concurrent 2 never has more than 2 trials running and ends
# with 4 trials, each trainer reporting its own values; random search is reproducible with
# a seed and inside its ranges; median stopping ends the trial whose learning rate cannot
# learn while its peers go on; `sweep stop` ends what runs and keeps it; the agent SIGKILLed
# mid-sweep and restarted submits no trial twice and loses none (a trial whose launch the
# kill cut short, its script never started, is submitted again under its own name).
#
# A local cluster is one node, so it runs one job at a time; to see the limit at work the
# test widens its own local cluster to 4 nodes (all this machine) in the store.
set -u
traindesk=$1
work=$(mktemp -d "${TMPDIR:-/tmp}/td-sweep.XXXXXX")
export TRAINDESK_HOME=$work/home TRAINDESK_TRAINER_DIR=$(dirname "$traindesk")
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
cleanup() { "$traindesk" agent stop >/dev/null 2>&1; rm -rf "$work"; }
trap cleanup EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
td() { "$traindesk" "$@"; }
py() { python3 -c "$@"; }

td experiment create -n sw >/dev/null || fail "experiment"
td cluster create -n wide --local >/dev/null || fail "cluster create"
python3 - "$TRAINDESK_HOME/traindesk.db" <<'PY' || fail "widening the cluster"
import getpass, sqlite3, sys
db = sqlite3.connect(sys.argv[1])
cid = db.execute("SELECT id FROM clusters WHERE name = 'wide'").fetchone()[0]
for i in range(1, 4):
    db.execute("INSERT INTO nodes(cluster_id, idx, name, host, port, user, slots, state) "
               "VALUES(?, ?, ?, 'localhost', 0, ?, 1, 'idle')", (cid, i, "localhost-%d" % i, getpass.getuser()))
db.execute("UPDATE clusters SET target_node_count = 4 WHERE id = ?", (cid,))
db.commit()
PY

wait_sweep() {  # name seconds -> waits until the sweep has ended
  for _ in $(seq 1 $(( $2 * 2 ))); do
    s=$(td sweep show -e sw -n "$1" --query state 2>/dev/null)
    [ "$s" = completed ] || [ "$s" = stopped ] || [ "$s" = failed ] && return 0
    sleep 0.5
  done
  fail "sweep $1 still $(td sweep show -e sw -n "$1" --query state) after $2 s: $(td sweep show -e sw -n "$1")"
}
max_running() {  # a log of +name / -name lines -> the most names between a + and its -
  py 'import sys
n = m = 0
for line in open(sys.argv[1]):
    n += 1 if line.startswith("+") else -1
    m = max(m, n)
print(m)' "$1"
}

# A trainer run with the trial's values on its command line, bracketed by +/- lines.
trainer_job() {  # file log extra-trainer-options
  cat > "$1" <<JSON
{ "properties": { "nodeCount": 1, "stdOutErrPathPrefix": "$work/jobs",
  "outputDirectories": [{"id": "MODEL", "pathPrefix": "$work/jobs"}],
  "customMpiSettings": { "processCount": 1,
    "commandLine": "sh -c 'echo +PARAM_LR-PARAM_BS >> $2; traindesk-trainer --format synthetic --synthetic-shape 12x12x1 --deterministic --lr PARAM_LR --batch-size PARAM_BS $3 --dir \$AZ_BATCHAI_OUTPUT_MODEL; rc=\$?; sleep 1; echo -PARAM_LR-PARAM_BS >> $2; exit \$rc'" } } }
JSON
}

echo "== a 2x2 grid, at most 2 at once: 4 trials, each trainer with its own values"
trainer_job "$work/grid.json" "$work/grid.log" "--synthetic-train 128 --synthetic-test 32 --log-every 2 --epochs 1"
td sweep create -e sw -n grid -c wide -f "$work/grid.json" --param LR=0.01,0.001 --param BS=16,32 \
   --max-concurrent 2 --metric acc > "$work/created.txt" 2>&1 || fail "sweep create: $(cat "$work/created.txt")"
grep -q "4 trials, at most 2 at once" "$work/created.txt" || fail "create says: $(cat "$work/created.txt")"
wait_sweep grid 300
[ "$(td sweep show -e sw -n grid --query state)" = completed ] || fail "grid not completed"
running=$(max_running "$work/grid.log")
[ "$running" = 2 ] || fail "at most $running trials ran at once, not 2: $(cat "$work/grid.log")"
[ "$(grep -c '^+' "$work/grid.log")" = 4 ] || fail "$(grep -c '^+' "$work/grid.log") launches, not 4"
td sweep show -e sw -n grid -o json > "$work/grid.json.out"
# `job show -o json` is the whole resource (#40): a trial's substituted command line reads back.
td job show -e sw -n grid-1 --query customMpiSettings.commandLine | grep -q -- "--lr 0.01 --batch-size 16" \
  || fail "grid-1's command line as shown: $(td job show -e sw -n grid-1 -o json)"
[ "$(td job show -e sw -n grid-1 --query toolkit)" = custommpi ] || fail "grid-1's toolkit: $(td job show -e sw -n grid-1 --query toolkit)"
for n in 1 2 3 4; do
  td job metrics -e sw -j grid-$n -o json > "$work/m$n.json" || fail "metrics of grid-$n"
done
py '
import json, sys
sweep = json.load(open(sys.argv[1]))
assert [t["state"] for t in sweep["trials"]] == ["succeeded"] * 4, [t["state"] for t in sweep["trials"]]
seen = set()
for t in sweep["trials"]:
    info = [r for r in json.load(open("%s/m%d.json" % (sys.argv[2], t["index"]))) if r.get("kind") == "info"][0]
    p = t["parameters"]
    # What the trainer read from its own command line is the trial'"'"'s values.
    assert abs(info["lr"] - p["LR"]) < 1e-12 and info["batch_size"] == p["BS"], (t["job"], info, p)
    seen.add((p["LR"], p["BS"]))
assert seen == {(0.01, 16), (0.01, 32), (0.001, 16), (0.001, 32)}, seen
best = [t for t in sweep["trials"] if t["best"]]
assert len(best) == 1 and best[0]["bestMetric"] == max(t["bestMetric"] for t in sweep["trials"]), best
print("   grid: 4 trials, values", sorted(seen), "best", best[0]["job"])
' "$work/grid.json.out" "$work" || fail "grid trials"

echo "== random search: the same seed draws the same values, inside the ranges"
cat > "$work/echo.json" <<JSON
{ "properties": { "nodeCount": 1, "stdOutErrPathPrefix": "$work/jobs",
  "customToolkitSettings": { "commandLine": "echo PARAM_LR PARAM_BS PARAM_OPT" } } }
JSON
for name in r1 r2 r3; do
  seed=7; [ $name = r3 ] && seed=8
  td sweep create -e sw -n $name -c local -f "$work/echo.json" --sampling random --trials 6 --seed $seed \
     --param 'LR=loguniform(1e-4,1e-1)' --param 'BS=randint(8,64)' --param OPT=sgd,adam --max-concurrent 6 \
     -o json > "$work/$name.json" || fail "sweep create $name"
done
py '
import json, sys
r1, r2, r3 = (json.load(open(sys.argv[1] + "/%s.json" % n)) for n in ("r1", "r2", "r3"))
v1, v2, v3 = ([t["parameters"] for t in r["trials"]] for r in (r1, r2, r3))
assert len(v1) == 6 and v1 == v2, (v1, v2)
assert v1 != v3, "another seed drew the same values"
assert r1["seed"] == 7
for v in v1 + v3:
    assert 1e-4 <= v["LR"] <= 1e-1 and 8 <= v["BS"] <= 64 and v["BS"] == int(v["BS"]) and v["OPT"] in ("sgd", "adam"), v
' "$work" || fail "random draws"
wait_sweep r1 120
td job file stream -e sw -j r1-3 -f stdout.txt > "$work/r1-3.out"
expected=$(py 'import json, sys
p = json.load(open(sys.argv[1]))["trials"][2]["parameters"]
print(p["LR"], p["BS"], p["OPT"])' "$work/r1.json")
[ "$(cat "$work/r1-3.out")" = "$expected" ] || fail "r1-3 printed '$(cat "$work/r1-3.out")', not '$expected'"

echo "== bad input is refused, naming it, and stores nothing"
expect_refused() {  # message args...
  msg=$1; shift
  td sweep create -e sw -c local -f "$work/echo.json" "$@" > /dev/null 2> "$work/err.txt" && fail "accepted: $*"
  grep -qF -- "$msg" "$work/err.txt" || fail "for $*: $(cat "$work/err.txt")"
}
echo '[{"type":"FileParam","parameterName":"F"}]' > "$work/fileparam.json"
expect_refused "FileParam (F) enumerates files" -n bad1 --params "$work/fileparam.json"
expect_refused "job.json names parameters the sweep does not have: properties.customToolkitSettings.commandLine: PARAM_OPT" \
  -n bad2 --param LR=1,2 --param BS=3
expect_refused "random sampling needs --trials N" -n bad3 --param LR=1,2 --param BS=3 --param OPT=a --sampling random
expect_refused "a range (loguniform(0.001, 0.1)) has no grid" -n bad4 --param 'LR=loguniform(1e-3,1e-1)' --param BS=3 --param OPT=a
expect_refused "--early-stop needs --metric" -n bad5 --param LR=1 --param BS=3 --param OPT=a --early-stop median
expect_refused "job 'r1-1' already exists" -n r1 --param LR=1 --param BS=3 --param OPT=a
# A grid is counted before it is made: refused at once, naming the parameter and the limit.
for huge in 'uniform(0,1,20000000)' 'uniform(0,1,2000000000)' 'randint(0,1e18)'; do
  expect_refused "parameter V: " -n huge --param "V=$huge" --param LR=1 --param BS=3 --param OPT=a
  grep -qF "more than the 10,000 trials a sweep may have" "$work/err.txt" || fail "V=$huge: $(cat "$work/err.txt")"
done
td sweep list -e sw -o json | py 'import json, sys
names = [s["name"] for s in json.load(sys.stdin)]
assert not any(n.startswith("bad") or n == "huge" for n in names), names' || fail "a refused sweep was stored"

echo "== a value reaches the shell as one word, run nowhere; a trial's name is its sweep's"
cat > "$work/words-params.json" <<JSON
{"params": [{"paramType": "DiscreteParam", "parameterName": "V",
  "values": ["a;touch $work/p1", "\$(touch $work/p2)", "\`touch $work/p3\`", "q'uo\"te", "two  words"]}]}
JSON
cat > "$work/words.json" <<JSON
{ "properties": { "nodeCount": 1, "stdOutErrPathPrefix": "$work/jobs",
  "environmentVariables": [{"name": "V", "value": "PARAM_V"}],
  "customToolkitSettings": { "commandLine": "printf '[%s]' PARAM_V \"\$V\"" } } }
JSON
td sweep create -e sw -n words -c wide -f "$work/words.json" --params "$work/words-params.json" --max-concurrent 4 \
   >/dev/null || fail "words sweep"
wait_sweep words 120
for i in 1 2 3 4 5; do
  td job file stream -e sw -j words-$i -f stdout.txt > "$work/words-$i.out"
done
py '
import json, sys
values = json.load(open(sys.argv[1] + "/words-params.json"))["params"][0]["values"]
for i, v in enumerate(values, 1):
    got = open(sys.argv[1] + "/words-%d.out" % i).read()
    assert got == "[%s][%s]" % (v, v), (i, v, got)
' "$work" || fail "words: values did not arrive intact"
ls "$work"/p1 "$work"/p2 "$work"/p3 2>/dev/null && fail "a value ran as a command"
td job create -e sw -n words-3 -c wide -f "$work/echo.json" > /dev/null 2> "$work/err.txt" && fail "a trial's name taken"
grep -qF "job name 'words-3' is trial 3 of sweep 'words'" "$work/err.txt" || fail "trial name: $(cat "$work/err.txt")"

echo "== a sweep that never succeeds failed; a 100 KB value is cut in the table; sweep delete"
python3 -c 'import json, sys; json.dump({"params": [{"paramType": "DiscreteParam", "parameterName": "V",
  "values": ["x" * 100000, "y"]}]}, open(sys.argv[1], "w"))' "$work/long-params.json"
cat > "$work/false.json" <<JSON
{ "properties": { "nodeCount": 1, "stdOutErrPathPrefix": "$work/jobs",
  "environmentVariables": [{"name": "V", "value": "PARAM_V"}],
  "customToolkitSettings": { "commandLine": "false" } } }
JSON
td sweep create -e sw -n long -c wide -f "$work/false.json" --params "$work/long-params.json" --max-concurrent 2 \
   >/dev/null || fail "long sweep"
wait_sweep long 120
[ "$(td sweep show -e sw -n long --query state)" = failed ] || fail "all-failed sweep: $(td sweep show -e sw -n long --query state)"
td sweep show -e sw -n long | awk 'length($0) > 300 { bad = 1 } END { exit bad }' || fail "sweep show printed a line over 300 characters"
td sweep delete -e sw -n long || fail "sweep delete"
td sweep show -e sw -n long >/dev/null 2>&1 && fail "a deleted sweep shows"
td job show -e sw -n long-1 >/dev/null 2>&1 && fail "a deleted sweep's trial job stays"

echo "== median stopping ends the trial that cannot learn; its peers go on"
# The loss of a learning rate of 1e-9 stays where it starts; 0.003 and 0.002 bring it down.
trainer_job "$work/median.json" "$work/median.log" "--synthetic-train 1024 --synthetic-test 32 --log-every 4 --epochs 6"
td sweep create -e sw -n med -c wide -f "$work/median.json" --param LR=0.003,0.002,0.000000001 --param BS=32 \
   --max-concurrent 3 --metric loss --goal min --early-stop median:after=12,min=2 >/dev/null || fail "median sweep"
wait_sweep med 600
td sweep show -e sw -n med -o json > "$work/med.json"
py '
import json, sys
s = json.load(open(sys.argv[1]))
t = {x["parameters"]["LR"]: x for x in s["trials"]}
bad = t[1e-9]
assert bad["status"] == "early-stopped" and bad["state"] == "failed", bad
assert bad["reason"].startswith("loss ") and " above the median " in bad["reason"], bad["reason"]
assert bad["reason"].endswith("of 2 peers)"), bad["reason"]
for lr in (0.003, 0.002):
    assert t[lr]["state"] == "succeeded" and t[lr]["status"] == "submitted", t[lr]
    assert t[lr]["evaluations"] > bad["evaluations"], (t[lr], bad)
print("   stopped:", bad["job"], "after", bad["evaluations"], "evaluations:", bad["reason"])
' "$work/med.json" || fail "median stopping: $(td sweep show -e sw -n med)"
bad_job=$(py 'import json, sys
print([x["job"] for x in json.load(open(sys.argv[1]))["trials"] if x["status"] == "early-stopped"][0])' "$work/med.json")
td job show -e sw -n "$bad_job" > "$work/bad_job.txt"
grep -q "stopped early: loss .* above the median .* at evaluation" "$work/bad_job.txt" \
  || fail "the stopped trial's job does not say why: $(cat "$work/bad_job.txt")"

echo "== sweep stop: the running trial ends (its records stay), the rest never start"
cat > "$work/slow.json" <<JSON
{ "properties": { "nodeCount": 1, "stdOutErrPathPrefix": "$work/jobs",
  "customToolkitSettings": { "commandLine": "sh -c 'echo PARAM_I > \$AZ_BATCHAI_STDOUTERR_DIR/started; sleep 120'" } } }
JSON
td sweep create -e sw -n slow -c wide -f "$work/slow.json" --param I=1,2,3 >/dev/null || fail "slow sweep"
# Running, and its script has begun (on a loaded machine "running" comes well before the first line).
for _ in $(seq 1 240); do td job file list -e sw -j slow-1 2>/dev/null | grep -q '^started ' && break; sleep 0.5; done
td sweep stop -e sw -n slow -o json > "$work/stop.json" || fail "sweep stop"
py '
import json, sys
s = json.load(open(sys.argv[1]))
assert s["state"] == "stopped", s["state"]
st = [(x["state"], x["status"]) for x in s["trials"]]
assert st == [("failed", "stopped"), ("skipped", "skipped"), ("skipped", "skipped")], st
' "$work/stop.json" || fail "stopped sweep: $(cat "$work/stop.json")"
[ "$(td job file stream -e sw -j slow-1 -f started)" = 1 ] || fail "the stopped trial's files are gone"
td sweep stop -e sw -n slow 2> "$work/err.txt" && fail "a stopped sweep stopped again"
grep -q "has already stopped" "$work/err.txt" || fail "stop again: $(cat "$work/err.txt")"

echo "== the agent SIGKILLed mid-sweep, again and again: no trial twice, none lost"
launches=$work/launches.txt
: > "$launches"
cat > "$work/count.json" <<JSON
{ "properties": { "nodeCount": 1, "stdOutErrPathPrefix": "$work/jobs",
  "customToolkitSettings": { "commandLine": "sh -c 'echo PARAM_I >> $launches; sleep 1.PARAM_D'" } } }
JSON
td sweep create -e sw -n kill -c wide -f "$work/count.json" --param I=1,2,3,4,5,6,7,8,9,10 --param D=3,6 \
   --max-concurrent 3 >/dev/null || fail "kill sweep"
# This data directory's agent only (other data directories' agents run on this machine too).
agent_pid() { td agent status -o json | py 'import json, sys; print(json.load(sys.stdin).get("pid", ""))'; }
# Each round waits for the agent a client started (on a loaded machine it can take
# seconds to come up: a fixed pause found none to kill in 5 of 8 rounds), then kills it
# at a random moment of its work. A client starts one only while the sweep is active:
# once it has ended there is nothing left to cut. The trials sleep over a second so that
# a busy machine, which starts agents slowly but sleeps no faster, still kills several.
sweep_state() { td sweep show -e sw -n kill --query state 2>/dev/null; }
kills=0
for k in $(seq 1 8); do
  td sweep list -e sw >/dev/null  # any client starts a new agent while a sweep is active
  pid=
  for _ in $(seq 1 300); do
    pid=$(agent_pid)
    [ -n "$pid" ] && break
    [ "$(sweep_state)" = running ] || break
    sleep 0.1
  done
  [ -n "$pid" ] || { [ "$(sweep_state)" != running ] && break; } || fail "round $k: no agent runs 30 s after a client asked"
  sleep "0.$((RANDOM % 9 + 1))"
  kill -9 "$pid" 2>/dev/null && kills=$((kills + 1))
done
td sweep list -e sw >/dev/null
[ "$kills" -ge 3 ] || fail "only $kills agents killed before the sweep ended"
wait_sweep kill 300
[ "$(wc -l < "$launches")" = 20 ] || fail "20 trials, $(wc -l < "$launches") launches: $(sort -n "$launches" | tr '\n' ' ')"
dups=$(sort "$launches" | uniq -c | awk '$1 != 2 {print $2}')  # each I once per D
[ -z "$dups" ] || fail "launched other than twice (once per D): $dups"
td sweep show -e sw -n kill -o json | py '
import json, sys
s = json.load(sys.stdin)
assert s["state"] == "completed" and len(s["trials"]) == 20, s["state"]
assert all(t["state"] == "succeeded" for t in s["trials"]), [(t["job"], t["state"]) for t in s["trials"]]
again = [t["job"] for t in s["trials"] if t.get("reason", "").startswith("submitted again")]
print("   20 trials, each launched once; submitted again after a cut launch:", again or "none")' \
  || fail "kill sweep trials: $(td sweep show -e sw -n kill)"
[ "$(td job list -e sw -o json | grep -c '"name": "kill-')" = 20 ] || fail "not 20 kill-* jobs"

td sweep list -e sw > "$work/list.txt"
grep -qE '^grid +completed +grid +4 +4 +0 +acc +grid-[1-4] \(' "$work/list.txt" || fail "sweep list: $(cat "$work/list.txt")"
echo "sweeps ok"
