#!/usr/bin/env bash
# Jobs in containers on a real docker engine, end to end through the CLI and its agent on the
# local cluster (issue #42). The engine and the image are the ctest fixture's
# (container.docker_engine_setup: DOCKER_HOST, TRAINDESK_TEST_DOCKER_IMAGE); the agent finds
# the engine as the docker client does, through DOCKER_HOST.
# - the tutorial's shape: containerSettings, a jobPreparation run once per node in the
#   container before the ranks, the bundled trainer (mounted in read-only) under mpirun with 2
#   ranks in the container: files and metrics stored, outputs owned by the job's user;
# - the container's stdout and exit code reach the job;
# - terminate and the wall clock remove the job's container (docker ps -a has none after);
# - --no-container runs the same job.json on the node itself;
# - an input directory outside the mount root and /tmp is mounted and read inside;
# - bad input fails at node_setup naming the node, the image and the engine's message: an image
#   the engine does not have and cannot pull, an input directory the node does not have (not
#   made by the engine either), an entry point that ends at once.
#
# cli_docker_job.sh TRAINDESK
set -uo pipefail
traindesk=$1
fail() { echo "FAIL: $*" >&2; exit 1; }
td() { "$traindesk" "$@"; }
image=${TRAINDESK_TEST_DOCKER_IMAGE:?the container fixture sets it}
if ! docker info >/dev/null 2>"${TMPDIR:-/tmp}/td-docker-info.$$"; then
  why=$(cat "${TRAINDESK_TEST_DOCKER_WHY:-/nonexistent}" 2>/dev/null)
  info=$(cat "${TMPDIR:-/tmp}/td-docker-info.$$"); rm -f "${TMPDIR:-/tmp}/td-docker-info.$$"
  [ -n "$why" ] && { echo "SKIP: the docker engine cannot start on this machine: $why"; exit 77; }
  fail "no docker engine answers on DOCKER_HOST=${DOCKER_HOST:-unset} (the fixture container.docker_engine_setup starts it): $info"
fi
rm -f "${TMPDIR:-/tmp}/td-docker-info.$$"
docker image inspect "$image" >/dev/null 2>&1 || fail "the fixture's image $image is not in the engine"

work=$(mktemp -d "${TMPDIR:-/tmp}/td-docker-job.XXXXXX")
chmod 755 "$work"
export TRAINDESK_HOME=$work/data TRAINDESK_TRAINER_DIR=$(dirname "$traindesk")
cleanup() { td agent stop >/dev/null 2>&1; rm -rf "$work" ${inputs:+"$inputs"}; }
trap cleanup EXIT
td experiment create -n box >/dev/null || fail "experiment create"
uuid_of() { td job show -e box -n "$1" --query jobOutputDirectoryPathSegment | sed 's|.*/||'; }
state() { td job show -e box -n "$1" --query executionState; }
containers() { docker ps -a -q --filter "label=traindesk.job=$1"; }
# Waits until the job's container is gone (docker rm -f is the job's last step: the job's
# state changes before it ends); fails naming what is left after 2 minutes.
no_containers() {  # job
  local u i
  u=$(uuid_of "$1")
  [ -n "$u" ] || fail "no uuid for job $1"
  for i in $(seq 240); do [ -z "$(containers "$u")" ] && return 0; sleep 0.5; done
  fail "job $1 left containers: $(docker ps -a --filter "label=traindesk.job=$u")"
}
job_json() {  # file command [extra properties, JSON text after a comma]
  cat > "$work/$1" <<JSON
{
  "properties": {
    "nodeCount": 1,
    "customMpiSettings": { "commandLine": $(python3 -c 'import json,sys; print(json.dumps(sys.argv[1]))' "$2"), "processCount": 2 },
    "stdOutErrPathPrefix": "\$AZ_BATCHAI_JOB_MOUNT_ROOT/local",
    "outputDirectories": [{"id": "MODEL", "pathPrefix": "\$AZ_BATCHAI_JOB_MOUNT_ROOT/local"}],
    "containerSettings": { "imageSourceRegistry": { "image": "${4:-$image}" } }${3:+,
    $3}
  }
}
JSON
  echo "$work/$1"
}

echo "== the tutorial's shape: preparation and the bundled trainer's 2 ranks in the container"
prep='{ "commandLine": "echo prepared in: $(cat /etc/traindesk-test-image) >> $AZ_BATCHAI_JOB_TEMP/prep.txt; python3 -c \"import sys; print(sys.version_info[0])\" >> $AZ_BATCHAI_JOB_TEMP/prep.txt" }'
# /tmp is the node's (Open MPI's session files are there): a file of this test's, seen inside.
echo seen-through-tmp > "$work/tmp-marker"
train='echo rank in: $(head -c 20 /etc/traindesk-test-image) tmp: $(cat '"$work/tmp-marker"'); traindesk-trainer --format synthetic --synthetic-train 512 --synthetic-test 128 --synthetic-shape 16x16x1 --epochs 2 --log-every 4 --lr 0.001 --deterministic --dir $AZ_BATCHAI_OUTPUT_MODEL'
started=$(date +%s)
td job create -e box -n tutorial -c local -f "$(job_json tutorial.json "$train" "\"jobPreparation\": $prep")" >/dev/null \
  || fail "job create tutorial"
td job wait -e box -n tutorial >/dev/null || fail "tutorial job: $(td job show -e box -n tutorial); stderr: $(td job file stream -e box -j tutorial -f stderr.txt)"
echo "tutorial job: $(( $(date +%s) - started )) s"
[ "$(td job show -e box -n tutorial --query executionInfo.exitCode)" = 0 ] || fail "tutorial exit code"
jobdir=$(td job show -e box -n tutorial --query jobDirectory)
out=$(cat "$jobdir/stdouterr/stdout.txt")
[ "$(grep -c 'rank in: traindesk test image tmp: seen-through-tmp' <<<"$out")" = 2 ] || fail "the ranks did not run in the image with /tmp: $out"
grep -q 'Epoch 2/2' <<<"$out" || fail "the trainer did not finish: $(tail -5 <<<"$out")"
[ "$(grep -c '^prepared in: traindesk test image' "$jobdir/tmp/prep.txt")" = 1 ] || fail "preparation (once, in the image): $(cat "$jobdir/tmp/prep.txt")"
grep -qx 3 "$jobdir/tmp/prep.txt" || fail "the image's python3 did not run the preparation: $(cat "$jobdir/tmp/prep.txt")"
[ "$(td job metrics -e box -j tutorial -o json | python3 -c 'import json,sys; print(len(json.load(sys.stdin)) > 0)')" = True ] \
  || fail "no metrics stored"
model=$(find "$TRAINDESK_HOME" -path "*$(uuid_of tutorial)*" -name keras_cifar10_trained_model.h5 | head -1)
[ -n "$model" ] || fail "no saved model: $(td job file list -e box -j tutorial -d MODEL)"
# Written in the container through the share's mount, owned by the job's user on the node.
[ "$(stat -c %u:%g "$model")" = "$(id -u):$(id -g)" ] || fail "the model is owned by $(stat -c %u:%g "$model"), not $(id -u):$(id -g)"
grep -q "node setup succeeded" "$jobdir/stdouterr/execution-localhost.log" || fail "execution log: $(cat "$jobdir/stdouterr/execution-localhost.log")"
no_containers tutorial

echo "== the container's stdout and exit code are the job's"
td job create -e box -n exits -c local -f "$(job_json exits.json 'echo hello from $(head -c 20 /etc/traindesk-test-image); exit 7')" >/dev/null || fail "create exits"
td job wait -e box -n exits >/dev/null && fail "a job that exits 7 waited with 0"
[ "$(td job show -e box -n exits --query executionInfo.exitCode)" = 7 ] || fail "exit code: $(td job show -e box -n exits)"
jobdir=$(td job show -e box -n exits --query jobDirectory)
[ "$(grep -c 'hello from traindesk test image' "$jobdir/stdouterr/stdout.txt")" = 2 ] || fail "stdout: $(cat "$jobdir/stdouterr/stdout.txt")"
no_containers exits

echo "== terminate removes the container"
td job create -e box -n stays -c local -f "$(job_json stays.json 'echo up; sleep 600')" >/dev/null || fail "create stays"
u=$(uuid_of stays)
for _ in $(seq 240); do
  [ -n "$(containers "$u")" ] && grep -q up "$(td job show -e box -n stays --query jobDirectory)/stdouterr/stdout.txt" 2>/dev/null && break
  sleep 0.5
done
[ -n "$(containers "$u")" ] || fail "the container of job stays never ran: $(td job show -e box -n stays)"
td job terminate -e box -n stays >/dev/null || fail "terminate"
[ "$(state stays)" = failed ] || fail "terminated job is $(state stays)"
no_containers stays

echo "== a job whose processes were all killed (no clean-up ran) loses its container to the sweep"
td job create -e box -n killed -c local -f "$(job_json killed.json 'echo up; sleep 600')" >/dev/null || fail "create killed"
u=$(uuid_of killed)
for _ in $(seq 240); do
  [ -n "$(containers "$u")" ] && grep -q up "$(td job show -e box -n killed --query jobDirectory)/stdouterr/stdout.txt" 2>/dev/null && break
  sleep 0.5
done
[ -n "$(containers "$u")" ] || fail "the container of job killed never ran"
# Every process that carries the job's marker, at once: the launch script, its reaper, mpirun,
# the docker clients and the ranks; the container's own keep-alive does not carry it.
pids=$(grep -lzx "TRAINDESK_JOB=$u" /proc/[0-9]*/environ 2>/dev/null | sed -n 's|^/proc/\([0-9]*\)/environ$|\1|p')
[ -n "$pids" ] || fail "no process carries TRAINDESK_JOB=$u"
kill -KILL $pids 2>/dev/null
td job wait -e box -n killed >/dev/null && fail "the killed job waited with 0"
no_containers killed

echo "== the wall clock removes the container"
td job create -e box -n late -c local -f "$(job_json late.json 'sleep 600' '"constraints": {"maxWallClockTime": "00:00:12"}')" >/dev/null \
  || fail "create late"
td job wait -e box -n late >/dev/null && fail "the job past its wall clock waited with 0"
[ "$(td job show -e box -n late --query 'executionInfo.errors[0].code')" = MaxWallClockTimeExceeded ] || fail "late: $(td job show -e box -n late)"
no_containers late

echo "== --no-container runs the same job.json on the node"
td job create -e box -n bare -c local --no-container -f "$work/exits.json" >/dev/null || fail "create --no-container"
td job wait -e box -n bare >/dev/null
jobdir=$(td job show -e box -n bare --query jobDirectory)
# (the node has no /etc/traindesk-test-image: only the image does)
[ "$(grep -c 'hello from$' "$jobdir/stdouterr/stdout.txt")" = 2 ] || fail "--no-container stdout: $(cat "$jobdir/stdouterr/stdout.txt")"
[ "$(td job show -e box -n bare --query executionInfo.exitCode)" = 7 ] || fail "--no-container exit code"

# The error's text: message, details and the job's stderr.txt, where the node's setup wrote.
node_setup_failure() {  # job image words...
  local job=$1 img=$2 text jobdir
  shift 2
  td job wait -e box -n "$job" >/dev/null && fail "job $job with $img succeeded"
  [ "$(td job show -e box -n "$job" --query 'executionInfo.errors[0].code')" = NodeSetupFailed ] \
    || fail "$job did not fail at node setup: $(td job show -e box -n "$job")"
  jobdir=$(td job show -e box -n "$job" --query jobDirectory)
  text="$(td job show -e box -n "$job") $(cat "$jobdir/stdouterr/stderr.txt")"
  for w in "node localhost (localhost)" "$img" "$@"; do
    grep -qF -- "$w" <<<"$text" || fail "the failure of $job does not say '$w': $text"
  done
  grep -q "job started" "$jobdir/stdouterr/execution-localhost.log" && fail "$job started after a failed setup"
  no_containers "$job"
}

echo "== an image the engine does not have and cannot pull fails at node setup"
# A registry on loopback where nothing listens: the engine's pull fails at once, offline.
missing=127.0.0.1:9/traindesk-test/no-such-image:1
td job create -e box -n noimage -c local -f "$(job_json noimage.json 'echo should-not-run' '' "$missing")" >/dev/null || fail "create noimage"
node_setup_failure noimage "$missing" "docker could not start a container of" "connection refused"

echo "== an input directory outside the mount root and /tmp is read inside; a missing one fails at node setup"
inputs=$(mktemp -d /var/tmp/td-docker-input.XXXXXX)
echo read-through-input > "$inputs/data.txt"
chmod -R a+rX "$inputs"
td job create -e box -n input -c local -f "$(job_json input.json 'cat $AZ_BATCHAI_INPUT_DATA/data.txt' \
  "\"inputDirectories\": [{\"id\": \"DATA\", \"path\": \"$inputs\"}]")" >/dev/null || fail "create input"
td job wait -e box -n input >/dev/null || { rm -rf "$inputs"; fail "input: $(td job show -e box -n input)"; }
jobdir=$(td job show -e box -n input --query jobDirectory)
rm -rf "$inputs"
[ "$(grep -c ':read-through-input$' "$jobdir/stdouterr/stdout.txt")" = 2 ] || fail "input stdout: $(cat "$jobdir/stdouterr/stdout.txt")"
td job create -e box -n noinput -c local -f "$(job_json noinput.json 'echo should-not-run' \
  "\"inputDirectories\": [{\"id\": \"DATA\", \"path\": \"$inputs\"}]")" >/dev/null || fail "create noinput"
node_setup_failure noinput "$image" "docker could not start a container of" "$inputs"
[ -e "$inputs" ] && fail "the missing input directory $inputs was made"

echo "== an entry point that ends at once fails at node setup"
docker rm -f td-test-exits >/dev/null 2>&1
docker create --name td-test-exits "$image" >/dev/null || fail "docker create"
docker commit --change 'ENTRYPOINT ["/bin/sh", "-c", "echo the entry point gives up; exit 3"]' td-test-exits traindesk-test/exits:1 >/dev/null \
  || fail "docker commit"
docker rm -f td-test-exits >/dev/null
td job create -e box -n entry -c local -f "$(job_json entry.json 'echo should-not-run' '' traindesk-test/exits:1)" >/dev/null || fail "create entry"
node_setup_failure entry traindesk-test/exits:1 "stopped at its start" "exit code 3" "the entry point gives up"
docker rmi traindesk-test/exits:1 >/dev/null 2>&1
echo "container jobs ok"
