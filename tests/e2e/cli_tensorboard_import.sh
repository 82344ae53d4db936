#!/usr/bin/env bash
# Issue #44: `traindesk runs import DIR` makes every run of a TensorBoard folder a run of an
# experiment, read in place. Event files come from the test's own writer
# (tests/data/tensorboard/tb_writer.py, written from TensorBoard's formats, not TrainDesk's
# reader), and the imported runs must give back exactly its points (runs export): across
# several files and runs, a TF2 tensor scalar, a folder name that is not UTF-8; a file that
# grows is read from where the last import stopped (only the new bytes: counted); a torn
# record at the end waits for its other half; a damaged record is named with its file and
# offset; a run folder removed, and the whole folder removed under --watch, are named; and
# nothing in the folder changes (every file's checksum, size and time before and after).
set -u
traindesk=$1
here=$(cd "$(dirname "$0")" && pwd)
writer="$here/../data/tensorboard/tb_writer.py"
work=$(mktemp -d "${TMPDIR:-/tmp}/td-tbimport.XXXXXX")
export TRAINDESK_HOME=$work/home QT_QPA_PLATFORM=offscreen
watch_pid=
cleanup() { [ -n "$watch_pid" ] && kill "$watch_pid" 2>/dev/null; "$traindesk" agent stop >/dev/null 2>&1; rm -rf "$work"; }
trap cleanup EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
td() { "$traindesk" "$@"; }
py() { python3 "$@"; }

logs=$work/logs
bad=$(printf 'bad\377')        # a run folder whose name is not UTF-8
mkdir -p "$logs/lr_0.1/seed1" "$logs/lr_0.01" "$logs/$bad" "$logs/empty/deeper" "$logs/lr_0.1/seed1/checkpoints"
exp=$work/expected.tsv
: > "$exp"
w() { py "$writer" write "$@" "$exp" || fail "writer: $*"; }
w "$logs/lr_0.1/seed1/events.out.tfevents.1700000000.host.1.0" "lr_0.1/seed1" 0 50
w "$logs/lr_0.1/seed1/events.out.tfevents.1700000100.host.1.1.v2" "lr_0.1/seed1" 50 25
w "$logs/lr_0.01/events.out.tfevents.1700000000.host.2.0" "lr_0.01" 0 40
w "$logs/$bad/events.out.tfevents" 'bad\xff' 0 10
w "$logs/events.out.tfevents.1700000000.root" "." 0 5
echo "not an event file" > "$logs/lr_0.01/notes.txt"
echo "weights" > "$logs/lr_0.1/seed1/checkpoints/model.pt"

# What the folder is: every file's name, size, modification time and checksum.
fingerprint() { (cd "$logs" && find . -printf '%p %s %T@ %y\n' | sort && find . -type f -print0 | sort -z | xargs -0 sha256sum); }

# The exported CSV against the writer's rows: the same points, exactly (run, series, step,
# wall time, value as the float32 written, file).
check_points() {
    td runs export -e "${1:-logs}" --csv-raw > "$work/export.csv" || fail "runs export: $(cat "$work/export.csv")"
    py - "$work/export.csv" "$exp" "${2:-}" <<'PY' || fail "the imported points differ from the files' (above)"
import csv, sys
export, expected, skip = sys.argv[1], sys.argv[2], sys.argv[3]
got = []
with open(export, newline="") as f:
    rows = list(csv.reader(f))
assert rows[0] == ["run", "series", "step", "time", "value", "file"], rows[0]
for r in rows[1:]:
    got.append((r[0], r[1], int(r[2]), float(r[3]), float(r[4]), r[5]))
want = []
for line in open(expected):
    run, series, step, wall, value, name = line.rstrip("\n").split("\t")
    if skip and run == skip:
        continue
    want.append((run, series, int(step), float(wall), float(value), name))
if sorted(got) != sorted(want):
    print("got %d points, want %d" % (len(got), len(want)))
    print("only exported:", sorted(set(got) - set(want))[:5])
    print("only written:", sorted(set(want) - set(got))[:5])
    sys.exit(1)
PY
}

# `runs import` (not --watch, whose folder the test writes to meanwhile): the folder is the
# same before and after each.
imp() {
    local b rc
    b=$(fingerprint)
    td runs import "$logs" "$@"; rc=$?
    [ "$(fingerprint)" = "$b" ] || fail "runs import $* changed the folder"
    return $rc
}
before=$(fingerprint)

echo "== import: every run, named as TensorBoard names it"
imp -o json > "$work/import.json" 2> "$work/import.err" || fail "runs import: $(cat "$work/import.err")"
py - "$work/import.json" <<'PY' || fail "import: $(cat "$work/import.json")"
import json, sys
o = json.load(open(sys.argv[1]))
assert o["experiment"] == "logs" and o["runs"] == 4 and o["added"] == 4, o
assert o["points"] == 2 * (50 + 25 + 40 + 10 + 5), o
PY
td job list -e logs -o json > "$work/jobs.json" || fail "job list"
py - "$work/jobs.json" <<'PY' || fail "the runs' names: $(cat "$work/jobs.json")"
import json, sys
names = sorted(j["name"] for j in json.load(open(sys.argv[1])))
assert names == sorted([".", "bad\\xff", "lr_0.01", "lr_0.1/seed1"]), names
PY
td job list -e logs | grep -q 'lr_0.1/seed1 .*imported' || fail "job list does not say the run is imported: $(td job list -e logs)"
check_points
# `job file list` of an imported run: its event files where they are, as far as they were read.
td job file list -e logs -j 'lr_0.1/seed1' -o json > "$work/files.json" || fail "job file list of an imported run: $(cat "$work/files.json")"
py - "$work/files.json" "$logs/lr_0.1/seed1" <<'PY' || fail "job file list: $(cat "$work/files.json")"
import json, os, sys
files = {f["name"]: f for f in json.load(open(sys.argv[1]))}
folder = sys.argv[2]
want = sorted(n for n in os.listdir(folder) if n.startswith("events.out.tfevents"))
assert sorted(files) == want, (sorted(files), want)
for name, f in files.items():
    size = os.path.getsize(os.path.join(folder, name))
    assert f["contentLength"] == size and f["bytesRead"] == size and f["problem"] == "", f
assert sorted(f["points"] for f in files.values()) == [2 * 25, 2 * 50], files
PY
td job file list -e logs -j 'lr_0.1/seed1' -p x 2> "$work/files.err" && fail "job file list -p of an imported run succeeded"
grep -q "run 'lr_0.1/seed1' was imported from the TensorBoard folder $logs/lr_0.1/seed1" "$work/files.err" \
    || fail "job file list -p does not say why: $(cat "$work/files.err")"
td job metrics -e logs -j 'lr_0.1/seed1' --scalars > "$work/scalars.txt" || fail "job metrics --scalars: $(cat "$work/scalars.txt")"
grep -q 'metrics/acc' "$work/scalars.txt" && grep -q 'loss' "$work/scalars.txt" || fail "--scalars: $(cat "$work/scalars.txt")"
td job metrics -e logs -j 'bad\xff' --series loss --csv > "$work/series.csv" || fail "--series of the run named in bytes"
[ "$(grep -c . "$work/series.csv")" = 11 ] || fail "--series loss: $(cat "$work/series.csv")"
[ "$(fingerprint)" = "$before" ] || fail "reading the imported runs changed the folder"

echo "== again, nothing new: nothing read"
imp -o json > "$work/again.json" || fail "import again"
py -c 'import json,sys; o=json.load(open(sys.argv[1])); assert o["added"]==0 and o["bytes"]==0 and o["points"]==0, o' "$work/again.json" \
    || fail "an unchanged folder was read again: $(cat "$work/again.json")"

echo "== a file that grows: only its new bytes are read"
grown="$logs/lr_0.01/events.out.tfevents.1700000000.host.2.0"
size0=$(stat -c %s "$grown")
w "$grown" "lr_0.01" 40 30
size1=$(stat -c %s "$grown")
imp -o json > "$work/grown.json" || fail "import after growth"
py -c 'import json,sys; o=json.load(open(sys.argv[1])); assert o["bytes"]==int(sys.argv[2]) and o["points"]==60, o' \
    "$work/grown.json" $((size1 - size0)) || fail "not just the $((size1 - size0)) new bytes were read: $(cat "$work/grown.json")"
check_points

echo "== a torn record waits for its other half"
py "$writer" torn "$grown" "$work/rest.bin" || fail "writer torn"
imp -o json > "$work/torn.json" 2> "$work/torn.err" || fail "import of a torn record: $(cat "$work/torn.err")"
py -c 'import json,sys; o=json.load(open(sys.argv[1])); assert o["points"]==0 and o["problems"]==[], o' "$work/torn.json" \
    || fail "a torn record: $(cat "$work/torn.json")"
cat "$work/rest.bin" >> "$grown"
imp -o json > "$work/whole.json" || fail "import of the completed record"
py -c 'import json,sys; o=json.load(open(sys.argv[1])); assert o["points"]==1, o' "$work/whole.json" \
    || fail "the completed record: $(cat "$work/whole.json")"
printf 'lr_0.01\tloss\t9999\t1700009999.0\t0.5\t%s\n' "$(basename "$grown")" >> "$exp"
check_points

echo "== a damaged record is named with its file and offset, once"
damaged="$logs/lr_0.1/seed1/events.out.tfevents.1700000100.host.1.1.v2"
offset=$(py "$writer" damage "$damaged") || fail "writer damage"
w "$damaged" "lr_0.1/seed1-after-damage" 75 3   # after the damage: never read
imp -o json > "$work/damaged.json" 2> "$work/damaged.err" || fail "import of a damaged file: $(cat "$work/damaged.err")"
grep -q "run lr_0.1/seed1: $damaged: the record at offset $offset fails its CRC" "$work/damaged.err" \
    || fail "the damage is not named with its file and offset $offset: $(cat "$work/damaged.err")"
imp 2> "$work/damaged2.err" >/dev/null || fail "import after the damage"
grep -q "offset $offset" "$work/damaged2.err" && fail "the damage was named again: $(cat "$work/damaged2.err")"
td job metrics -e logs -j 'lr_0.1/seed1' --scalars 2>&1 | grep -q "offset $offset" \
    || fail "job metrics does not name the damage: $(td job metrics -e logs -j 'lr_0.1/seed1' --scalars 2>&1)"
check_points logs "lr_0.1/seed1-after-damage"

echo "== a run folder removed: named, what was read is kept"
cp -r "$logs/lr_0.01" "$work/lr_0.01.kept"
rm -rf "$logs/lr_0.01"
imp 2> "$work/gone.err" >/dev/null || fail "import with a run folder gone: $(cat "$work/gone.err")"
grep -q "run lr_0.01: its folder $logs/lr_0.01 is gone" "$work/gone.err" || fail "the gone folder is not named: $(cat "$work/gone.err")"
td job list -e logs | grep -q 'lr_0.01 ' || fail "the gone run's record was dropped"
cp -r "$work/lr_0.01.kept" "$logs/lr_0.01"

echo "== --watch follows the files, and new runs"
td runs import "$logs" --watch > "$work/watch.out" 2> "$work/watch.err" &
watch_pid=$!
wait_for() {  # until the command succeeds (the watch has read it), at most 120 s
    for _ in $(seq 1200); do "$@" && return 0; kill -0 "$watch_pid" 2>/dev/null || return 1; sleep 0.1; done; return 1
}
wait_for grep -q 'into experiment logs' "$work/watch.out" || fail "watch did not start: $(cat "$work/watch.err")"
w "$logs/lr_0.01/events.out.tfevents.1700000000.host.2.0" "lr_0.01" 70 5
mkdir -p "$logs/later"
w "$logs/later/events.out.tfevents.1700000500.host.3.0" "later" 0 4
wait_for sh -c "'$traindesk' runs export -e logs --csv-raw | grep -q '^later,loss,3,'" || fail "watch did not read the new run: $(cat "$work/watch.err")"
wait_for sh -c "'$traindesk' runs export -e logs --csv-raw | grep -q '^lr_0.01,loss,74,'" || fail "watch did not follow the file"
kill "$watch_pid"; wait "$watch_pid" 2>/dev/null; watch_pid=
check_points logs "lr_0.1/seed1-after-damage"

echo "== the folder removed under --watch: named, the watch ends"
mkdir -p "$work/short/run"
py "$writer" write "$work/short/run/events.out.tfevents.1" run 0 3 "$work/short.tsv" || fail "writer"
td runs import "$work/short" -e short --watch > "$work/short.out" 2> "$work/short.err" &
watch_pid=$!
wait_for grep -q 'into experiment short' "$work/short.out" || fail "watch did not start: $(cat "$work/short.err")"
rm -rf "$work/short"
wait "$watch_pid"; rc=$?; watch_pid=
[ "$rc" = 1 ] || fail "the watch went on without its folder (exit $rc)"
grep -q "cannot read folder $work/short: No such file or directory" "$work/short.err" || fail "the gone folder is not named: $(cat "$work/short.err")"

echo "== deleting an imported run deletes its record, never its files"
td job delete -e logs -n later >/dev/null || fail "job delete of an imported run"
[ -f "$logs/later/events.out.tfevents.1700000500.host.3.0" ] || fail "deleting the run deleted its file"

echo PASS
