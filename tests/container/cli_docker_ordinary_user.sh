#!/usr/bin/env bash
# A container job of an ordinary user (in the docker group), end to end through the CLI on the
# local cluster: the preparation runs as the image's user (root: it installs packages), the
# job's ranks as the node's user, so that what they write in output directories is that
# user's, and Open MPI's daemon and ranks are one user (issue #42).
#
# cli_docker_ordinary_user.sh TRAINDESK
set -uo pipefail
traindesk=$1
fail() { echo "FAIL: $*" >&2; exit 1; }
image=${TRAINDESK_TEST_DOCKER_IMAGE:?the container fixture sets it}
[ "$(id -u)" = 0 ] || { echo "SKIP: making a test user needs root"; exit 77; }
if ! docker info >/dev/null 2>&1; then
  why=$(cat "${TRAINDESK_TEST_DOCKER_WHY:-/nonexistent}" 2>/dev/null)
  [ -n "$why" ] && { echo "SKIP: the docker engine cannot start on this machine: $why"; exit 77; }
  fail "no docker engine answers on DOCKER_HOST=${DOCKER_HOST:-unset} (the fixture container.docker_engine_setup starts it)"
fi
getent group docker >/dev/null || fail "no docker group (docker.io makes it; the engine's socket belongs to it)"

work=$(mktemp -d "${TMPDIR:-/tmp}/td-docker-user.XXXXXX")
chmod 755 "$work"
# The user runs copies: a build tree under a private folder (a fresh clone in mktemp -d, or
# /root) is not theirs to reach.
built=$(dirname "$traindesk")
mkdir -p "$work/bin"
for f in traindesk traindesk-trainer libtraindesk-trainer-cuda.so; do
  [ -e "$built/$f" ] && cp "$built/$f" "$work/bin/"
done
chmod -R a+rX "$work/bin"
traindesk=$work/bin/traindesk
user=tdc$$
# useradd/userdel of two tests at once fail on /etc/passwd's lock: the netns tests' lock.
lock=/run/lock/traindesk-netns.lock
locked() { ( flock -w 60 9 || exit 1; "$@" ) 9>"$lock"; }
as_user() {
  runuser -u "$user" -- env -i PATH=/usr/local/bin:/usr/bin:/bin HOME="$work/home" DOCKER_HOST="$DOCKER_HOST" \
    TRAINDESK_HOME="$work/home/td" TRAINDESK_TRAINER_DIR="$(dirname "$traindesk")" "$traindesk" "$@"
}
cleanup() {
  as_user agent stop >/dev/null 2>&1
  pkill_user=$(pgrep -u "$user" 2>/dev/null)
  [ -z "$pkill_user" ] || kill -KILL $pkill_user 2>/dev/null
  locked userdel "$user" >/dev/null 2>&1
  rm -rf "$work"
}
trap cleanup EXIT
locked useradd -m -d "$work/home" -s /bin/sh -G docker "$user" || fail "useradd $user"
uid=$(id -u "$user") gid=$(id -g "$user")

cat > "$work/job.json" <<'JSON'
{
  "properties": {
    "nodeCount": 1,
    "customMpiSettings": {
      "commandLine": "echo rank uid: $(id -u) home: $HOME; touch $AZ_BATCHAI_OUTPUT_OUT/made-by-rank-$OMPI_COMM_WORLD_RANK",
      "processCount": 2
    },
    "jobPreparation": { "commandLine": "echo prep uid: $(id -u) > $AZ_BATCHAI_JOB_TEMP/prep.txt" },
    "stdOutErrPathPrefix": "$AZ_BATCHAI_JOB_MOUNT_ROOT/local",
    "outputDirectories": [{"id": "OUT", "pathPrefix": "$AZ_BATCHAI_JOB_MOUNT_ROOT/local"}],
    "containerSettings": { "imageSourceRegistry": { "image": "IMAGE" } }
  }
}
JSON
sed -i "s|IMAGE|$image|" "$work/job.json"
chmod 644 "$work/job.json"
as_user experiment create -n mine >/dev/null || fail "experiment create as $user"
as_user job create -e mine -n owned -c local -f "$work/job.json" >/dev/null || fail "job create as $user"
as_user job wait -e mine -n owned >/dev/null || fail "the job of $user: $(as_user job show -e mine -n owned)
$(cat "$(as_user job show -e mine -n owned --query jobDirectory)/stdouterr/stderr.txt")"
jobdir=$(as_user job show -e mine -n owned --query jobDirectory)
[ "$(grep -c "rank uid: $uid home: $jobdir/tmp" "$jobdir/stdouterr/stdout.txt")" = 2 ] \
  || fail "the ranks did not run as $user ($uid) with HOME the job's temporary folder: $(cat "$jobdir/stdouterr/stdout.txt")"
grep -qx "prep uid: 0" "$jobdir/tmp/prep.txt" || fail "the preparation did not run as the image's root: $(cat "$jobdir/tmp/prep.txt")"
made=$(find "$work/home" -name 'made-by-rank-*' -path "*$(basename "$jobdir")*")
[ "$(wc -l <<<"$made")" = 2 ] || fail "the ranks' files: $made"
for f in $made; do
  [ "$(stat -c %u:%g "$f")" = "$uid:$gid" ] || fail "$f is owned by $(stat -c %u:%g "$f"), not $user ($uid:$gid)"
done
[ -z "$(docker ps -a -q --filter "label=traindesk.job=$(basename "$jobdir")")" ] || fail "the job left its container"
echo "ordinary user ok"
