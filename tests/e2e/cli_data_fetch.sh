#!/usr/bin/env bash
# `traindesk data fetch` against the test's own HTTP server on 127.0.0.1 (range_http_server.py),
# which serves small archives written here in the published layouts: a fetch, a second fetch
# that does nothing, a corrupted archive refused with nothing left, a broken transfer resumed,
# a killed fetch resumed by the next one, Ctrl-C, a stalled server given up and resumed, two fetches at
# once giving one copy, the server down (the error names the address and how to use --from),
# --from, the published checksums in force without a test checksum file, and the trainer
# training one epoch on what was fetched.
set -u
traindesk=$1
here=$(cd "$(dirname "$0")" && pwd)
py=${TRAINDESK_TEST_PYTHON:-/usr/bin/python3}
work=$(mktemp -d "${TMPDIR:-/tmp}/td-fetch.XXXXXX")
export TRAINDESK_HOME=$work/home QT_QPA_PLATFORM=offscreen PYTHONDONTWRITEBYTECODE=1
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
server=
stop_server() { [ -n "$server" ] && kill "$server" 2>/dev/null && wait "$server" 2>/dev/null; server=; }
cleanup() { stop_server; [ -n "${KEEP_WORK:-}" ] || rm -rf "$work"; }
trap cleanup EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
td() { "$traindesk" "$@"; }
share=$work/share
archive=cifar-10-python.tar.gz
url_path=/cifar10/$archive

echo "== the mirror: a small CIFAR-10 python archive and Fashion-MNIST's four IDX files"
mkdir -p "$work/mirror/cifar10" "$work/mirror/fashion-mnist"
PYTHONPATH=$here/../trainer "$py" - "$work" <<'PY' || fail "cannot write the test archives"
import gzip, os, struct, sys
import numpy as np
import cifar_sets as cs
work = sys.argv[1]
rng = np.random.default_rng(5)
s = cs.CifarSet(rng, hundred=False, train_files=5, per_file=100, n_test=100)
cs.write_archive(s, os.path.join(work, "mirror/cifar10/cifar-10-python.tar.gz"), True, os.path.join(work, "scratch"))
for split, n in (("train", 60), ("t10k", 10)):
    images = rng.integers(0, 256, size=(n, 28, 28), dtype=np.uint8)
    labels = rng.integers(0, 10, size=n, dtype=np.uint8)
    with gzip.open(os.path.join(work, f"mirror/fashion-mnist/{split}-images-idx3-ubyte.gz"), "wb") as f:
        f.write(struct.pack(">IIII", 2051, n, 28, 28) + images.tobytes())
    with gzip.open(os.path.join(work, f"mirror/fashion-mnist/{split}-labels-idx1-ubyte.gz"), "wb") as f:
        f.write(struct.pack(">II", 2049, n) + labels.tobytes())
PY
(cd "$work/mirror" && md5sum */* > "$work/MD5SUMS") || fail "md5sum"
served=$work/mirror/cifar10/$archive
size=$(stat -c %s "$served")
[ "$size" -gt 1000000 ] || fail "the test archive is only $size bytes"

start_server() {
  stop_server
  rm -f "$work/port"
  "$py" "$here/range_http_server.py" "$work/mirror" --port-file "$work/port" --log "$work/requests.log" "$@" &
  server=$!
  for _ in $(seq 1 100); do [ -s "$work/port" ] && break; sleep 0.1; done
  [ -s "$work/port" ] || fail "the test server did not start"
  port=$(cat "$work/port")
  export TRAINDESK_DATASET_MIRROR=http://127.0.0.1:$port/
}
requests() { grep -c "^GET $url_path " "$work/requests.log" 2>/dev/null || true; }
litter() { find "$share" \( -name '*.traindesk-part' -o -name '.traindesk-dataset.lock' \) 2>/dev/null; }

export TRAINDESK_DATASET_CHECKSUMS=$work/MD5SUMS
td share create -n s --kind local --path "$share" >/dev/null || fail "share create"
start_server

echo "== fetch: the archive lands whole in the share with a manifest"
td data fetch cifar10 --share s >"$work/f1.out" 2>"$work/f1.err" || fail "fetch: $(cat "$work/f1.err")"
cmp -s "$share/cifar10/$archive" "$served" || fail "the fetched archive differs from the served one"
grep -q "downloaded" "$work/f1.out" || fail "no 'downloaded' in: $(cat "$work/f1.out")"
grep -q '"source": "http://127.0.0.1:'"$port$url_path"'"' "$share/cifar10/traindesk-dataset.json" \
  || fail "the manifest does not record the address: $(cat "$share/cifar10/traindesk-dataset.json")"
grep -q "\"md5\": \"$(md5sum < "$served" | cut -d' ' -f1)\"" "$share/cifar10/traindesk-dataset.json" || fail "manifest md5"
grep -q "fetch: http://127.0.0.1:$port$url_path 100%" "$work/f1.err" || fail "no progress on stderr: $(cat "$work/f1.err")"
[ -z "$(litter)" ] || fail "litter after a fetch: $(litter)"
[ "$(requests)" = 1 ] || fail "$(requests) requests for one fetch"

echo "== a second fetch does nothing"
before=$(stat -c %Y.%i "$share/cifar10/$archive" "$share/cifar10/traindesk-dataset.json")
td data fetch cifar10 --share s -o json >"$work/f2.out" 2>"$work/f2.err" || fail "second fetch: $(cat "$work/f2.err")"
grep -q '"changed": false' "$work/f2.out" || fail "the second fetch changed something: $(cat "$work/f2.out")"
grep -q '"action": "present"' "$work/f2.out" || fail "the second fetch did not find the file: $(cat "$work/f2.out")"
[ "$(requests)" = 1 ] || fail "the second fetch downloaded again"
[ "$before" = "$(stat -c %Y.%i "$share/cifar10/$archive" "$share/cifar10/traindesk-dataset.json")" ] || fail "files rewritten"

echo "== a corrupted archive is refused and nothing is left"
cp "$served" "$work/good.tgz"
printf '\x55\xaa' | dd of="$served" bs=1 seek=$((size / 2)) conv=notrunc status=none
td data fetch cifar10 --share s --path bad >/dev/null 2>"$work/bad.err" && fail "a corrupted archive was accepted"
grep -q "http://127.0.0.1:$port$url_path has md5 .*, not the published $(md5sum < "$work/good.tgz" | cut -d' ' -f1): refused, nothing kept" \
  "$work/bad.err" || fail "no clear checksum message: $(cat "$work/bad.err")"
[ ! -e "$share/bad" ] || fail "the refused fetch left $(find "$share/bad")"
cp "$work/good.tgz" "$served"

echo "== a broken transfer is resumed with a Range request"
start_server --cut-after 300000
td data fetch cifar10 --share s --path cut >/dev/null 2>"$work/cut.err" || fail "fetch with a broken transfer: $(cat "$work/cut.err")"
grep -q "^GET $url_path bytes=300000-$" "$work/requests.log" || fail "no ranged request: $(cat "$work/requests.log")"
cmp -s "$share/cut/$archive" "$served" || fail "the resumed archive differs"
[ -z "$(litter)" ] || fail "litter after a resumed fetch: $(litter)"

echo "== a killed fetch is continued by the next one"
start_server --stall-after 500000
"$traindesk" data fetch cifar10 --share s --path killed >/dev/null 2>&1 &
fetcher=$!
part=$share/killed/.$archive.download.traindesk-part
for _ in $(seq 1 200); do [ "$(stat -c %s "$part" 2>/dev/null)" = 500000 ] && break; sleep 0.1; done
[ "$(stat -c %s "$part" 2>/dev/null)" = 500000 ] || fail "the part file did not reach 500000 bytes"
{ kill -9 $fetcher; wait $fetcher; } 2>/dev/null
[ ! -e "$share/killed/$archive" ] || fail "a killed fetch left the archive under its name"
start_server
td data fetch cifar10 --share s --path killed >/dev/null 2>"$work/killed.err" || fail "fetch after a kill: $(cat "$work/killed.err")"
grep -q "^GET $url_path bytes=500000-$" "$work/requests.log" || fail "the next fetch did not continue: $(cat "$work/requests.log")"
cmp -s "$share/killed/$archive" "$served" || fail "the continued archive differs"
[ -z "$(litter)" ] || fail "litter after a continued fetch: $(litter)"

echo "== Ctrl-C stops a fetch at once and keeps what it downloaded for the next one"
start_server --stall-after 400000
"$traindesk" data fetch cifar10 --share s --path interrupted >/dev/null 2>"$work/int.err" &
fetcher=$!
part=$share/interrupted/.$archive.download.traindesk-part
for _ in $(seq 1 200); do [ "$(stat -c %s "$part" 2>/dev/null)" = 400000 ] && break; sleep 0.1; done
kill -INT $fetcher
SECONDS=0
wait $fetcher && fail "an interrupted fetch succeeded: $(cat "$work/int.err")"
[ "$SECONDS" -lt 5 ] || fail "the fetch took $SECONDS s to stop after Ctrl-C"
grep -q "cancelled; the 400000 bytes downloaded so far stay in $part" "$work/int.err" || fail "$(cat "$work/int.err")"
[ ! -e "$share/interrupted/$archive" ] && [ -e "$part" ] || fail "after Ctrl-C: $(ls -A "$share/interrupted")"

echo "== a server that stops sending is given up after --timeout, and the transfer resumed"
start_server --stall-after 200000
SECONDS=0
td data fetch cifar10 --share s --path slow --timeout 2 >/dev/null 2>"$work/slow.err" || fail "stalled fetch: $(cat "$work/slow.err")"
grep -q "no data for 2 s" "$work/slow.err" || fail "no timeout message: $(cat "$work/slow.err")"
grep -q "^GET $url_path bytes=200000-$" "$work/requests.log" || fail "no ranged request after the timeout"
cmp -s "$share/slow/$archive" "$served" || fail "the archive after a timeout differs"
[ "$SECONDS" -lt 30 ] || fail "the stalled fetch took $SECONDS s"

echo "== two fetches at once: one download, one copy"
start_server
n=$(requests)
td data fetch cifar10 --share s --path twice -o json >"$work/t1.out" 2>"$work/t1.err" &
a=$!
td data fetch cifar10 --share s --path twice -o json >"$work/t2.out" 2>"$work/t2.err" &
b=$!
wait $a || fail "first concurrent fetch: $(cat "$work/t1.err")"
wait $b || fail "second concurrent fetch: $(cat "$work/t2.err")"
[ "$(requests)" = $((n + 1)) ] || fail "two fetches at once downloaded $(($(requests) - n)) times"
cat "$work/t1.out" "$work/t2.out" | grep -c '"action": "downloaded"' | grep -qx 1 || fail "not exactly one download"
cmp -s "$share/twice/$archive" "$served" || fail "the archive of two fetches differs"
[ "$(ls -A "$share/twice" | sort | tr '\n' ' ')" = "$archive traindesk-dataset.json " ] || fail "the folder holds $(ls -A "$share/twice")"

echo "== a data set of four files"
td data fetch fashion-mnist --share s >/dev/null 2>"$work/fm.err" || fail "fashion-mnist: $(cat "$work/fm.err")"
for f in train-images-idx3-ubyte.gz train-labels-idx1-ubyte.gz t10k-images-idx3-ubyte.gz t10k-labels-idx1-ubyte.gz; do
  cmp -s "$share/fashion-mnist/$f" "$work/mirror/fashion-mnist/$f" || fail "fashion-mnist: $f differs"
done

echo "== the server down: the error names the address and says how to place the archive by hand"
stop_server
td data fetch cifar10 --share s --path down >/dev/null 2>"$work/down.err" && fail "a fetch with the server down succeeded"
grep -q "http://127.0.0.1:$port$url_path: Connection refused" "$work/down.err" || fail "no address in: $(cat "$work/down.err")"
grep -q "traindesk data fetch cifar10 -w default --share s --path down --from $archive" "$work/down.err" || fail "no --from hint: $(cat "$work/down.err")"
[ ! -e "$share/down" ] || fail "the failed fetch left $(find "$share/down")"

echo "== the hint runs as printed, in another workspace too (it dropped -w: \"share 'myshare' not found\")"
td workspace create -n other >/dev/null || fail "workspace create"
td share create -w other -n myshare --kind local --path "$work/othershare" >/dev/null || fail "share create -w other"
td data fetch cifar10 -w other --share myshare >/dev/null 2>"$work/down2.err" && fail "a fetch with the server down succeeded"
hint=$(grep '^  traindesk data fetch' "$work/down2.err" | sed 's/^  traindesk //')
[ -n "$hint" ] || fail "no hint in: $(cat "$work/down2.err")"
mkdir -p "$work/byhand" && cp "$served" "$work/byhand/$archive"
(cd "$work/byhand" && eval "td $hint" >/dev/null 2>"$work/hint.err") || fail "the printed hint '$hint' fails: $(cat "$work/hint.err")"
cmp -s "$work/othershare/cifar10/$archive" "$served" || fail "the hint placed a different file"

echo "== --from: an archive downloaded by hand, under any name, verified the same way"
cp "$served" "$work/my download (1).tgz"
td data fetch cifar10 --share s --path byhand --from "$work/my download (1).tgz" >/dev/null 2>"$work/from.err" \
  || fail "--from: $(cat "$work/from.err")"
cmp -s "$share/byhand/$archive" "$served" || fail "--from placed a different file"
grep -q "\"source\": \"file:$work/my download (1).tgz\"" "$share/byhand/traindesk-dataset.json" || fail "manifest source of --from"
head -c 100000 "$served" > "$work/truncated.tgz"
td data fetch cifar10 --share s --path byhand2 --from "$work/truncated.tgz" >/dev/null 2>"$work/from2.err" \
  && fail "--from accepted a truncated archive"
grep -q "is not the published checksum of any file of cifar10" "$work/from2.err" || fail "--from message: $(cat "$work/from2.err")"
[ ! -e "$share/byhand2" ] || fail "a refused --from left $(find "$share/byhand2")"

echo "== without the test's checksum file the published checksums are in force"
start_server
unset TRAINDESK_DATASET_CHECKSUMS
td data fetch cifar10 --share s --path published >/dev/null 2>"$work/pub.err" && fail "the test archive passed the published checksum"
grep -q "not the published c58f30108f718f92721af3b95e74349a" "$work/pub.err" || fail "published md5 not named: $(cat "$work/pub.err")"
[ ! -e "$share/published" ] || fail "the refused fetch left $(find "$share/published")"
TRAINDESK_DATASET_CHECKSUMS=$work/MD5SUMS TRAINDESK_DATASET_MIRROR= td data list >/dev/null 2>&1 || fail "data list"
TRAINDESK_DATASET_CHECKSUMS=$work/MD5SUMS TRAINDESK_DATASET_MIRROR= td data fetch cifar10 --share s --path x \
  >/dev/null 2>"$work/nomirror.err" && fail "test checksums were honoured without a mirror"
grep -q "honoured only with TRAINDESK_DATASET_MIRROR" "$work/nomirror.err" || fail "$(cat "$work/nomirror.err")"
stop_server

echo "== Debian's dataset-fashion-mnist: compressed again, accepted by the checksums of its decompressed contents"
debian=/usr/share/datasets/fashion-mnist
[ -f "$debian/train-images-idx3-ubyte.gz" ] || fail "$debian is missing (scripts/install-deps.sh installs dataset-fashion-mnist)"
td data fetch fashion-mnist --share s --path debian --from "$debian" >/dev/null 2>"$work/deb.err" \
  || fail "Debian's files refused: $(cat "$work/deb.err")"
for f in train-images-idx3-ubyte.gz train-labels-idx1-ubyte.gz t10k-images-idx3-ubyte.gz t10k-labels-idx1-ubyte.gz; do
  cmp -s "$share/debian/$f" "$debian/$f" || fail "debian: $f differs from Debian's"
done
grep -q "decompressed contents verified" "$work/deb.err" || fail "the log does not say how they were verified: $(cat "$work/deb.err")"
grep -q '"contentMd5": "f4a8712d7a061bf5bd6d2ca38dc4d50a"' "$share/debian/traindesk-dataset.json" || fail "manifest: $(cat "$share/debian/traindesk-dataset.json")"
td data fetch fashion-mnist --share s --path debian >"$work/deb2.out" 2>"$work/deb2.err" || fail "second fetch: $(cat "$work/deb2.err")"
grep -q "Nothing to do" "$work/deb2.out" || fail "the second fetch of Debian's files did something: $(cat "$work/deb2.out")"
# Contents that differ by one byte are refused all the same.
mkdir -p "$work/debcut"
zcat "$debian/t10k-labels-idx1-ubyte.gz" | head -c 10007 | gzip > "$work/debcut/t10k-labels-idx1-ubyte.gz"
td data fetch fashion-mnist --share s --path debcut --from "$work/debcut" >/dev/null 2>"$work/debcut.err" \
  && fail "a repackaged file with other contents was accepted"
grep -q "is not the published checksum of any file of fashion-mnist" "$work/debcut.err" || fail "$(cat "$work/debcut.err")"

echo "== the trainer trains one epoch on the fetched archive"
trainer=$(dirname "$traindesk")/traindesk-trainer
"$trainer" --data "$share/cifar10" --epochs 1 --batch-size 50 --threads 2 --no-save --dir "$work/train" \
  >"$work/train.out" 2>&1 || fail "trainer: $(tail -20 "$work/train.out")"
grep -q "CIFAR-10 python version from archive $share/cifar10/$archive: 500 training and 100 test images" "$work/train.out" \
  || fail "the trainer did not name the fetched archive: $(grep data: "$work/train.out")"
grep -q '"kind": *"done"' "$work/train/metrics.jsonl" || fail "no done record: $(tail -3 "$work/train/metrics.jsonl")"
echo "ok"
