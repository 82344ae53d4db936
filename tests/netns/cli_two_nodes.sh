#!/usr/bin/env bash
# Two SSH nodes, each a network namespace with its own sshd, hostname and processes:
# - the README's trainer command on 2 nodes x 2 ranks runs the copy of the trainer that
#   TrainDesk puts on the nodes, 2 ranks on each node;
# - processCount 2 on nodeCount 2 places one rank on each node, as Batch AI did;
# - a node cut off the network (its link down) for less than the cluster's grace period
#   changes nothing; for longer, the agent fails the job with NodeUnreachable within grace
#   + 30 s, ends the job's processes on the node it still reaches, and when the link
#   returns ends those left on the lost node: 0 processes of the job on any node, even when
#   the agent that failed the job was SIGKILLed meanwhile (the pending clean-up is in the store
#   and the next agent finishes it).
set -u
traindesk=$1
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/td-nodes.XXXXXX")
chmod 755 "$work"
. "$here/netns_nodes.sh"
cleanup() { "$traindesk" agent stop >/dev/null 2>&1; netns_down; rm -rf "$work"; }
trap cleanup EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
td() { "$traindesk" "$@"; }
[ "$(id -u)" = 0 ] || { echo "SKIP: network namespaces need root"; exit 77; }
netns_up "$work" 2 || fail "the test nodes do not start"
export TRAINDESK_HOME=$work/data TRAINDESK_TRAINER_DIR=$(dirname "$traindesk") TRAINDESK_SSH_PASSWORD=$NETNS_PASSWORD
grace=10
td cluster create -n net --nodes "$NETNS_USER@${NETNS_ADDR[1]},$NETNS_USER@${NETNS_ADDR[2]}" --generate-ssh-keys \
  --accept-new-host-keys --node-lost-grace $grace >/dev/null 2>"$work/create.err" || fail "cluster create: $(cat "$work/create.err")"
td experiment create -n lost >/dev/null
mkdir -p "$work/out" && chown "$NETNS_USER" "$work/out"
cat > "$work/job.json" <<JSON
{ "properties": { "nodeCount": 2, "stdOutErrPathPrefix": "$work/out",
  "customMpiSettings": { "processCount": 2, "commandLine": "sh -c 'setsid sleep 400 & sleep 300'" } } }
JSON
marked() {  # node uuid -> number of the job's processes on the node
  netns_exec "$1" sh -c "grep -lzx 'TRAINDESK_JOB=$2' /proc/[0-9]*/environ 2>/dev/null | wc -l"
}
marked_list() {  # node uuid -> the job's processes on the node, as ps shows them
  netns_exec "$1" sh -c "grep -lzx 'TRAINDESK_JOB=$2' /proc/[0-9]*/environ 2>/dev/null | sed 's|/proc/\\([0-9]*\\)/environ|\\1|' | xargs -r ps -o pid,stat,args -p"
}
state() { td job show -e lost -n "$1" --query executionState; }
start_job() {
  td job create -e lost -n "$1" -c net -f "$work/job.json" >/dev/null || fail "job create $1"
  for _ in $(seq 1 60); do [ "$(state "$1")" = running ] && break; sleep 0.5; done
  [ "$(state "$1")" = running ] || fail "job $1 is $(state "$1"): $(td job show -e lost -n "$1" -o json)"
  uuid=$(td job show -e lost -n "$1" --query jobOutputDirectoryPathSegment | sed 's|.*/||')
  for _ in $(seq 1 40); do [ "$(marked 2 "$uuid")" -ge 2 ] && break; sleep 0.5; done
  [ "$(marked 2 "$uuid")" -ge 2 ] || fail "job $1 has no processes on node2: $(netns_exec 2 ps -eo pid,args; cat "$work"/out/*/*/*/*/*/*/stdouterr/*.txt 2>&1 | tail -20)"
}

echo "== the README's trainer command on 2 nodes x 2 ranks: TrainDesk copies its trainer to the nodes"
cat > "$work/trainer.json" <<JSON
{ "properties": { "nodeCount": 2, "stdOutErrPathPrefix": "$work/out",
  "customMpiSettings": { "processCount": 4, "commandLine": "traindesk-trainer --format synthetic --synthetic-train 512 --synthetic-test 128 --synthetic-shape 16x16x1 --epochs 1 --log-every 4 --no-save" } } }
JSON
td job create -e lost -n trainer -c net -f "$work/trainer.json" >/dev/null || fail "job create trainer"
timeout 300 "$traindesk" job wait -e lost -n trainer >/dev/null \
  || fail "trainer job: $(td job show -e lost -n trainer -o json; td job file stream -e lost -j trainer -f stderr.txt | tail -5)"
td job show -e lost -n trainer -o json | python3 -c '
import json, sys
ranks = json.load(sys.stdin)["rankNodes"]
assert len(ranks) == 4 and ranks[0] == ranks[1] and ranks[2] == ranks[3] and ranks[0] != ranks[2], ranks' \
  || fail "ranks: $(td job show -e lost -n trainer -o json)"
jobdir=$(td job show -e lost -n trainer --query jobDirectory)
grep -q "/.traindesk-trainer/" "$jobdir/launch.sh" || fail "the launch script does not run the copied trainer: $(grep PATH "$jobdir/launch.sh")"
ls "$work"/home/traindesk/mounts/default/net/.traindesk-trainer/*/traindesk-trainer >/dev/null || fail "no trainer copied under the mount root"
grep -q '"workers": 4' "$jobdir/stdouterr/metrics.jsonl" || fail "the trainer did not run with 4 workers"

echo "== 2 ranks on 2 nodes: one on each, as Batch AI placed them"
start_job placed
td job show -e lost -n placed -o json | python3 -c '
import json, sys
ranks = json.load(sys.stdin)["rankNodes"]
assert len(ranks) == 2 and ranks[0] != ranks[1], ranks' || fail "ranks: $(td job show -e lost -n placed -o json)"
td job terminate -e lost -n placed >/dev/null || fail "terminate placed"

echo "== a drop shorter than the grace period changes nothing"
start_job short
netns_link 2 down
sleep $(( grace / 2 ))
netns_link 2 up
sleep $(( grace + 6 ))
[ "$(state short)" = running ] || fail "a $(( grace / 2 )) s drop ended the job: $(td job show -e lost -n short -o json)"
td job terminate -e lost -n short >/dev/null || fail "terminate short"

echo "== a node cut off for longer fails the job with NodeUnreachable"
start_job cut
netns_link 2 down
cut_at=$(date +%s)
for _ in $(seq 1 $(( (grace + 40) * 2 ))); do [ "$(state cut)" = failed ] && break; sleep 0.5; done
took=$(( $(date +%s) - cut_at ))
[ "$(state cut)" = failed ] || fail "still $(state cut) $took s after the cut"
# Bounded, not timed: a look at the node every few seconds, each up to its timeout, on a
# machine that may run other tests beside this one.
[ "$took" -le $(( grace + 60 )) ] || fail "failed only $took s after the cut (grace $grace s)"
td job show -e lost -n cut -o json | grep -q '"code": "NodeUnreachable"' || fail "error: $(td job show -e lost -n cut -o json)"
td job show -e lost -n cut -o json | grep -q "node2\|${NETNS_ADDR[2]}" || fail "the error does not name the node"
echo "   failed $took s after the cut"
# The agent ends them as it fails the job; the last may still be going as the state turns.
[ "$(marked 1 "$uuid")" = 0 ] || netns_exec 1 ps -eo pid,ppid,stat,lstart,args | cut -c1-200 > "$work/ps1.txt"
for _ in $(seq 1 60); do [ "$(marked 1 "$uuid")" = 0 ] && break; sleep 0.5; done
[ -n "${TD_DEBUG:-}" ] && { netns_exec 1 ps -eo pid,ppid,stat,lstart,args | cut -c1-200; cat "$work/ps1.txt"; cat "$TRAINDESK_HOME/agent.log"; }
[ "$(marked 1 "$uuid")" = 0 ] || fail "$(marked 1 "$uuid") processes of the job left on the head node: $(marked_list 1 "$uuid")"
[ "$(marked 2 "$uuid")" -ge 1 ] || fail "the cut node's processes ended by themselves: the test proves nothing"
agent=$(td agent status -o json | python3 -c 'import json, sys; print(json.load(sys.stdin).get("pid", ""))')
[ -n "$agent" ] || fail "no agent runs: $(td agent status)"
kill -KILL "$agent"
while kill -0 "$agent" 2>/dev/null; do sleep 0.1; done
netns_link 2 up
sleep 8  # the node is back, no agent runs: nothing sweeps it
[ "$(marked 2 "$uuid")" -ge 1 ] || fail "node2's processes ended with no agent running: the test proves nothing"
td agent >/dev/null || fail "a new agent does not start"
for _ in $(seq 1 60); do [ "$(marked 2 "$uuid")" = 0 ] && break; sleep 0.5; done
[ "$(marked 2 "$uuid")" = 0 ] || fail "$(marked 2 "$uuid") processes of the job left on node2 30 s after a new agent started"
echo "two nodes ok"
