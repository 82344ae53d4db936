#!/usr/bin/env bash
# Container jobs across 2 SSH nodes, each node with its own docker engine (issue #42), end to
# end through the CLI and its agent. The nodes are network namespaces with their own sshd,
# hostname and processes (tests/netns/netns_nodes.sh); inside each this test starts a private
# dockerd (docker_engine.sh: its own socket, data root, exec root, no bridge, no iptables),
# which the node's SSH sessions reach through DOCKER_HOST (sshd's SetEnv, as a node whose
# engine is not at the default socket would set it), and imports the fixture's Debian image.
# Containers use the node's network (--network host), so the ranks meet over the nodes' bridge.
# - customMpiSettings: the bundled trainer (deployed to the nodes, mounted in read-only),
#   2 ranks, one in each node's container, under the image's mpirun: files and metrics stored;
# - horovodSettings: a Python script from a share, 2 ranks across the nodes in the image;
# - mounts: the share (with an output directory), the job directory (stdOutErrPathPrefix
#   outside the mount root and /tmp) and an output directory whose prefix is not there yet
#   (made by the node's user) are seen inside at their own paths, written as the node's user
#   (the files are that user's); the node's /tmp (Open MPI's session folders) too;
# - terminate removes both nodes' containers; so does a lost node (its link down until the
#   job fails NodeUnreachable, then up: the agent's sweep finds it); `docker ps -a` is empty
#   on both engines after every job.
#
# cli_docker_nodes.sh TRAINDESK ENGINE_SCRIPT IMAGE_CACHE
set -uo pipefail
traindesk=$1
engine=$2
cache=$3
here=$(cd "$(dirname "$0")" && pwd)
fail() { echo "FAIL: $*" >&2; exit 1; }
td() { "$traindesk" "$@"; }
image=${TRAINDESK_TEST_DOCKER_IMAGE:?the container fixture sets it}
# The fixture built the image (or said why the engine cannot run here: not root, no dockerd).
why=$(cat "${TRAINDESK_TEST_DOCKER_WHY:-/nonexistent}" 2>/dev/null)
[ -z "$why" ] || { echo "SKIP: the docker engine cannot start on this machine: $why"; exit 77; }
[ "$(id -u)" = 0 ] || fail "network namespaces need root"

work=$(mktemp -d "${TMPDIR:-/tmp}/td-docker-nodes.XXXXXX")
# The share and the job's directory outside /tmp (which every container sees): only their
# own mounts show them inside.
data=$(mktemp -d /var/tmp/td-docker-nodes.XXXXXX)
chmod 755 "$work" "$data"
# Each node's engine: a short folder (socket paths are limited to 107 bytes).
state() { echo "$work/e$1"; }
on_engine() {  # node docker-arguments...: the docker client on node I's engine, from here
  local i=$1; shift
  DOCKER_HOST="unix://$(state "$i")/docker.sock" docker "$@"
}
. "$here/../netns/netns_nodes.sh"
cleanup() {
  td agent stop >/dev/null 2>&1
  local i
  # Both engines at once (each removes its image's unpacked layers: slow on a busy disk);
  # waited for by pid (the nodes' sshd holders are this shell's children too).
  local stops=()
  for i in 1 2; do
    if [ -d "$(state "$i")" ] && [ "${NETNS_COUNT:-0}" -ge "$i" ]; then
      netns_exec "$i" bash "$engine" stop "$(state "$i")" >/dev/null 2>&1 &
      stops+=($!)
    fi
  done
  [ ${#stops[@]} = 0 ] || wait "${stops[@]}"
  netns_down
  [ -n "${TD_TEST_KEEP:-}" ] && { echo "kept $work $data"; return; }
  rm -rf "$work" "$data"
}
trap cleanup EXIT

NETNS_SSHD_EXTRA="SetEnv DOCKER_HOST=unix://$work/e@N@/docker.sock" netns_up "$work" 2 || fail "the test nodes do not start"
netns_locked usermod -a -G docker "$NETNS_USER" || fail "usermod -G docker $NETNS_USER"
echo "== a docker engine in each node, with the test image (at ${SECONDS} s)"
starts=()
for i in 1 2; do
  ( netns_exec "$i" bash "$engine" start "$(state "$i")" && bash "$engine" image "$(state "$i")" "$cache" "$image" ) \
    > "$work/engine$i.log" 2>&1 &
  starts+=($!)
done
for i in 1 2; do
  wait "${starts[$(( i - 1 ))]}"; rc=$?
  if [ "$rc" = 77 ]; then
    echo "SKIP: the docker engine cannot start in a test node: $(cat "$work/engine$i.log")"; exit 77
  fi
  [ "$rc" = 0 ] || fail "node$i's engine or image: $(cat "$work/engine$i.log")"
done
cat "$work"/engine*.log
for i in 1 2; do
  # The engine is the node's: it sees the node's network and hostname.
  [ "$(on_engine "$i" info --format '{{.Name}}')" = "node$i" ] || fail "node$i's engine is not in the node: $(on_engine "$i" info)"
done

export TRAINDESK_HOME=$work/data TRAINDESK_TRAINER_DIR=$(dirname "$traindesk") TRAINDESK_SSH_PASSWORD=$NETNS_PASSWORD
export TRAINDESK_AGENT_IDLE_SECONDS=900
grace=15
td cluster create -n net --nodes "node1=$NETNS_USER@${NETNS_ADDR[1]},node2=$NETNS_USER@${NETNS_ADDR[2]}" --generate-ssh-keys \
  --accept-new-host-keys --node-lost-grace $grace >/dev/null 2>"$work/create.err" || fail "cluster create: $(cat "$work/create.err")"
td experiment create -n box >/dev/null
# The share both nodes see (their home is shared too, as an NFS home would be), with the script.
# The LOGS output directory's prefix is not there yet: the node's user makes it (in $data/work).
mkdir -p "$data/myshare" "$data/out" "$data/work" && chown "$NETNS_USER" "$data/myshare" "$data/out" "$data/work"
td share create -n myshare --kind cluster --path "$data/myshare" -c net >/dev/null || fail "share create"
cat > "$work/hvd.py" <<'PY'
# Horovod's shape without Horovod: one process per rank under mpirun, Keras-style progress.
import os, socket, sys
rank = int(os.environ["OMPI_COMM_WORLD_RANK"]); size = int(os.environ["OMPI_COMM_WORLD_SIZE"])
image = open("/etc/traindesk-test-image").read()[:20]
print("hvd rank %d of %d on %s in %s python %d" % (rank, size, open("/proc/sys/kernel/hostname").read().strip(), image,
                                                    sys.version_info[0]), flush=True)
for out in (os.environ["AZ_BATCHAI_OUTPUT_MODEL"], os.environ["AZ_BATCHAI_OUTPUT_LOGS"]):
    open(os.path.join(out, "hvd-rank-%d" % rank), "w").write("rank %d\n" % rank)
if rank == 0:
    for epoch in (1, 2):
        print("Epoch %d/2" % epoch)
        print("4/4 [==============================] - 0s 1ms/step - loss: %.4f - acc: %.4f" % (1.0 / epoch, 0.5 * epoch), flush=True)
PY
td share file upload --share myshare --path scripts --source "$work/hvd.py" >/dev/null 2>&1 || fail "share file upload"
# What the ranks read through /tmp: the node's (Open MPI's session folders are there).
echo seen-through-tmp > "$work/tmp-marker" && chmod 644 "$work/tmp-marker"
no_containers() {  # what: both engines hold no container (the last step of a job's end is docker rm -f)
  local i left
  for _ in $(seq 240); do
    left=$(on_engine 1 ps -aq; on_engine 2 ps -aq)
    [ -z "$left" ] && return 0
    sleep 0.5
  done
  fail "$1 left containers: node1: $(on_engine 1 ps -a) node2: $(on_engine 2 ps -a)"
}
job_json() {  # file toolkit-settings-JSON
  cat > "$work/$1" <<JSON
{ "properties": {
    "nodeCount": 2,
    $2,
    "stdOutErrPathPrefix": "$data/out",
    "outputDirectories": [{"id": "MODEL", "pathPrefix": "\$AZ_BATCHAI_JOB_MOUNT_ROOT/myshare", "pathSuffix": "model"},
                          {"id": "LOGS", "pathPrefix": "$data/work/logs"}],
    "containerSettings": { "imageSourceRegistry": { "image": "$image" } } } }
JSON
  echo "$work/$1"
}
failed_job() {  # job -> what it said
  local d
  d=$(td job show -e box -n "$1" --query jobDirectory)
  echo "$(td job show -e box -n "$1" -o json) $(tail -n 20 "$d"/stdouterr/stderr.txt "$d"/stdouterr/execution-*.log 2>/dev/null)"
}
uid=$(id -u "$NETNS_USER") gid=$(id -g "$NETNS_USER")
owned_by_user() {  # file...
  local f
  for f in "$@"; do
    [ "$(stat -c %u:%g "$f")" = "$uid:$gid" ] || fail "$f is owned by $(stat -c %u:%g "$f"), not $NETNS_USER ($uid:$gid)"
  done
}

echo "== customMpiSettings: the bundled trainer, one rank in each node's container (at ${SECONDS} s)"
train='echo rank $OMPI_COMM_WORLD_RANK on $(cat /proc/sys/kernel/hostname) in $(head -c 20 /etc/traindesk-test-image) tmp: $(cat '"$work/tmp-marker"'); touch $AZ_BATCHAI_JOB_TEMP/rank-$OMPI_COMM_WORLD_RANK; traindesk-trainer --format synthetic --synthetic-train 256 --synthetic-test 64 --synthetic-shape 16x16x1 --epochs 2 --log-every 4 --lr 0.001 --deterministic --dir $AZ_BATCHAI_OUTPUT_MODEL'
mpi=$(job_json mpi.json "\"customMpiSettings\": { \"commandLine\": $(python3 -c 'import json,sys; print(json.dumps(sys.argv[1]))' "$train"), \"processCount\": 2 }")
started=$(date +%s)
td job create -e box -n mpi -c net -f "$mpi" >/dev/null || fail "job create mpi"
timeout 300 "$traindesk" job wait -e box -n mpi >/dev/null || fail "mpi: $(failed_job mpi)"
echo "   mpi job: $(( $(date +%s) - started )) s"
jobdir=$(td job show -e box -n mpi --query jobDirectory)
out=$(cat "$jobdir/stdouterr/stdout.txt")
for r in 0 1; do
  grep -q "rank $r on node$(( r + 1 )) in traindesk test image tmp: seen-through-tmp" <<<"$out" \
    || fail "rank $r did not run in node$(( r + 1 ))'s container with the node's /tmp: $out"
done
grep -q 'Epoch 2/2' <<<"$out" || fail "the trainer did not finish: $(tail -5 <<<"$out")"
[ "$(td job metrics -e box -j mpi -o json | python3 -c 'import json,sys; print(len(json.load(sys.stdin)) > 0)')" = True ] \
  || fail "no metrics stored"
model=$(find "$data/myshare" -path "*$(basename "$jobdir")*" -name keras_cifar10_trained_model.h5)
[ -n "$model" ] || fail "no saved model in the share: $(find "$data/myshare")"
# Written inside the containers, through the mounts, as the node's user.
owned_by_user "$model" "$jobdir/tmp/rank-0" "$jobdir/tmp/rank-1" "$data/work/logs"
no_containers "the mpi job"

echo "== horovodSettings: a Python script from the share, 2 ranks across the nodes (at ${SECONDS} s)"
hvd=$(job_json hvd.json '"horovodSettings": { "pythonScriptFilePath": "$AZ_BATCHAI_JOB_MOUNT_ROOT/myshare/scripts/hvd.py", "processCount": 2, "pythonInterpreterPath": "python3" }')
td job create -e box -n hvd -c net -f "$hvd" >/dev/null || fail "job create hvd"
timeout 300 "$traindesk" job wait -e box -n hvd >/dev/null || fail "hvd: $(failed_job hvd)"
jobdir=$(td job show -e box -n hvd --query jobDirectory)
for r in 0 1; do
  grep -q "hvd rank $r of 2 on node$(( r + 1 )) in traindesk test image python 3" "$jobdir/stdouterr/stdout.txt" \
    || fail "hvd rank $r: $(cat "$jobdir/stdouterr/stdout.txt")"
  f=$(find "$data/myshare" "$data/work" -path "*$(basename "$jobdir")*" -name "hvd-rank-$r")
  [ "$(wc -l <<<"$f")" = 2 ] || fail "hvd rank $r did not write in both output directories: $f"
  owned_by_user $f
done
td job metrics -e box -j hvd --csv > "$work/hvd.csv" || fail "job metrics hvd"
python3 - "$work/hvd.csv" <<'PY' || fail "hvd metrics: $(cat "$work/hvd.csv")"
import csv, sys
rows = [r for r in csv.DictReader(open(sys.argv[1])) if r["loss"]]
assert [(r["epoch"], float(r["loss"])) for r in rows] == [("1", 1.0), ("2", 0.5)], rows
PY
no_containers "the horovod job"

running() {  # job: until both nodes' containers run its ranks (its stdout says so)
  local d
  for _ in $(seq 240); do
    d=$(td job show -e box -n "$1" --query jobDirectory 2>/dev/null)
    [ -n "$d" ] && [ "$(grep -c 'up on node' "$d/stdouterr/stdout.txt" 2>/dev/null)" = 2 ] \
      && [ -n "$(on_engine 1 ps -q)" ] && [ -n "$(on_engine 2 ps -q)" ] && return 0
    sleep 0.5
  done
  fail "$1 never ran on both nodes: $(failed_job "$1")"
}
stays=$(job_json stays.json '"customMpiSettings": { "commandLine": "echo up on $(cat /proc/sys/kernel/hostname); sleep 600", "processCount": 2 }')

echo "== terminate removes both nodes' containers (at ${SECONDS} s)"
td job create -e box -n stays -c net -f "$stays" >/dev/null || fail "job create stays"
running stays
td job terminate -e box -n stays >/dev/null || fail "terminate"
[ "$(td job show -e box -n stays --query executionState)" = failed ] || fail "terminated job: $(failed_job stays)"
no_containers "the terminated job"

echo "== a lost node: its link down until the job fails, then up; the agent's sweep removes its container (at ${SECONDS} s)"
td job create -e box -n lost -c net -f "$stays" >/dev/null || fail "job create lost"
running lost
netns_link 2 down
for _ in $(seq $(( (grace + 90) * 2 ))); do [ "$(td job show -e box -n lost --query executionState)" = failed ] && break; sleep 0.5; done
[ "$(td job show -e box -n lost --query 'executionInfo.errors[0].code')" = NodeUnreachable ] || fail "lost: $(failed_job lost)"
echo "   failed NodeUnreachable at ${SECONDS} s; the link is up again"
netns_link 2 up
no_containers "the job of the lost node"
echo "   no container left at ${SECONDS} s"
echo "container jobs on two nodes ok"
