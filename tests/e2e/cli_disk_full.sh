#!/usr/bin/env bash
# Full disks (issue #28), on tmpfs mounts:
# - the data directory's disk fills up while a job writes 20,000 records: the job still ends
#   (succeeded) within seconds, shows DiskFull naming the folder while its records wait, an
#   agent restarted meanwhile goes on waiting, and once space returns every record is stored
#   exactly once and the error goes;
# - a job that fills the disk it shares with the data directory fails within seconds of its
#   exit (not "running" until space returns) with DiskFull, ENOSPC and its folder named.
set -u
traindesk=$1
work=$(mktemp -d "${TMPDIR:-/tmp}/td-diskfull.XXXXXX")
disk=$work/disk
cleanup() {
  "$traindesk" agent stop >/dev/null 2>&1
  # The agent closes its database as it exits, a moment after it answered.
  for _ in $(seq 1 50); do mountpoint -q "$disk" || break; umount "$disk" 2>/dev/null && break; sleep 0.2; done
  mountpoint -q "$disk" && umount -l "$disk"
  rm -rf "$work"
}
trap cleanup EXIT
fail() { echo "FAIL: $*" >&2; [ -f "$TRAINDESK_HOME/agent.log" ] && tail -20 "$TRAINDESK_HOME/agent.log" >&2; exit 1; }
td() { "$traindesk" "$@"; }
[ "$(id -u)" = 0 ] || { echo "SKIP: mounting a tmpfs needs root"; exit 77; }
mkdir -p "$disk" && mount -t tmpfs -o size=24m tmpfs "$disk" || { echo "SKIP: cannot mount a tmpfs here"; exit 77; }
export TRAINDESK_HOME=$disk/home TRAINDESK_TRAINER_DIR=$(dirname "$traindesk")
state() { td job show -e full -n "$1" --query executionState; }
stored() {  # job -> "count distinct" of its stored records
  python3 -c 'import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
print(*db.execute("SELECT COUNT(*), COUNT(DISTINCT record) FROM job_metrics m JOIN jobs j ON j.id = m.job_id WHERE j.name = ?", (sys.argv[2],)).fetchone())' \
    "$TRAINDESK_HOME/traindesk.db" "$1"
}
td experiment create -n full >/dev/null || fail "experiment create"
td agent >/dev/null || fail "agent"
for _ in $(seq 1 20); do [ -f "$TRAINDESK_HOME/space.reserve" ] && break; sleep 0.2; done

echo "== the data directory's disk fills up while a job writes 20,000 records"
# The records go to a folder on another disk; the job waits for the go, then writes them.
mkdir -p "$work/out"
cat > "$work/records.sh" <<SH2
while [ ! -e "$work/go" ]; do sleep 0.1; done
awk 'BEGIN { for (i = 1; i <= 20000; i++) printf "{\"kind\": \"train\", \"step\": %d, \"loss\": 0.5}\n", i }' \\
  > "\$AZ_BATCHAI_STDOUTERR_DIR/metrics.jsonl"
SH2
cat > "$work/records.json" <<JSON
{ "properties": { "nodeCount": 1, "stdOutErrPathPrefix": "$work/out",
  "customToolkitSettings": { "commandLine": "sh $work/records.sh" } } }
JSON
td job create -e full -n records -c local -f "$work/records.json" >/dev/null || fail "job create"
for _ in $(seq 1 60); do [ "$(state records)" = running ] && break; sleep 0.5; done
[ "$(state records)" = running ] || fail "the job is $(state records)"
dd if=/dev/zero of="$disk/filler" bs=64k >/dev/null 2>&1
touch "$work/go"
for _ in $(seq 1 40); do [ "$(state records)" = succeeded ] && break; sleep 0.5; done
[ "$(state records)" = succeeded ] || fail "20 s after it ended the job is $(state records)"
for _ in $(seq 1 20); do td job show -e full -n records -o json | grep -q '"code": "DiskFull"' && break; sleep 0.5; done
shown=$(td job show -e full -n records -o json)
echo "$shown" | grep -q '"code": "DiskFull"' || fail "no DiskFull while the records wait: $shown (stored: $(stored records))"
echo "$shown" | grep -qF "$TRAINDESK_HOME" || fail "the error does not name the data directory: $shown"
echo "   while full: $(stored records) stored"

echo "== an agent restarted while the disk is full goes on waiting"
td agent stop >/dev/null || fail "agent stop"
td agent >/dev/null || fail "an agent does not start on the full disk"
sleep 2
rm -f "$disk/filler"
for _ in $(seq 1 60); do [ "$(stored records)" = "20000 20000" ] && break; sleep 0.5; done
[ "$(stored records)" = "20000 20000" ] || fail "after space returned: $(stored records) records stored (count, distinct), not 20000"
for _ in $(seq 1 20); do td job show -e full -n records -o json | grep -q '"code": "DiskFull"' || break; sleep 0.5; done
td job show -e full -n records -o json | grep -q '"code": "DiskFull"' && fail "the DiskFull error stays: $(td job show -e full -n records -o json)"
sleep 2
[ "$(stored records)" = "20000 20000" ] || fail "records stored twice: $(stored records)"

echo "== the same for text metrics: 20,000 progress lines while the disk is full (issue #38)"
# They were lost for good: no DiskFull, nothing stored after space returned.
cat > "$work/lines.sh" <<SH2
while [ ! -e "$work/go-lines" ]; do sleep 0.1; done
awk 'BEGIN { for (i = 1; i <= 20000; i++) printf "step=%d loss=0.5\n", i }'
SH2
cat > "$work/lines.json" <<JSON
{ "properties": { "nodeCount": 1, "stdOutErrPathPrefix": "$work/out",
  "customToolkitSettings": { "commandLine": "sh $work/lines.sh" } } }
JSON
td job create -e full -n lines -c local -f "$work/lines.json" >/dev/null || fail "job create lines"
for _ in $(seq 1 60); do [ "$(state lines)" = running ] && break; sleep 0.5; done
[ "$(state lines)" = running ] || fail "the job is $(state lines)"
dd if=/dev/zero of="$disk/filler" bs=64k >/dev/null 2>&1
touch "$work/go-lines"
for _ in $(seq 1 40); do [ "$(state lines)" = succeeded ] && break; sleep 0.5; done
[ "$(state lines)" = succeeded ] || fail "20 s after it ended the job is $(state lines)"
for _ in $(seq 1 20); do td job show -e full -n lines -o json | grep -q '"code": "DiskFull"' && break; sleep 0.5; done
td job show -e full -n lines -o json | grep -q '"code": "DiskFull"' \
  || fail "no DiskFull while the lines wait: $(td job show -e full -n lines -o json) (stored: $(stored lines))"
echo "   while full: $(stored lines) stored"
rm -f "$disk/filler"
for _ in $(seq 1 60); do [ "$(stored lines)" = "20000 20000" ] && break; sleep 0.5; done
[ "$(stored lines)" = "20000 20000" ] || fail "after space returned: $(stored lines) line records stored (count, distinct), not 20000"
wal=$(stat -c %s "$TRAINDESK_HOME/traindesk.db-wal" 2>/dev/null || echo 0)
[ "$wal" -le $(( 8 * 1024 * 1024 )) ] || fail "the write-ahead log keeps $wal bytes after the records were stored"

echo "== a job fills the disk it shares with the data directory"
cat > "$work/fills.json" <<JSON
{ "properties": { "nodeCount": 1, "stdOutErrPathPrefix": "$disk/jobs",
  "customToolkitSettings": { "commandLine": "head -c 100000000 /dev/zero" } } }
JSON
td job create -e full -n fills -c local -f "$work/fills.json" >/dev/null || fail "job create fills: $(cat "$work/fills.json")"
for _ in $(seq 1 60); do [ -f "$(td job show -e full -n fills --query jobDirectory 2>/dev/null)/exit_code" ] && break; sleep 0.5; done
jobdir=$(td job show -e full -n fills --query jobDirectory)
[ -f "$jobdir/exit_code" ] || fail "the job did not end: $(td job show -e full -n fills -o json)"
ended=$(date +%s)
for _ in $(seq 1 30); do [ "$(state fills)" = failed ] && break; sleep 0.5; done
[ "$(state fills)" = failed ] || fail "$(( $(date +%s) - ended )) s after its exit code the job is $(state fills)"
shown=$(td job show -e full -n fills -o json)
echo "$shown" | grep -q '"code": "DiskFull"' && echo "$shown" | grep -q "ENOSPC" && echo "$shown" | grep -qF "$jobdir" \
  || fail "the error does not say the disk is full: $shown"
echo "disk full ok"
