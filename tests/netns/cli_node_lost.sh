#!/usr/bin/env bash
# A node of a running 2-node job is cut off the network (its link down): the agent fails
# the job with NodeUnreachable within the cluster's grace period + 30 s, ends the job's
# processes on the node it still reaches, and when the link returns ends those left on the
# lost node: 0 processes of the job on any node. A shorter drop changes nothing.
set -u
traindesk=$1
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/td-lost.XXXXXX")
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
  "customMpiSettings": { "processCount": 4, "commandLine": "sh -c 'setsid sleep 400 & sleep 300'" } } }
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
[ "$took" -le $(( grace + 30 )) ] || fail "failed only $took s after the cut (grace $grace s)"
td job show -e lost -n cut -o json | grep -q '"code": "NodeUnreachable"' || fail "error: $(td job show -e lost -n cut -o json)"
td job show -e lost -n cut -o json | grep -q "node2\|${NETNS_ADDR[2]}" || fail "the error does not name the node"
echo "   failed $took s after the cut"
[ "$(marked 1 "$uuid")" = 0 ] || { netns_exec 1 ps -eo pid,ppid,stat,lstart,args | cut -c1-200 > "$work/ps1.txt"; sleep 12; }
[ -n "${TD_DEBUG:-}" ] && { netns_exec 1 ps -eo pid,ppid,stat,lstart,args | cut -c1-200; cat "$work/ps1.txt"; cat "$TRAINDESK_HOME/agent.log"; }
[ "$(marked 1 "$uuid")" = 0 ] || fail "$(marked 1 "$uuid") processes of the job left on the head node: $(marked_list 1 "$uuid")"
[ "$(marked 2 "$uuid")" -ge 1 ] || fail "the cut node's processes ended by themselves: the test proves nothing"
netns_link 2 up
for _ in $(seq 1 60); do [ "$(marked 2 "$uuid")" = 0 ] && break; sleep 0.5; done
[ "$(marked 2 "$uuid")" = 0 ] || fail "$(marked 2 "$uuid") processes of the job left on node2 30 s after the link returned"
echo "node lost ok"
