#!/usr/bin/env bash
# A PyTorch gloo job of 2 processes in a container (issue #42), end to end through the CLI
# and its agent on the local cluster, in the tests' image with Debian's python3-torch
# (fixture container.docker_image_torch): a user's own DDP script (Batch AI's
# PyTorch-GPU-Distributed-Gloo recipe's shape, tests/data/pytorch/ddp_tensorboard.py) through
# pyTorchSettings, `python` as the recipes run it (the image's: this machine has no `python`);
# - both ranks train and agree on the weights (gloo all-reduce between the container's ranks);
# - each rank's stdout-<i>.txt, and the script's pytorch/examples lines and its TensorBoard
#   file become series with the points the script wrote;
# - the script lives on a share and the job's folders outside /tmp: each is seen inside at its
#   own path (a share, stdOutErrPathPrefix and an output directory outside the mount root);
# - `docker ps -a` has none of the job's containers after.
#
# cli_docker_pytorch.sh TRAINDESK DATA_DIR
set -uo pipefail
traindesk=$1
data=$2
fail() { echo "FAIL: $*" >&2; exit 1; }
td() { "$traindesk" "$@"; }
image=${TRAINDESK_TEST_DOCKER_TORCH_IMAGE:?the container fixture sets it}
if ! docker info >/dev/null 2>&1; then
  why=$(cat "${TRAINDESK_TEST_DOCKER_WHY:-/nonexistent}" 2>/dev/null)
  [ -n "$why" ] && { echo "SKIP: the docker engine cannot start on this machine: $why"; exit 77; }
  fail "no docker engine answers on DOCKER_HOST=${DOCKER_HOST:-unset} (the fixture container.docker_engine_setup starts it)"
fi
docker image inspect "$image" >/dev/null 2>&1 || fail "the fixture's image $image is not in the engine (container.docker_image_torch)"

work=$(mktemp -d "${TMPDIR:-/tmp}/td-docker-torch.XXXXXX")
# The share and the job's folders outside /tmp (which every container sees).
folders=$(mktemp -d /var/tmp/td-docker-torch.XXXXXX)
chmod 755 "$work" "$folders"
export TRAINDESK_HOME=$work/data TRAINDESK_TRAINER_DIR=$(dirname "$traindesk")
cleanup() { td agent stop >/dev/null 2>&1; rm -rf "$work" "$folders"; }
trap cleanup EXIT
td experiment create -n ddp >/dev/null || fail "experiment create"
mkdir -p "$folders/scripts" "$folders/out" "$folders/tb"
td share create -n scripts --kind local --path "$folders/scripts" >/dev/null || fail "share create"
td share file upload --share scripts --path ddp --source "$data/pytorch/ddp_tensorboard.py" >/dev/null 2>&1 || fail "share file upload"
cat > "$work/job.json" <<JSON
{ "properties": { "nodeCount": 1, "stdOutErrPathPrefix": "$folders/out",
  "outputDirectories": [ { "id": "TB", "pathPrefix": "$folders/tb", "pathSuffix": "tensorboard" } ],
  "pyTorchSettings": { "pythonScriptFilePath": "\$AZ_BATCHAI_JOB_MOUNT_ROOT/scripts/ddp/ddp_tensorboard.py",
                       "commandLineArgs": "--epochs 2 --batches 5", "processCount": 2, "communicationBackend": "gloo" },
  "containerSettings": { "imageSourceRegistry": { "image": "$image" } } } }
JSON
started=$(date +%s)
td job create -e ddp -n run1 -c local -f "$work/job.json" >/dev/null || fail "job create"
timeout 400 "$traindesk" job wait -e ddp -n run1 >/dev/null \
  || fail "run1: $(td job show -e ddp -n run1 -o json; tail -n 30 "$(td job show -e ddp -n run1 --query jobDirectory)"/stdouterr/*.txt)"
echo "gloo job: $(( $(date +%s) - started )) s"
jobdir=$(td job show -e ddp -n run1 --query jobDirectory)
out=$jobdir/stdouterr
case "$jobdir" in "$folders/out/"*) ;; *) fail "the job directory $jobdir is not under $folders/out" ;; esac
grep -q "Python interpreter: python in the container image" "$out/execution-localhost.log" \
  || fail "the execution log does not name the image's python: $(cat "$out/execution-localhost.log")"

echo "== each rank trained, in the container, and ended with the same weights"
# The engine ran both ranks' python in the job's container (its events say so).
execs=$(docker events --since "$started" --until 0s --filter event=exec_start --filter "container=td-$(basename "$jobdir")" \
          --format '{{.Action}}' | grep -c 'RANK=[01] .*; python .*ddp_tensorboard.py')
[ "$execs" = 2 ] || fail "the engine ran $execs of the ranks in the job's container: $(docker events --since "$started" --until 0s --filter event=exec_start)"
for r in 0 1; do
  f=$out/stdout-$r.txt
  grep -q "^rank $r of 2 on " "$f" || fail "stdout-$r.txt: $(cat "$f" "$out/stderr-$r.txt" 2>/dev/null)"
  [ "$(grep -c '^Epoch: \[' "$f")" = 10 ] || fail "stdout-$r.txt: $(cat "$f")"
done
w0=$(sed -n 's/^rank 0 done: weights //p' "$out/stdout-0.txt")
w1=$(sed -n 's/^rank 1 done: weights //p' "$out/stdout-1.txt")
[ -n "$w0" ] && [ "$w0" = "$w1" ] || fail "the ranks' weights: '$w0' and '$w1'"

echo "== its lines and its TensorBoard file are series"
tbdir=$(find "$folders/tb" -type d -name tensorboard | head -1)
[ -n "$tbdir" ] && ls "$tbdir"/events.out.tfevents.* >/dev/null 2>&1 || fail "no TensorBoard file in the output directory: $(find "$folders/tb")"
for _ in $(seq 1 60); do
  td job metrics -e ddp -j run1 --scalars -o json > "$work/scalars.json" 2>"$work/scalars.err"
  python3 -c 'import json,sys; s=json.load(open(sys.argv[1])); sys.exit(0 if sum(x["points"] for x in s) >= 40 else 1)' "$work/scalars.json" && break
  sleep 0.5
done
td job metrics -e ddp -j run1 --series Loss --csv > "$work/loss.csv" || fail "job metrics --series Loss"
td job metrics -e ddp -j run1 --series train/loss -o json > "$work/tbloss.json" || fail "job metrics --series train/loss"
python3 - "$work" "$tbdir" <<'PY' || fail "series: $(cat "$work/scalars.json" "$work/scalars.err")"
import csv, json, math, sys
work, tb = sys.argv[1:3]
expected = {r: json.load(open("%s/expected-%d.json" % (tb, r))) for r in (0, 1)}
rows = list(csv.DictReader(open(work + "/loss.csv")))
for r in (0, 1):
    got = [(int(row["step"]), float(row["value"])) for row in rows if row["rank"] == str(r)]
    want = [(s, v) for s, v in expected[r]["Loss"]]
    assert len(got) == 10 and [s for s, _ in got] == [s for s, _ in want], (r, got, want)
    assert all(math.isclose(g, w, rel_tol=1e-5) for (_, g), (_, w) in zip(got, want)), (r, got, want)
got = [(p["step"], p["value"]) for p in json.load(open(work + "/tbloss.json"))]
want = [(s, v) for s, v in expected[0]["train/loss"]]
assert len(got) == 10 and all(math.isclose(g, w, rel_tol=1e-6) for (_, g), (_, w) in zip(got, want)), (got, want)
PY
[ -z "$(docker ps -a -q --filter "label=traindesk.job=$(basename "$jobdir")")" ] || fail "the job left its container"
echo "pytorch gloo in a container ok"
