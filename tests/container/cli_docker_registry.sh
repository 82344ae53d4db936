#!/usr/bin/env bash
# A private registry's image, end to end through the CLI (issue #42): a real registry
# (Debian's docker-registry, with htpasswd logins) on loopback holds the test image; a job
# whose containerSettings name it with credentials pulls it through `docker login
# --password-stdin` on the node. The password is never on a command line (ps, sampled for as
# long as the job runs) nor in any file of the job or of TrainDesk's data; a wrong password
# fails the job at node_setup naming the node, the registry, the user and the engine's message.
#
# cli_docker_registry.sh TRAINDESK
set -uo pipefail
traindesk=$1
fail() { echo "FAIL: $*" >&2; exit 1; }
td() { "$traindesk" "$@"; }
image=${TRAINDESK_TEST_DOCKER_IMAGE:?the container fixture sets it}
if ! docker info >/dev/null 2>&1; then
  why=$(cat "${TRAINDESK_TEST_DOCKER_WHY:-/nonexistent}" 2>/dev/null)
  [ -n "$why" ] && { echo "SKIP: the docker engine cannot start on this machine: $why"; exit 77; }
  fail "no docker engine answers on DOCKER_HOST=${DOCKER_HOST:-unset} (the fixture container.docker_engine_setup starts it)"
fi
command -v docker-registry >/dev/null || fail "docker-registry is not installed (scripts/install-deps.sh)"
command -v htpasswd >/dev/null || fail "htpasswd is not installed (apache2-utils, scripts/install-deps.sh)"

work=$(mktemp -d "${TMPDIR:-/tmp}/td-docker-registry.XXXXXX")
chmod 755 "$work"
export TRAINDESK_HOME=$work/data TRAINDESK_TRAINER_DIR=$(dirname "$traindesk")
registry_pid=
sampler_pid=
cleanup() {
  [ -z "$sampler_pid" ] || kill "$sampler_pid" 2>/dev/null
  td agent stop >/dev/null 2>&1
  [ -z "$registry_pid" ] || { kill "$registry_pid" 2>/dev/null; wait "$registry_pid" 2>/dev/null; }
  [ -z "${server:-}" ] || docker logout "$server" >/dev/null 2>&1
  rm -rf "$work"
}
trap cleanup EXIT

# The registry: loopback only, a port the kernel picks, one user.
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
server=127.0.0.1:$port
user=alice
password="pw'\"\$(touch $work/ran) $RANDOM$RANDOM with spaces"
printf '%s' "$password" | htpasswd -B -i -c "$work/htpasswd" "$user" 2>/dev/null || fail "htpasswd"
cat > "$work/registry.yml" <<YML
version: 0.1
log: { level: warn }
storage: { filesystem: { rootdirectory: $work/storage } }
http: { addr: "$server" }
auth: { htpasswd: { realm: traindesk-test, path: $work/htpasswd } }
YML
docker-registry serve "$work/registry.yml" >"$work/registry.log" 2>&1 &
registry_pid=$!
# Up when /v2/ asks for a login (401).
for _ in $(seq 300); do
  code=$(python3 -c 'import sys, urllib.request, urllib.error
try: urllib.request.urlopen(sys.argv[1], timeout=5); print(200)
except urllib.error.HTTPError as e: print(e.code)
except Exception: print(0)' "http://$server/v2/")
  [ "$code" = 401 ] && break
  kill -0 "$registry_pid" 2>/dev/null || fail "the registry exited: $(cat "$work/registry.log")"
  sleep 0.2
done
[ "$code" = 401 ] || fail "the registry on $server does not answer: $(cat "$work/registry.log")"

# The image goes into the registry and out of the engine: the job must pull it.
private=$server/traindesk/private:1
docker tag "$image" "$private" || fail "docker tag"
printf '%s' "$password" | docker login --username "$user" --password-stdin "$server" >/dev/null 2>&1 || fail "the test's own login"
docker push "$private" >"$work/push.log" 2>&1 || fail "docker push: $(cat "$work/push.log")"
docker logout "$server" >/dev/null 2>&1
docker rmi "$private" >/dev/null || fail "docker rmi"
docker image inspect "$private" >/dev/null 2>&1 && fail "the pushed image is still in the engine"

job_json() {  # file password (through the environment: this test's own command lines are sampled too)
  TD_TEST_PASSWORD=$2 python3 - "$work/$1" "$server" "$user" <<'PY'
import json, os, sys
path, server, user = sys.argv[1:]
password = os.environ["TD_TEST_PASSWORD"]
json.dump({"properties": {
    "nodeCount": 1,
    "customToolkitSettings": {"commandLine": "echo pulled: $(head -c 20 /etc/traindesk-test-image)"},
    "stdOutErrPathPrefix": "$AZ_BATCHAI_JOB_MOUNT_ROOT/local",
    "containerSettings": {"imageSourceRegistry": {
        "serverUrl": server, "image": "traindesk/private:1",
        "credentials": {"username": user, "password": password}}}}}, open(path, "w"))
PY
  echo "$work/$1"
}

td experiment create -n reg >/dev/null || fail "experiment create"
# Every process's command line, for as long as the job runs.
( while :; do ps -eo args >> "$work/ps.txt" 2>/dev/null; sleep 0.05; done ) &
sampler_pid=$!
td job create -e reg -n private -c local -f "$(job_json private.json "$password")" >/dev/null || fail "job create"
td job wait -e reg -n private >/dev/null \
  || fail "the private image's job: $(td job show -e reg -n private) $(cat "$(td job show -e reg -n private --query jobDirectory)/stdouterr/stderr.txt")"
kill "$sampler_pid"; wait "$sampler_pid" 2>/dev/null; sampler_pid=
jobdir=$(td job show -e reg -n private --query jobDirectory)
grep -q "pulled: traindesk test image" "$jobdir/stdouterr/stdout.txt" || fail "stdout: $(cat "$jobdir/stdouterr/stdout.txt")"
grep -q "docker login --username alice --password-stdin" "$work/ps.txt" || echo "note: the sampler never saw docker login run"
grep -qF -- "$password" "$work/ps.txt" && fail "the password was on a command line: $(grep -F -- "$password" "$work/ps.txt" | head -3)"
[ -e "$work/ran" ] && fail "the password's shell text ran"
# Nowhere in the job's files (launch.sh, the logs, stdout, stderr) or TrainDesk's data.
grep -rlF -- "$password" "$jobdir" "$TRAINDESK_HOME" 2>/dev/null && fail "the password is in the files above"
[ -n "$(docker ps -a -q --filter "label=traindesk.job=$(basename "$jobdir")")" ] && fail "the job left its container"

echo "== a refused password fails at node setup"
docker rmi "$private" >/dev/null 2>&1
td job create -e reg -n refused -c local -f "$(job_json refused.json "not-$password")" >/dev/null || fail "job create refused"
td job wait -e reg -n refused >/dev/null && fail "the job with a wrong password succeeded"
[ "$(td job show -e reg -n refused --query 'executionInfo.errors[0].code')" = NodeSetupFailed ] || fail "refused: $(td job show -e reg -n refused)"
text="$(td job show -e reg -n refused)"
for w in "node localhost (localhost)" "docker login to $server as $user failed" "401 Unauthorized"; do
  grep -qF -- "$w" <<<"$text" || fail "the refused login does not say '$w': $text"
done
grep -q "job started" "$(td job show -e reg -n refused --query jobDirectory)/stdouterr/execution-localhost.log" && fail "started after a refused login"
echo "registry ok"
