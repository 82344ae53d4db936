#!/usr/bin/env bash
# Issue #38: the agent never falls and loses nothing on what jobs write.
# - `agent stop` with clients connected (a subscribed `job wait`): the agent exits 0, not
#   134 (its sockets' disconnect handlers ran on sets already destroyed);
# - an event file whose record length says 2^63 (valid CRC) is named with its file and
#   offset, nothing is allocated for it, and the agent goes on;
# - a stdout line of 5 MB and a metrics.jsonl line of 10 MB are named and skipped: the
#   lines after them are stored.
set -u
traindesk=$1
work=$(mktemp -d "${TMPDIR:-/tmp}/td-hostile.XXXXXX")
export TRAINDESK_HOME=$work/home TRAINDESK_TRAINER_DIR=$(dirname "$traindesk")
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
agent_pid=
cleanup() {
  "$traindesk" agent stop >/dev/null 2>&1
  [ -n "$agent_pid" ] && kill "$agent_pid" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT
fail() { echo "FAIL: $*" >&2; [ -f "$work/agent.err" ] && tail -20 "$work/agent.err" >&2; exit 1; }
td() { "$traindesk" "$@"; }
state() { td job show -e hostile -n "$1" --query executionState; }
wait_state() {  # job state seconds
  for _ in $(seq 1 $(( $3 * 2 ))); do [ "$(state "$1")" = "$2" ] && return 0; sleep 0.5; done
  fail "job $1 is $(state "$1") after $3 s, not $2"
}
start_agent() {  # in the foreground of a background shell: its exit status is ours to see
  "$traindesk" agent --foreground >> "$work/agent.err" 2>&1 &
  agent_pid=$!
  for _ in $(seq 1 100); do td agent status >/dev/null 2>&1 && return 0; sleep 0.1; done
  fail "the agent did not answer"
}
job_json() {  # name command
  cat > "$work/$1.json" <<JSON
{ "properties": { "nodeCount": 1, "stdOutErrPathPrefix": "$work/jobs",
  "customToolkitSettings": { "commandLine": "$2" } } }
JSON
  echo "$work/$1.json"
}
mkdir -p "$work/jobs"
td experiment create -n hostile >/dev/null || fail "experiment create"

echo "== agent stop while clients are connected: exit status 0"
start_agent
td job create -e hostile -n long -c local -f "$(job_json long "sleep 600")" >/dev/null || fail "job create long"
wait_state long running 60
# Clients that stay connected and subscribed, as the GUI does (a `job wait` would start a
# new agent as soon as this one is gone).
cat > "$work/client.py" <<'PY'
import json, socket, sys, time
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.connect(sys.argv[1])
s.sendall(json.dumps({"op": "subscribe"}).encode() + b"\n")
s.recv(4096)
time.sleep(120)
PY
clients=
for i in 1 2 3; do python3 "$work/client.py" "$TRAINDESK_HOME/agent.sock" & clients="$clients $!"; done
for _ in $(seq 1 100); do
  [ "$(td agent status -o json | python3 -c 'import json,sys; print(json.load(sys.stdin)["clients"])')" -ge 3 ] && break
  sleep 0.1
done
td agent stop >/dev/null || fail "agent stop"
wait "$agent_pid"; status=$?
agent_pid=
[ "$status" = 0 ] || fail "the agent stopped with status $status while clients were connected"
grep -E "terminate called|Aborted|double free|corrupted" "$work/agent.err" && fail "the agent's log shows a crash"
kill $clients 2>/dev/null

echo "== a record length of 2^63 with a valid CRC: named, not allocated"
start_agent
td job terminate -e hostile -n long >/dev/null 2>&1
cat > "$work/hostile_events.py" <<'PY'
import os, struct, sys
def crc32c(data):
    crc = 0xFFFFFFFF
    for b in data:
        crc ^= b
        for _ in range(8):
            crc = (crc >> 1) ^ (0x82F63B78 if crc & 1 else 0)
    return crc ^ 0xFFFFFFFF
def masked(c):
    return ((((c >> 15) | (c << 17)) & 0xFFFFFFFF) + 0xA282EAD8) & 0xFFFFFFFF
def record(payload):
    length = struct.pack('<Q', len(payload))
    return length + struct.pack('<I', masked(crc32c(length))) + payload + struct.pack('<I', masked(crc32c(payload)))
def scalar_event(step, tag, value):  # Event{wall_time=1, step, summary{value{tag, simple_value}}}
    value_msg = b'\x0a' + bytes([len(tag)]) + tag + b'\x15' + struct.pack('<f', value)
    summary = b'\x0a' + bytes([len(value_msg)]) + value_msg
    return b'\x09' + struct.pack('<d', 1.0) + b'\x10' + bytes([step]) + b'\x2a' + bytes([len(summary)]) + summary
out = os.path.join(sys.argv[1], 'events.out.tfevents')  # CatBoost's bare name: read too
with open(out, 'wb') as f:
    f.write(record(scalar_event(1, b'good', 0.5)))
    length = struct.pack('<Q', 1 << 63)
    f.write(length + struct.pack('<I', masked(crc32c(length))) + b'x' * (5 * 1024 * 1024))
PY
td job create -e hostile -n events -c local \
  -f "$(job_json events "python3 $work/hostile_events.py \$AZ_BATCHAI_STDOUTERR_DIR; echo step=1 loss=1")" >/dev/null \
  || fail "job create events"
wait_state events succeeded 60
for _ in $(seq 1 60); do td job metrics -e hostile -j events --scalars 2>&1 | grep -q "9223372036854775808" && break; sleep 0.5; done
scalars=$(td job metrics -e hostile -j events --scalars 2>&1)
echo "$scalars" | grep -q "events.out.tfevents: the record at offset 42 says it is 9223372036854775808 bytes" \
  || fail "the hostile record is not named with its file and offset: $scalars"
echo "$scalars" | grep -q "^good " || fail "the record before it is not stored: $scalars"
td agent status >/dev/null || fail "the agent fell on the hostile event file"
kill -0 "$agent_pid" 2>/dev/null || fail "the agent process is gone"

echo "== a 5 MB stdout line and a 10 MB metrics.jsonl line: named, skipped, the lines after them stored"
cat > "$work/long_lines.py" <<'PY'
print('step=1 loss=1', flush=True)
print('x' * 5000000, flush=True)
print('step=2 loss=2', flush=True)
print('step=3 loss=3', flush=True)
PY
td job create -e hostile -n text -c local -f "$(job_json text "python3 $work/long_lines.py")" >/dev/null || fail "job create text"
wait_state text succeeded 60
for _ in $(seq 1 60); do td job metrics -e hostile -j text --series loss 2>/dev/null | grep -qE "^loss +3 " && break; sleep 0.5; done
series=$(td job metrics -e hostile -j text --series loss --csv 2>/dev/null)
[ "$(echo "$series" | tail -n +2 | cut -d, -f2 | tr '\n' ' ')" = "1 2 3 " ] || fail "steps stored around the long line: $series"
warnings=$(td job metrics -e hostile -j text --scalars 2>&1 >/dev/null)
[ "$(echo "$warnings" | grep -c "stdouterr/stdout.txt: the line at offset 14 is 5000001 bytes long, over the 4 MiB")" = 1 ] \
  || fail "the long line is not named once with its file and offset: $warnings"

cat > "$work/long_jsonl.py" <<'PY'
import json, os
path = os.path.join(os.environ['AZ_BATCHAI_STDOUTERR_DIR'], 'metrics.jsonl')
with open(path, 'w') as f:
    f.write(json.dumps({"kind": "train", "epoch": 1, "step": 1, "loss": 1.0}) + '\n')
    f.write('{"kind": "train", "note": "' + 'y' * 10000000 + '"}\n')
    for step in (2, 3):
        f.write(json.dumps({"kind": "train", "epoch": 1, "step": step, "loss": float(step)}) + '\n')
PY
td job create -e hostile -n jsonl -c local -f "$(job_json jsonl "python3 $work/long_jsonl.py")" >/dev/null || fail "job create jsonl"
wait_state jsonl succeeded 60
for _ in $(seq 1 60); do [ "$(td job metrics -e hostile -j jsonl --csv | grep -c ',train,')" = 3 ] && break; sleep 0.5; done
rows=$(td job metrics -e hostile -j jsonl --csv)
[ "$(echo "$rows" | grep ',train,' | cut -d, -f5 | tr '\n' ' ')" = "1 2 3 " ] || fail "train steps around the 10 MB line: $rows"
td agent status >/dev/null || fail "the agent fell on the long lines"
echo "hostile ok"
