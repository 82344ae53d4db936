#!/usr/bin/env bash
# Nothing lost, nothing escapes, driven through the real CLI on the local cluster:
# concurrent and killed uploads, symbolic links out of a share, a script path with shell
# text in it, streams of files that are not there, oversized and NUL-bearing job files,
# sealed-looking secrets, control characters in tables, owner-only modes and a full disk.
set -u
traindesk=$1
work=$(mktemp -d "${TMPDIR:-/tmp}/td-safety.XXXXXX")
export TRAINDESK_HOME=$work/home TRAINDESK_TRAINER_DIR=$(dirname "$traindesk") QT_QPA_PLATFORM=offscreen
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
mounted=
cleanup() { [ -n "$mounted" ] && umount "$mounted" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
td() { "$traindesk" "$@"; }

td share create -n s --kind local --path "$work/share" >/dev/null || fail "share create"
td share directory create --share s -n up >/dev/null || fail "directory create"
parts() { find "$work/share" -name '*.traindesk-part' | wc -l; }

echo "== 20 uploads of one name at once: one whole file, no litter"
mkdir -p "$work/src"
for i in $(seq 1 20); do
  mkdir -p "$work/src/$i"
  head -c $((2 * 1024 * 1024)) /dev/urandom > "$work/src/$i/data.bin"
done
for i in $(seq 1 20); do
  td share file upload --share s --path up --source "$work/src/$i/data.bin" >/dev/null 2>"$work/up-$i.err" &
done
wait
ok=0
for i in $(seq 1 20); do cmp -s "$work/share/up/data.bin" "$work/src/$i/data.bin" && ok=$((ok + 1)); done
[ "$ok" = 1 ] || fail "the uploaded file equals $ok of the 20 sources (want exactly 1)"
[ "$(parts)" = 0 ] || fail "part files left behind: $(find "$work/share" -name '*.traindesk-part')"
[ "$(td share file list --share s --path up -o json | grep -c '"name"')" = 1 ] || fail "the listing shows more than the one file"

echo "== 20 uploads killed at random moments: the target is whole or absent, listings show no litter"
head -c $((64 * 1024 * 1024)) /dev/urandom > "$work/big.bin"
for i in $(seq 1 20); do
  "$traindesk" share file upload --share s --path killed --source "$work/big.bin" >/dev/null 2>&1 &
  pid=$!
  sleep "0.$((RANDOM % 40))"
  kill -9 $pid 2>/dev/null
  wait $pid 2>/dev/null
  if [ -e "$work/share/killed/big.bin" ]; then
    cmp -s "$work/share/killed/big.bin" "$work/big.bin" || fail "a killed upload left a partial big.bin"
  fi
done
names=$(td share file list --share s --path killed -o json | grep '"name"' | grep -v '"big.bin"')
[ -z "$names" ] || fail "the listing shows litter of killed uploads: $names"
# One killed for certain in the middle of the copy: its part file stays, hidden, until the
# next upload sweeps the part files of writers that are gone.
"$traindesk" share file upload --share s --path killed --source "$work/big.bin" >/dev/null 2>&1 &
pid=$!
for _ in $(seq 1 500); do
  [ -n "$(find "$work/share/killed" -name "*-$pid-*.traindesk-part" 2>/dev/null)" ] && break
  sleep 0.01
done
kill -9 $pid; wait $pid 2>/dev/null
[ -n "$(find "$work/share/killed" -name "*-$pid-*.traindesk-part")" ] || fail "the upload was not killed mid-copy"
echo after > "$work/after.txt"
td share file upload --share s --path killed --source "$work/after.txt" >/dev/null || fail "upload after the kills"
left=$(find "$work/share/killed" -name '*.traindesk-part')
[ -z "$left" ] || fail "part files of killed uploads were not swept: $left"

echo "== an upload onto a folder of the same name is refused, nothing left behind"
mkdir -p "$work/share/up/clash"
echo x > "$work/clash"
td share file upload --share s --path up --source "$work/clash" >/dev/null 2>"$work/clash.err" && fail "upload onto a folder succeeded"
grep -q "is a folder" "$work/clash.err" || fail "no clear message: $(cat "$work/clash.err")"
[ "$(parts)" = 0 ] || fail "the refused upload left a part file"

echo "== symbolic links do not lead out of a share"
mkdir -p "$work/outside"
echo secret > "$work/outside/secret.txt"
ln -s "$work/outside" "$work/share/evil"
ln -s "$work/outside/secret.txt" "$work/share/leak"
td share file list --share s --path evil >/dev/null 2>"$work/e1" && fail "listing through a link out of the share"
grep -q "outside share" "$work/e1" || fail "list: no message naming the share: $(cat "$work/e1")"
td share file download --share s --path leak --dest "$work/dl" >/dev/null 2>"$work/e2" && fail "download through a link out of the share"
grep -q "outside share" "$work/e2" || fail "download: $(cat "$work/e2")"
td share file upload --share s --path evil --source "$work/clash" >/dev/null 2>"$work/e3" && fail "upload through a link out of the share"
[ ! -e "$work/outside/clash" ] || fail "the upload wrote outside the share"

echo "== a script path is one word: no shell text in it runs"
cat > "$work/inject.json" <<JSON
{ "properties": { "nodeCount": 1, "stdOutErrPathPrefix": "$work/jobs",
  "horovodSettings": { "pythonScriptFilePath": "x.py; touch $work/INJ; echo" } } }
JSON
td job create -e demo -n inject -c local -f "$work/inject.json" >/dev/null || fail "job create"
timeout 120 "$traindesk" job wait -e demo -n inject >/dev/null 2>&1 && fail "a job whose script does not exist succeeded"
[ ! -e "$work/INJ" ] || fail "text in pythonScriptFilePath ran as a command"

echo "== streams of files that are not there end at once"
# Against a plain query of the same job: a stream that waited for the file (or followed it) would
# take its poll interval or forever; a loaded machine only slows both alike.
start=$(date +%s%N)
td job show -e demo -n inject >/dev/null || fail "job show inject"
base_ms=$(( ($(date +%s%N) - start) / 1000000 ))
start=$(date +%s%N)
timeout 60 "$traindesk" job file stream -e demo -j inject -f nosuch.txt >/dev/null 2>"$work/s1"; rc=$?
ms=$(( ($(date +%s%N) - start) / 1000000 ))
echo "stream of a missing file ended in $ms ms (exit $rc; job show took $base_ms ms)"
[ $rc != 124 ] || fail "stream of a missing file never ended"
[ $rc != 0 ] || fail "stream of a missing file exited 0"
[ "$ms" -lt $((3 * base_ms + 2000)) ] || fail "stream of a missing file took $ms ms, job show $base_ms ms: it waited"
grep -q "no file nosuch.txt" "$work/s1" || fail "stream: $(cat "$work/s1")"
td job file stream -e demo -j inject -f ../../../../etc/passwd >/dev/null 2>&1 && fail "stream of a path out of stdouterr"

echo "== links in a job's folders lead nowhere"
jobdir=$(td job show -e demo -n inject --query jobDirectory)
[ -d "$jobdir/stdouterr" ] || fail "no job directory: $jobdir"
ln -s /etc/passwd "$jobdir/stdouterr/leak.txt"
ln -s /etc "$jobdir/stdouterr/etc-link"
td job file stream -e demo -j inject -f leak.txt >"$work/s2.out" 2>"$work/s2" && fail "stream through a link"
grep -q "leak.txt is a symbolic link: refused" "$work/s2" || fail "stream of a link: $(cat "$work/s2")"
[ ! -s "$work/s2.out" ] || fail "stream printed what the link points to"
td job file list -e demo -j inject -p etc-link >"$work/l2.out" 2>"$work/l2" && fail "list through a link out of the job"
grep -qF "stdouterr/etc-link of job 'inject' leads out of the job directory (to /etc): refused" "$work/l2" \
  || fail "list through a link: $(cat "$work/l2")"
rm "$jobdir/stdouterr/leak.txt" "$jobdir/stdouterr/etc-link"

echo "== oversized and NUL-bearing job files are refused cleanly"
out=$(timeout 20 "$traindesk" job validate -f /dev/zero 2>&1); rc=$?
[ $rc = 1 ] || fail "validate /dev/zero exited $rc: $out"
echo "$out" | grep -q "larger than 16 MiB" || fail "validate /dev/zero: $out"
python3 -c "import json; print(json.dumps({'properties': {'nodeCount': 1, 'customToolkitSettings': {'commandLine': 'x' * 50000000}}}))" > "$work/big.json"
out=$(td job validate -f "$work/big.json" 2>&1) && fail "a 50 MB job.json validated"
echo "$out" | grep -q "larger than 16 MiB" || fail "50 MB job.json: $out"
printf '{"properties": {"nodeCount": 1, "customToolkitSettings": {"commandLine": "echo a\0b"}}}' > "$work/nul.json"
out=$(td job validate -f "$work/nul.json" 2>&1) && fail "a NUL in a string validated"
echo "$out" | grep -q "properties.customToolkitSettings.commandLine" || fail "NUL: no JSON path: $out"
python3 -c "print('{\"properties\": ' + '[' * 5000 + ']' * 5000 + '}')" > "$work/deep.json"
out=$(td job validate -f "$work/deep.json" 2>&1) && fail "a job.json nested 5000 deep validated"
echo "$out" | grep -q "expected at most 1024 levels of nesting" || fail "nesting: $out"
cat > "$work/sealed.json" <<'JSON'
{ "properties": { "nodeCount": 1, "customToolkitSettings": {"commandLine": "true"},
  "secrets": [{"name": "TOKEN", "value": "traindesk-sealed:v1:AAAA"}] } }
JSON
td job validate -f "$work/sealed.json" >/dev/null 2>&1 && fail "validate accepts a damaged sealed value that create refuses"
td job create -e demo -n sealed -c local -f "$work/sealed.json" >/dev/null 2>&1 && fail "create accepts a damaged sealed value"
# `job show -o json` shows the job's whole resource, its secrets as <secret> (#40).
cat > "$work/secret.json" <<'JSON'
{ "properties": { "nodeCount": 1, "customToolkitSettings": {"commandLine": "true"}, "stdOutErrPathPrefix": "/tmp",
  "secrets": [{"name": "TOKEN", "value": "hunter2-in-clear"}] } }
JSON
td job create -e demo -n withsecret -c local -f "$work/secret.json" --draft >/dev/null || fail "create with a secret"
shown=$(td job show -e demo -n withsecret -o json)
echo "$shown" | grep -q "hunter2" && fail "job show prints a secret: $shown"
[ "$(td job show -e demo -n withsecret --query 'secrets[0].value')" = "<secret>" ] || fail "the secret is not shown masked: $shown"

echo "== control characters in tables are escaped"
td share create -n nl --kind local --path "$work/a
b" >/dev/null || fail "share create with a newline in its path"
td share list | grep -q 'a\\nb' || fail "the newline is not escaped in the table: $(td share list)"
td share create -n esc --kind local --path "$work/e$(printf '\033')[31mx" >/dev/null || fail "share create with an escape in its path"
td share list | grep -qF 'e\x1b[31mx' || fail "the escape sequence reached the terminal: $(td share list | od -c | head)"
td share list | grep -q "$(printf '\033')" && fail "a raw escape character in the table"

echo "== owner-only data directory and database"
[ "$(stat -c %a "$TRAINDESK_HOME")" = 700 ] || fail "data directory mode $(stat -c %a "$TRAINDESK_HOME")"
db=$(find "$TRAINDESK_HOME" -name '*.db' | head -1)
[ "$(stat -c %a "$db")" = 600 ] || fail "database mode $(stat -c %a "$db")"

echo "== a full disk is named as such"
if [ "$(id -u)" = 0 ] && mkdir -p "$work/full" && mount -t tmpfs -o size=1m tmpfs "$work/full" 2>/dev/null; then
  mounted=$work/full
  td share create -n full --kind local --path "$work/full/share" >/dev/null || fail "share on tmpfs"
  head -c $((4 * 1024 * 1024)) /dev/urandom > "$work/4m.bin"
  td share file upload --share full --path x --source "$work/4m.bin" >/dev/null 2>"$work/full.err" && fail "a 4 MiB upload fit into 1 MiB"
  grep -q "no space left on device" "$work/full.err" || fail "full disk: $(cat "$work/full.err")"
  [ -z "$(find "$work/full" -name '*.traindesk-part')" ] || fail "the failed upload left its part file"
  td job list -e demo >/dev/null || fail "the database broke"
  # The data directory itself on a full disk: the error says so, and nothing is lost.
  # (The agent keeps the database open; stopped, it checkpoints its write-ahead log.)
  td agent stop >/dev/null || fail "agent stop"
  # It returns once the agent has closed the database: the last connection's close folds the
  # write-ahead log in and removes it (a copy without it would lose the newest rows).
  [ ! -e "$TRAINDESK_HOME/traindesk.db-wal" ] || fail "agent stop returned before the agent closed its database"
  rm -f "$TRAINDESK_HOME/space.reserve"  # the agent's reserve (4 MiB) would not fit; it makes it again
  cp -r "$TRAINDESK_HOME" "$work/full/home" 2>/dev/null
  rm -f "$work/full/home"/*.db-wal "$work/full/home"/*.db-shm
  TRAINDESK_HOME=$work/full/home "$traindesk" job list -e demo >/dev/null 2>&1 || fail "the copied data directory does not open"
  dd if=/dev/zero of="$work/full/filler" bs=64k >/dev/null 2>&1
  out=$(TRAINDESK_HOME=$work/full/home "$traindesk" job show -e demo -n inject 2>&1) && fail "a full data disk went unnoticed"
  echo "$out" | grep -q "no space left on device" || fail "full data directory: $out"
  rm -f "$work/full/filler"
  TRAINDESK_HOME=$work/full/home "$traindesk" job show -e demo -n inject >/dev/null || fail "the database was damaged by the full disk"
  # A job that fills its own disk: it ends with its exit code and the error says the disk is full.
  umount "$work/full" && mounted=
  mkdir -p "$work/jobdisk" && mount -t tmpfs -o size=2m tmpfs "$work/jobdisk" && mounted=$work/jobdisk
  cat > "$work/filler.json" <<JSON
{ "properties": { "nodeCount": 1, "stdOutErrPathPrefix": "$work/jobdisk",
  "customToolkitSettings": { "commandLine": "head -c 8000000 /dev/zero" } } }
JSON
  td job create -e demo -n filler -c local -f "$work/filler.json" >/dev/null || fail "create filler"
  timeout 60 "$traindesk" job wait -e demo -n filler >/dev/null 2>&1
  shown=$(td job show -e demo -n filler -o json)
  echo "$shown" | grep -q '"code": "DiskFull"' || fail "a job that filled its disk: $shown"
  echo "$shown" | grep -q '"exitCode": 1' || fail "the exit code of a job that filled its disk was lost: $shown"
else
  echo "(skipped: mounting a tmpfs needs root)"
fi
echo "PASS: data safety"
