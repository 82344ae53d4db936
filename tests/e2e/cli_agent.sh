#!/usr/bin/env bash
# The agent is the one control plane: however many clients look at once, each job is
# launched exactly once (counted on the node, not in the store); killed `job create`s
# launch nothing twice; queued jobs start and metrics are stored while no client runs;
# an agent SIGKILLed mid-job is replaced with no metric record lost or stored twice; no
# process of a job outlives it.
set -u
traindesk=$1
work=$(mktemp -d "${TMPDIR:-/tmp}/td-agent.XXXXXX")
export TRAINDESK_HOME=$work/home TRAINDESK_TRAINER_DIR=$(dirname "$traindesk")
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
cleanup() { "$traindesk" agent stop >/dev/null 2>&1; rm -rf "$work"; }
trap cleanup EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
td() { "$traindesk" "$@"; }
launches=$work/launches.txt
: > "$launches"

# A job that notes its launch on the node (the local cluster is this machine), then works a while.
job_json() {  # name seconds
  cat > "$work/$1.json" <<JSON
{ "properties": { "nodeCount": 1, "stdOutErrPathPrefix": "$work/jobs",
  "customToolkitSettings": { "commandLine": "sh -c 'echo $1 >> $launches; sleep $2'" } } }
JSON
  echo "$work/$1.json"
}
state() { td job show -e agent -n "$1" --query executionState; }
wait_all_ended() {  # seconds
  for _ in $(seq 1 $(( $1 * 2 ))); do
    td job list -e agent -o json | grep -qE '"executionState": "(queued|running|terminating)"' || return 0
    sleep 0.5
  done
  fail "jobs still not ended after $1 s: $(td job list -e agent)"
}
launch_counts_ok() {  # every launch line once: duplicates name the job launched twice
  dups=$(sort "$launches" | uniq -d)
  [ -z "$dups" ] || fail "launched more than once: $dups"
}

td experiment create -n agent >/dev/null

echo "== 3 x 40 concurrent list/show/wait over 8 queued jobs: each launched exactly once"
td agent stop >/dev/null
for i in $(seq 1 8); do
  td job create -e agent -n q$i -c local -f "$(job_json q$i 0.3)" --draft >/dev/null || fail "create q$i"
done
for i in $(seq 1 8); do td job start -e agent -n q$i >/dev/null 2>&1 & done
for i in $(seq 1 40); do
  td job list -e agent >/dev/null 2>&1 &
  td job show -e agent -n q$(( i % 8 + 1 )) >/dev/null 2>&1 &
  timeout 120 "$traindesk" job wait -e agent -n q$(( i % 8 + 1 )) >/dev/null 2>&1 &
done
wait
wait_all_ended 120
[ "$(wc -l < "$launches")" = 8 ] || fail "8 jobs, $(wc -l < "$launches") launches: $(sort "$launches" | tr '\n' ' ')"
launch_counts_ok
for i in $(seq 1 8); do [ "$(state q$i)" = succeeded ] || fail "q$i is $(state q$i)"; done
[ "$(pgrep -f "traindesk agent --foreground" | wc -l)" -ge 1 ] || fail "no agent runs"

echo "== 30 SIGKILLs of job create at random moments: nothing launched twice, nothing half-made"
: > "$launches"
for i in $(seq 1 30); do
  td job create -e agent -n k$i -c local -f "$(job_json k$i 0)" >/dev/null 2>&1 &
  pid=$!
  sleep "0.0$((RANDOM % 10))"
  kill -9 $pid 2>/dev/null
  wait $pid 2>/dev/null
done
td agent >/dev/null || fail "agent"
wait_all_ended 120
launch_counts_ok
for i in $(seq 1 30); do
  s=$(td job show -e agent -n k$i --query executionState 2>/dev/null) || continue  # never stored: fine
  [ "$s" = succeeded ] || fail "k$i was left $s"
  [ "$(grep -c "^k$i\$" "$launches")" = 1 ] || fail "k$i is stored and succeeded but launched $(grep -c "^k$i\$" "$launches") times"
done
stored=$(grep -c . "$launches")
echo "   $stored of 30 jobs were stored before their create was killed; each ran once"

echo "== a job queued behind a busy cluster starts while no client runs"
: > "$launches"
td job create -e agent -n busy -c local -f "$(job_json busy 2)" >/dev/null || fail "create busy"
td job create -e agent -n behind -c local -f "$(job_json behind 0)" >/dev/null || fail "create behind"
for _ in $(seq 1 40); do grep -q '^behind$' "$launches" && break; sleep 0.5; done  # no CLI meanwhile
grep -q '^behind$' "$launches" || fail "the queued job did not start without a client"
wait_all_ended 30

echo "== the agent SIGKILLed mid-job, twice: every metric record stored once"
cat > "$work/metrics.json" <<JSON
{ "properties": { "nodeCount": 1, "stdOutErrPathPrefix": "$work/jobs",
  "customToolkitSettings": { "commandLine": "sh -c 'for i in \$(seq 1 120); do echo \"{\\\\\"kind\\\\\": \\\\\"train\\\\\", \\\\\"step\\\\\": \$i, \\\\\"loss\\\\\": 1.5}\" >> \$AZ_BATCHAI_STDOUTERR_DIR/metrics.jsonl; sleep 0.05; done'" } } }
JSON
td job create -e agent -n metrics -c local -f "$work/metrics.json" >/dev/null || fail "create metrics"
for kill in 1 2; do
  sleep 1.5
  # This data directory's agent only (tests run side by side, each with its own agent).
  agent_pid=$(td agent status -o json | python3 -c 'import json, sys; print(json.load(sys.stdin).get("pid") or "")')
  [ -n "$agent_pid" ] && kill -9 "$agent_pid" || fail "no agent to kill: $(td agent status)"
  sleep 0.5
  td job list -e agent >/dev/null  # any client starts a new one
done
timeout 120 "$traindesk" job wait -e agent -n metrics >/dev/null || fail "metrics job: $(td job show -e agent -n metrics)"
jobdir=$(td job show -e agent -n metrics --query jobDirectory)
lines=$(wc -l < "$jobdir/stdouterr/metrics.jsonl")
records=$(td job metrics -e agent -j metrics -o json | python3 -c '
import json, sys
r = json.load(sys.stdin)
steps = [x["step"] for x in r]
assert len(steps) == len(set(steps)), "stored twice: %s" % sorted(s for s in steps if steps.count(s) > 1)
assert steps == sorted(steps), "out of order"
print(len(r))') || fail "stored records: $records"
[ "$lines" = 120 ] && [ "$records" = 120 ] || fail "the file has $lines records, the store $records"

echo "== nothing of a job outlives it: TERM-ignoring and detached children, gone when job wait returns and on terminate"
cat > "$work/leaky.sh" <<'SH'
bash -c 'trap "" TERM; while :; do sleep 1; done' &
setsid sleep 123 &
sleep 41 &
echo bye
[ "${1:-}" = stay ] && sleep 300
exit 0
SH
leaky_json() {  # name args
  cat > "$work/$1.json" <<JSON
{ "properties": { "nodeCount": 1, "stdOutErrPathPrefix": "$work/jobs",
  "customToolkitSettings": { "commandLine": "sh $work/leaky.sh $2" } } }
JSON
  echo "$work/$1.json"
}
marked() { grep -lzx "TRAINDESK_JOB=$1" /proc/[0-9]*/environ 2>/dev/null | wc -l; }
uuid_of() { td job show -e agent -n "$1" --query jobOutputDirectoryPathSegment | sed 's|.*/||'; }
no_leftovers() {  # job, seconds
  u=$(uuid_of "$1")
  for _ in $(seq 1 $(( $2 * 2 ))); do [ "$(marked "$u")" = 0 ] && return 0; sleep 0.5; done
  fail "$(marked "$u") processes of job $1 still run $2 s after it ended: $(grep -lzx "TRAINDESK_JOB=$u" /proc/[0-9]*/environ | sed 's|/proc/\([0-9]*\)/environ|\1|' | xargs -r ps -o pid,stat,args -p)"
}
td job create -e agent -n leaky -c local -f "$(leaky_json leaky "")" >/dev/null || fail "create leaky"
timeout 60 "$traindesk" job wait -e agent -n leaky >/dev/null || fail "leaky job: $(td job show -e agent -n leaky)"
# The job ends when all of it has (its reaper waits for the children it left): nothing is
# left the moment job wait returns.
left=$(marked "$(uuid_of leaky)")
[ "$left" = 0 ] || fail "$left processes of the leaky job still ran when job wait returned"
no_leftovers leaky 1
td job create -e agent -n stays -c local -f "$(leaky_json stays stay)" >/dev/null || fail "create stays"
for _ in $(seq 1 20); do [ "$(state stays)" = running ] && break; sleep 0.5; done
sleep 1
td job terminate -e agent -n stays >/dev/null || fail "terminate"
[ "$(state stays)" = failed ] || fail "terminated job is $(state stays)"
no_leftovers stays 20

echo "== job plan, node list and delete, from the command line"
td job plan -c local -f "$(job_json planned 0)" > "$work/plan.txt" || fail "job plan"
grep -q "launch.sh\|mpirun\|Command" "$work/plan.txt" || fail "job plan prints no command: $(cat "$work/plan.txt")"
grep -q "planned" "$launches" && fail "job plan started the job"
td job show -e agent -n planned >/dev/null 2>&1 && fail "job plan stored a job"
td job node list -e agent -j leaky -o json | grep -q '"role": "head (rank 0)"' || fail "node list: $(td job node list -e agent -j leaky)"
td job create -e agent -n doomed -c local -f "$(job_json doomed 30)" >/dev/null || fail "create doomed"
for _ in $(seq 1 20); do [ "$(state doomed)" = running ] && break; sleep 0.5; done
td job delete -e agent -n doomed 2>"$work/del.err" && fail "a running job was deleted"
grep -q "terminate it first" "$work/del.err" || fail "delete of a running job: $(cat "$work/del.err")"
td job terminate -e agent -n doomed >/dev/null || fail "terminate doomed"
td job delete -e agent -n doomed || fail "delete of a terminated job"
td job show -e agent -n doomed >/dev/null 2>&1 && fail "the deleted job is still shown"

echo "== agent status and stop"
td agent status | grep -q "The agent runs (pid" || fail "agent status: $(td agent status)"
td agent status -o json | grep -q '"running": true' || fail "agent status json"
td agent stop | grep -q "stopped" || fail "agent stop"
td agent status | grep -q "No agent runs" || fail "still running after stop"
echo "agent ok"
