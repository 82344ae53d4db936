#!/usr/bin/env bash
# Soak (issue #38): the agent under a long, hostile load, on a small tmpfs data directory.
#   bench/agent/run_soak.sh [build/bin/traindesk] [jobs] [minutes]
# - `jobs` jobs on the local cluster, each writing 3,000 metric lines at ~300 a second:
#   half as `step=N loss=...` text (task files), half as metrics.jsonl records;
# - the data directory's disk (a 48 MB tmpfs) is filled every minute for 20 s, then freed;
# - clients all the time: `job list` every 2 s, a subscribed client that connects and
#   disconnects, and `agent stop` every 90 s (the next client starts a new agent);
# - the agent's RSS sampled every 5 s.
# At the end: every job's records counted against what it printed (stored exactly once),
# crashes counted in agent.log, RSS first/last/max. Needs root (tmpfs). The local cluster
# runs one job at a time (whole nodes), so the jobs run one after another through the window.
set -u
traindesk=${1:-build/bin/traindesk}
jobs=${2:-50}
minutes=${3:-10}
lines=3000
work=$(mktemp -d "${TMPDIR:-/tmp}/td-soak.XXXXXX")
disk=$work/disk
mkdir -p "$disk" "$work/out"
mount -t tmpfs -o size=48m tmpfs "$disk" || { echo "needs root to mount a tmpfs"; exit 1; }
export TRAINDESK_HOME=$disk/home TRAINDESK_TRAINER_DIR=$(dirname "$traindesk")
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 TRAINDESK_AGENT_IDLE_SECONDS=3600
td() { "$traindesk" "$@"; }
cleanup() {
  kill $(jobs -p) 2>/dev/null
  td agent stop >/dev/null 2>&1
  for _ in $(seq 1 50); do umount "$disk" 2>/dev/null && break; sleep 0.2; done
  mountpoint -q "$disk" && umount -l "$disk"
  rm -rf "$work"
}
trap cleanup EXIT
stored() {  # job -> count distinct of its metric and scalar records (error records aside)
  python3 -c 'import sqlite3, sys
db = sqlite3.connect(sys.argv[1], timeout=30)
print(*db.execute("SELECT COUNT(*), COUNT(DISTINCT record) FROM job_metrics m JOIN jobs j ON j.id = m.job_id "
                  "WHERE j.name = ? AND record NOT LIKE ?", (sys.argv[2], "%\"kind\":\"error\"%")).fetchone())' \
    "$TRAINDESK_HOME/traindesk.db" "$1"
}
agent_rss_kb() { local p; p=$(pgrep -f "traindesk agent --foreground" | head -1); [ -n "$p" ] && awk '/VmRSS/ { print $2 }' "/proc/$p/status" 2>/dev/null; }

cat > "$work/text.sh" <<SH
i=1; while [ \$i -le $lines ]; do echo "step=\$i loss=0.\$i"; i=\$((i + 1)); [ \$((i % 30)) = 0 ] && sleep 0.1; done
SH
cat > "$work/jsonl.sh" <<SH
i=1; while [ \$i -le $lines ]; do echo "{\"kind\": \"train\", \"epoch\": 1, \"step\": \$i, \"loss\": 0.5}" >> "\$AZ_BATCHAI_STDOUTERR_DIR/metrics.jsonl"; i=\$((i + 1)); [ \$((i % 30)) = 0 ] && sleep 0.1; done
SH
td experiment create -n soak >/dev/null
td agent >/dev/null
started=$(date +%s)
end=$(( started + minutes * 60 ))
for j in $(seq 1 "$jobs"); do
  kind=$([ $((j % 2)) = 0 ] && echo text || echo jsonl)
  cat > "$work/job$j.json" <<JSON
{ "properties": { "nodeCount": 1, "stdOutErrPathPrefix": "$work/out",
  "customToolkitSettings": { "commandLine": "sh $work/$kind.sh" } } }
JSON
  td job create -e soak -n "j$j" -c local -f "$work/job$j.json" >/dev/null 2>&1 || echo "job create j$j failed"
done

# The disk fills every minute for 20 s.
( while [ "$(date +%s)" -lt "$end" ]; do
    sleep 40; dd if=/dev/zero of="$disk/filler" bs=64k >/dev/null 2>&1; sleep 20; rm -f "$disk/filler"
  done ) &
# Clients: a list every 2 s, a subscribed client on and off, a stop every 90 s.
( while [ "$(date +%s)" -lt "$end" ]; do td job list -e soak >/dev/null 2>&1; sleep 2; done ) &
( while [ "$(date +%s)" -lt "$end" ]; do
    timeout 7 python3 -c 'import json, socket, sys, time
s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1])
s.sendall(b"{\"op\": \"subscribe\"}\n"); s.recv(4096); time.sleep(5)' "$TRAINDESK_HOME/agent.sock" 2>/dev/null
    sleep 1; done ) &
( while [ "$(date +%s)" -lt "$end" ]; do sleep 90; td agent stop >/dev/null 2>&1; td agent >/dev/null 2>&1; done ) &
rss=()
while [ "$(date +%s)" -lt "$end" ]; do r=$(agent_rss_kb); [ -n "$r" ] && rss+=("$r"); sleep 5; done
wait
rm -f "$disk/filler"
td agent >/dev/null 2>&1
# Every job ends and every record lands.
for _ in $(seq 1 600); do
  td job list -e soak -o json | grep -qE '"executionState": "(queued|running)"' || break; sleep 1
done
ok=0 bad=0 notes=
for j in $(seq 1 "$jobs"); do
  for _ in $(seq 1 60); do [ "$(stored "j$j")" = "$lines $lines" ] && break; sleep 1; done
  got=$(stored "j$j")
  if [ "$got" = "$lines $lines" ]; then ok=$((ok + 1)); else bad=$((bad + 1)); notes="$notes j$j:$(td job show -e soak -n "j$j" --query executionState)/$got"; fi
done
crashes=$(grep -cE "terminate called|Aborted|Segmentation|double free|corrupted|malloc" "$TRAINDESK_HOME/agent.log" 2>/dev/null)
stops=$(grep -c "stopping: asked to stop" "$TRAINDESK_HOME/agent.log" 2>/dev/null)
printf '%s\n' "${rss[@]}" | python3 -c 'import sys
v = [int(x) for x in sys.stdin.read().split()]
print("agent RSS (KiB, %d samples): first %d, median %d, max %d, last %d" % (len(v), v[0], sorted(v)[len(v)//2], max(v), v[-1]) if v else "no RSS samples")'
echo "jobs: $jobs x $lines records over $minutes min; stored exactly once: $ok; wrong: $bad$notes"
echo "agent stops asked: $stops; crashes in agent.log: $crashes"
echo "total time $(( $(date +%s) - started )) s"
