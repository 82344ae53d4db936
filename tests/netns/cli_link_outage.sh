#!/usr/bin/env bash
# A node's link cut long enough to fail its job (NodeUnreachable) and then restored, with
# the agent running all along (issue #28): the node says it was out of reach while it is,
# takes jobs again once it answers, and the next 3 jobs on the cluster run, without
# `agent stop`. The metric lines the job wrote while its node was cut are stored once the
# node answers again (they were lost: the job's last read found the node out of reach, and
# nothing read it again). The node's sshd has OpenSSH's default MaxSessions (10): channels
# that a cut link left half-open on a kept connection used them up, and every later job failed
# "cannot open a channel ... Channel opening failure" (sshd: "no more sessions").
set -u
traindesk=$1
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/td-outage.XXXXXX")
chmod 755 "$work"
. "$here/netns_nodes.sh"
cleanup() { "$traindesk" agent stop >/dev/null 2>&1; netns_down; rm -rf "$work"; }
trap cleanup EXIT
fail() { echo "FAIL: $*" >&2; [ -f "$TRAINDESK_HOME/agent.log" ] && tail -30 "$TRAINDESK_HOME/agent.log" >&2; exit 1; }
td() { "$traindesk" "$@"; }
[ "$(id -u)" = 0 ] || { echo "SKIP: network namespaces need root"; exit 77; }
NETNS_MAX_SESSIONS=10 netns_up "$work" 1 || fail "the test node does not start"
export TRAINDESK_HOME=$work/data TRAINDESK_TRAINER_DIR=$(dirname "$traindesk") TRAINDESK_SSH_PASSWORD=$NETNS_PASSWORD
# One agent from the first job to the last (it would idle out between the failed job and the next).
export TRAINDESK_AGENT_IDLE_SECONDS=900
grace=20
td cluster create -n net --nodes "node1=$NETNS_USER@${NETNS_ADDR[1]}" --generate-ssh-keys \
  --accept-new-host-keys --node-lost-grace $grace >/dev/null 2>"$work/create.err" || fail "cluster create: $(cat "$work/create.err")"
td experiment create -n outage >/dev/null
mkdir -p "$work/out" && chown "$NETNS_USER" "$work/out"
job_json() {  # command -> job.json
  printf '{ "properties": { "nodeCount": 1, "stdOutErrPathPrefix": "%s", "customMpiSettings": { "processCount": 1, "commandLine": "%s" } } }\n' \
    "$work/out" "$1"
}
# The cut job writes its 3 metric records only once the link is down (the test says so in
# $work/go; the folder is the node's too), so no read before the cut can have seen them.
cat > "$work/cut.sh" <<'SH'
while [ ! -e "$1/go" ]; do sleep 0.2; done
for step in 1 2 3; do
  echo "{\"kind\": \"train\", \"step\": $step, \"loss\": 1.5}" >> "$AZ_BATCHAI_STDOUTERR_DIR/metrics.jsonl"
done
sleep 300
SH
chmod 755 "$work/cut.sh"
job_json "sh $work/cut.sh $work" > "$work/long.json"
job_json "echo ran" > "$work/short.json"
state() { td job show -e outage -n "$1" --query executionState; }
# The agent's state of the node, read from the store (`node list` would look itself).
node_state() {
  python3 -c 'import sqlite3, sys
row = sqlite3.connect(sys.argv[1]).execute("SELECT state, state_reason FROM nodes WHERE name = ?", ("node1",)).fetchone()
print(" ".join(row))' "$TRAINDESK_HOME/traindesk.db"
}

td job create -e outage -n cut -c net -f "$work/long.json" >/dev/null || fail "job create cut"
for _ in $(seq 1 60); do [ "$(state cut)" = running ] && break; sleep 0.5; done
[ "$(state cut)" = running ] || fail "job cut is $(state cut)"
agent=$(td agent status -o json | python3 -c 'import json, sys; print(json.load(sys.stdin).get("pid", ""))')
[ -n "$agent" ] || fail "no agent runs: $(td agent status)"

echo "== the link is cut until the job fails NodeUnreachable"
netns_link 1 down
touch "$work/go"
for _ in $(seq 1 $(( (grace + 60) * 2 ))); do [ "$(state cut)" = failed ] && break; sleep 0.5; done
[ "$(state cut)" = failed ] || fail "still $(state cut) after the cut"
td job show -e outage -n cut -o json | grep -q '"code": "NodeUnreachable"' || fail "error: $(td job show -e outage -n cut -o json)"
# The agent goes on looking for the node (to end the job's processes there) meanwhile.
sleep 15
reason=$(node_state)
echo "   node while cut: $reason"
case "$reason" in
  "unusable unreachable: "*NodeUnreachable*) ;;
  *) fail "the node does not say it is out of reach: '$reason'" ;;
esac

echo "== the link returns: 3 jobs run, the same agent"
netns_link 1 up
for i in 1 2 3; do
  td job create -e outage -n "after$i" -c net -f "$work/short.json" >/dev/null || fail "job create after$i"
  timeout 120 "$traindesk" job wait -e outage -n "after$i" >/dev/null
  [ "$(state "after$i")" = succeeded ] || fail "job after$i after the outage: $(td job show -e outage -n "after$i" -o json;
    echo; grep -c 'no more sessions' "$work/node1/sshd.log")"
done
records() { td job metrics -e outage -j cut -o json 2>/dev/null | python3 -c 'import json, sys; print(len(json.load(sys.stdin)))'; }
for _ in $(seq 1 60); do [ "$(records)" = 3 ] && break; sleep 0.5; done
[ "$(records)" = 3 ] || fail "the cut job's records written during the cut: $(records) of 3 stored after the node answered"
echo "   the 3 records the cut job wrote while its node was out of reach are stored"
now=$(td agent status -o json | python3 -c 'import json, sys; print(json.load(sys.stdin).get("pid", ""))')
[ "$now" = "$agent" ] || fail "the agent was restarted ($agent -> $now)"
reason=$(node_state)
[ "$reason" = "idle " ] || fail "the node is '$reason' after it answered again"
echo "link outage ok"
