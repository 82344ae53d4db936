#!/usr/bin/env bash
# Issue #28, through the real CLI on the local cluster: a second share download never
# replaces a changed local file; keys that are FIFOs, devices or folders are refused at once;
# --query with -o table prints a table; `job metrics` prints readable times and streams a job
# of 300k records in constant memory; a queued or running job is not deleted (the terminate
# command is named); same-name creates at once give "already exists"; a damaged database
# (a flipped byte, a dropped table) is named with its path and the way back, and
# `traindesk doctor --restore` puts the agent's last good copy back.
set -u
traindesk=$1
work=$(mktemp -d "${TMPDIR:-/tmp}/td-surprises.XXXXXX")
export TRAINDESK_HOME=$work/home TRAINDESK_TRAINER_DIR=$(dirname "$traindesk") QT_QPA_PLATFORM=offscreen
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
cleanup() { "$traindesk" agent stop >/dev/null 2>&1; rm -rf "$work"; }
trap cleanup EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
td() { "$traindesk" "$@"; }
py=${TRAINDESK_TEST_PYTHON:-python3}
db=$TRAINDESK_HOME/traindesk.db

echo "== a second share download: same bytes unchanged, other bytes refused, --overwrite replaces"
td share create -n s --kind local --path "$work/share" >/dev/null || fail "share create"
echo "version 1" > "$work/model.txt"
td share file upload --share s --source "$work/model.txt" >/dev/null 2>&1 || fail "upload"
mkdir -p "$work/dl"
td share file download --share s --path model.txt --dest "$work/dl" >/dev/null 2>&1 || fail "first download"
cmp -s "$work/dl/model.txt" "$work/model.txt" || fail "first download differs"
td share file download --share s --path model.txt --dest "$work/dl" >"$work/dl2.out" 2>&1 || fail "same bytes: $(cat "$work/dl2.out")"
grep -q "unchanged" "$work/dl2.out" || fail "same bytes not said unchanged: $(cat "$work/dl2.out")"
echo "my local edits" > "$work/dl/model.txt"
td share file download --share s --path model.txt --dest "$work/dl" >/dev/null 2>"$work/dl3.err" \
  && fail "a changed local file was replaced"
grep -q "exists and differs from model.txt of share 's': refused, nothing was downloaded (--overwrite replaces it)" \
  "$work/dl3.err" || fail "refusal: $(cat "$work/dl3.err")"
[ "$(cat "$work/dl/model.txt")" = "my local edits" ] || fail "the local edits were lost"
[ -z "$(find "$work/dl" -name '*.traindesk-part')" ] || fail "part files left: $(find "$work/dl")"
td share file download --share s --path model.txt --dest "$work/dl" --overwrite >/dev/null 2>&1 || fail "--overwrite"
cmp -s "$work/dl/model.txt" "$work/model.txt" || fail "--overwrite did not replace"

echo "== special files as -k: refused at once, with a message that fits"
mkfifo "$work/fifo"
for key in "$work/fifo" /dev/zero /dev/null "$work"; do
  timeout 20 "$traindesk" cluster create -n k --nodes root@127.0.0.1:1 -k "$key" >/dev/null 2>"$work/key.err"
  rc=$?
  [ $rc != 124 ] || fail "-k $key blocked"
  [ $rc != 0 ] || fail "-k $key accepted"
  grep -q "the SSH key $key is .*, not a private key file" "$work/key.err" || fail "-k $key: $(cat "$work/key.err")"
  grep -q chmod "$work/key.err" && fail "-k $key: chmod advice: $(cat "$work/key.err")"
done

echo "== --query with -o table prints a table"
td cluster show -n local --query nodeStateCounts -o table >"$work/q.out" || fail "query -o table"
head -1 "$work/q.out" | grep -Eq '^Name +Value$' || fail "not a table: $(cat "$work/q.out")"
grep -Eq '^idleNodeCount +1$' "$work/q.out" || fail "no idle row: $(cat "$work/q.out")"
td cluster node list -c local --query '[].{node:name, state:state}' -o table >"$work/q2.out" || fail "projection -o table"
head -1 "$work/q2.out" | grep -Eq '^node +state$' || fail "projection table: $(cat "$work/q2.out")"
grep -Eq '^localhost +idle$' "$work/q2.out" || fail "projection row: $(cat "$work/q2.out")"
[ "$(td cluster show -n local --query name)" = local ] || fail "a bare string without -o"

echo "== a running job is not deleted; the terminate command is named"
cat > "$work/sleep.json" <<'JSON'
{ "properties": { "nodeCount": 1, "stdOutErrPathPrefix": "$AZ_BATCHAI_MOUNT_ROOT/local",
  "customToolkitSettings": { "commandLine": "sleep 120" } } }
JSON
td job create -e demo -n sleeper -c local -f "$work/sleep.json" >/dev/null 2>"$work/create.err" || fail "job create: $(cat "$work/create.err")"
td job delete -e demo -n sleeper 2>"$work/del.err" && fail "an active job was deleted"
grep -q "terminate it first (traindesk job terminate -w default -e demo -n sleeper), then delete it" "$work/del.err" \
  || fail "delete message: $(cat "$work/del.err")"
td job terminate -e demo -n sleeper >/dev/null 2>&1 || fail "terminate"
td job delete -e demo -n sleeper || fail "delete after terminate"

echo "== same-name creates at once: one succeeds, the others say 'already exists'"
for i in $(seq 1 8); do td workspace create -n race >"$work/race-$i.out" 2>"$work/race-$i.err" & done
wait
[ "$(grep -l . "$work"/race-*.out | wc -l)" = 1 ] || fail "$(grep -l . "$work"/race-*.out | wc -l) creates succeeded"
for f in "$work"/race-*.err; do
  [ -s "$f" ] || continue
  grep -qx "error: workspace 'race' already exists" "$f" || fail "race: $(cat "$f")"
done

# 300k records: held in memory they took about 2.3 KiB each (690 MiB here, 2288 MiB for the
# 1M of bench/cli/job_metrics_1m.sh), streamed the peak stays near the CLI's own 30 MiB.
records=300000
echo "== job metrics: readable times; $records records in constant memory"
job_id=$("$py" - "$db" "$records" <<'PY'
import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
(jid,) = c.execute("SELECT j.id FROM jobs j JOIN experiments e ON j.experiment_id = e.id WHERE e.name = 'demo' AND j.name = 'fashion-mnist-demo'").fetchone()
t0 = 1764155412.25
rows = ((jid, '{"kind":"train","time":%.3f,"rank":0,"epoch":%d,"step":%d,"loss":%.6f,"acc":%.6f}'
         % (t0 + i * 0.01, i // 10000, i, 2.0 / (1 + i * 1e-4), i / 1e6)) for i in range(int(sys.argv[2])))
c.executemany("INSERT INTO job_metrics(job_id, record) VALUES(?, ?)", rows)
c.commit()
print(jid)
PY
) || fail "cannot write $records records"
peak() {  # command... -> "<peak RSS in KiB> <seconds> <exit code>", the command's output to $PEAK_OUT
  "$py" - "$@" <<'PY'
import os, resource, subprocess, sys, time
start = time.monotonic()
with open(os.environ["PEAK_OUT"], "w") as out:
    rc = subprocess.run(sys.argv[1:], stdout=out, stderr=subprocess.STDOUT).returncode
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, round(time.monotonic() - start, 1), rc)
PY
}
export PEAK_OUT=$work/peak.out
for format in table csv json; do
  case $format in table) args=() ;; csv) args=(--csv) ;; json) args=(-o json) ;; esac
  read -r kib seconds rc <<< "$(peak "$traindesk" job metrics -e demo -j fashion-mnist-demo "${args[@]}")"
  [ "$rc" = 0 ] || fail "job metrics $format: $(tail -3 "$work/peak.out")"
  echo "job metrics ($format) of $records records: peak RSS $((kib / 1024)) MiB, $seconds s"
  [ "$kib" -lt $((100 * 1024)) ] || fail "job metrics $format took $((kib / 1024)) MiB for $records records"
  case $format in
    table)
      [ "$(grep -c ' train ' "$work/peak.out")" = "$records" ] || fail "table rows: $(grep -c ' train ' "$work/peak.out")"
      sed -n 3p "$work/peak.out" | grep -Eq '^2025-11-2[5-7] [0-9]{2}:[0-9]{2}:12\.250 +train +0 +0 +0 +2 +0$' \
        || fail "first row: $(sed -n 1,3p "$work/peak.out")" ;;
    # docs/METRICS.md "CSV": run,kind,time,epoch,step,global_step,loss,acc,val_loss,val_acc,lr,images_per_sec,rank
    csv) [ "$(sed -n 2p "$work/peak.out")" = "fashion-mnist-demo,train,1764155412.25,0,0,,2,0,,,,,0" ] \
           || fail "csv: $(sed -n 1,2p "$work/peak.out")" ;;
    json) "$py" -c 'import json,sys; n=int(sys.argv[2]); a=json.load(open(sys.argv[1])); assert len(a)==n and a[-1]["step"]==n-1, len(a)' \
            "$work/peak.out" "$records" || fail "json" ;;
  esac
done

echo "== a damaged database: its path and the way back, never a SQL message; doctor restores the last good copy"
td agent stop >/dev/null 2>&1
[ -f "$db.last-good" ] || fail "the agent kept no last good copy"
cp "$db" "$work/good.db"
# The first byte of page 2 (a b-tree page's type) made invalid.
printf '\x42' | dd of="$db" bs=1 seek=4096 conv=notrunc 2>/dev/null
td job list -e demo >/dev/null 2>"$work/damaged.err" && fail "a damaged database was used"
grep -q "error: the database $db is damaged (" "$work/damaged.err" || fail "damage message: $(cat "$work/damaged.err")"
grep -q "traindesk doctor --restore" "$work/damaged.err" || fail "no way back named: $(cat "$work/damaged.err")"
grep -Eq "Parameter count|Unable to|SQL" "$work/damaged.err" && fail "a SQL message: $(cat "$work/damaged.err")"
td doctor >"$work/doctor.out" 2>&1 && fail "doctor passed a damaged database"
grep -q "damaged" "$work/doctor.out" || fail "doctor: $(cat "$work/doctor.out")"
td doctor --restore >"$work/restore.out" 2>&1 || fail "restore: $(cat "$work/restore.out")"
ls "$db".damaged-* >/dev/null 2>&1 || fail "the damaged file was not kept"
td job list -e demo | grep -q fashion-mnist-demo || fail "the restored database has no demo job"
td doctor >/dev/null 2>&1 || fail "doctor after the restore"

echo "== a dropped table is an error, not an empty list"
"$py" -c 'import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.execute("DROP TABLE jobs"); c.commit()' "$db" || fail "drop"
td job list -e demo >"$work/dropped.out" 2>"$work/dropped.err" && fail "job list with the jobs table dropped: $(cat "$work/dropped.out")"
grep -q "the database $db is damaged (table jobs missing)" "$work/dropped.err" || fail "dropped: $(cat "$work/dropped.err")"
echo "ok"
