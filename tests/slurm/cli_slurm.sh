#!/usr/bin/env bash
# Slurm clusters end to end, against a real Slurm (slurm_fixture.sh: munged, slurmctld and
# two slurmd) driven by the real `traindesk` CLI: the bundled trainer on 2 nodes with its
# metrics and model; PyTorch's rendezvous across the 2 nodes (the allocated nodes' names and
# addresses in launch.sh); a failing command's exit code; a job Slurm refuses at submit; a job
# pending with Slurm's reason while others hold the nodes, then starting; terminate of a
# running and of a pending job; a 1-minute maxWallClockTime. Exit 77 (skipped) where Slurm
# cannot run.
set -u
traindesk=$1
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/td-slurm.XXXXXX")
export TRAINDESK_HOME=$work/home TRAINDESK_TRAINER_DIR=$(dirname "$traindesk") QT_QPA_PLATFORM=offscreen
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
. "$here/slurm_fixture.sh"
cleanup() { slurm_stop "$work/slurm"; rm -rf "$work"; }
trap cleanup EXIT
slurm_start "$work/slurm"
rc=$?
[ $rc -eq 0 ] || exit $rc

fail() {
  echo "FAIL: $*" >&2
  "$traindesk" job list -e slurm >&2
  squeue --states=all >&2
  exit 1
}
td() { "$traindesk" "$@"; }
# job_json NAME NODES COMMAND [EXTRA_PROPERTIES]: a job on NODES nodes running the shell
# COMMAND on the first (customToolkitSettings); mpi_json runs an MPI program on every node.
job_json() {
  cat > "$work/$1.json" <<JSON
{ "properties": { "nodeCount": $2, "stdOutErrPathPrefix": "$work/jobs",
  "customToolkitSettings": { "commandLine": "$3" } ${4:-} } }
JSON
  echo "$work/$1.json"
}
mpi_json() {
  cat > "$work/$1.json" <<JSON
{ "properties": { "nodeCount": $2, "stdOutErrPathPrefix": "$work/jobs",
  "customMpiSettings": { "processCount": $2, "commandLine": "$3" } } }
JSON
  echo "$work/$1.json"
}
state_of() { td job show -e slurm -n "$1" --query executionState; }
# wait_for NAME PATTERN SECONDS: until the job's row in `job list` matches.
wait_for() {
  local i
  for i in $(seq 1 $(( $3 * 2 ))); do
    td job list -e slurm | grep -E "^$1 " | grep -qE "$2" && return 0
    sleep 0.5
  done
  fail "job $1 did not reach /$2/ within $3 s: $(td job list -e slurm | grep -E "^$1 ")"
}

# An agent started before SLURM_CONF was set (issue #28): the cluster keeps the user's Slurm
# settings and its commands run with them, so its jobs go through this agent all the same.
env -u SLURM_CONF "$traindesk" agent >/dev/null || fail "the agent does not start"
td experiment create -n slurm >/dev/null
td cluster create -n hpc --slurm local >/dev/null || fail "cluster create --slurm local"
td cluster show -n hpc | grep -E '^hpc +steady +2 +0 +0 +0 +0$' >/dev/null || fail "cluster show: $(td cluster show -n hpc)"
td cluster resize -n hpc -t 1 2>&1 | grep -q "Slurm's business" || fail "resize is not refused"

echo "== the bundled trainer, 2 ranks on 2 nodes"
trainer="traindesk-trainer --format synthetic --synthetic-train 512 --synthetic-test 128 --synthetic-shape 16x16x1 --epochs 2 --log-every 4 --lr 0.001 --dir \$AZ_BATCHAI_JOB_TEMP/model"
td job plan -c hpc -f "$(mpi_json train 2 "$trainer")" | grep -q '#SBATCH --nodes=2' || fail "job plan prints no batch script"
td job create -e slurm -n train -c hpc -f "$work/train.json" >/dev/null || fail "job create"
timeout 180 "$traindesk" job wait -e slurm -n train || fail "the trainer job failed"
jobdir=$(td job show -e slurm -n train --query jobDirectory)
[ -s "$jobdir/tmp/model/saved_models/keras_cifar10_trained_model.h5" ] || fail "no model written"
[ "$(grep -c '"kind": *"train"' "$jobdir/stdouterr/metrics.jsonl")" -ge 2 ] || fail "no train records in metrics.jsonl"
td job show -e slurm -n train -o json | grep -q '"jobId"' || fail "no Slurm job id in job show"
nodes=$(td job node list -e slurm -j train | awk 'NR > 2 {print $1}' | sort | tr '\n' ' ')
[ "$nodes" = "td1 td2 " ] || fail "the job's nodes are '$nodes', not td1 and td2"
# Each node's part in the job, from its execution log (execution-node-<i>.log on Slurm).
[ "$(td job node list -e slurm -j train | grep -c ' finished ')" = 2 ] || fail "job node list: $(td job node list -e slurm -j train)"
echo "== PyTorch over gloo, 2 ranks on 2 nodes: the rendezvous names an allocated node (issue #39)"
py=$(python3 -c 'import sys; print(sys.executable)')
cat > "$work/rendezvous.py" <<'PY'
# Rank 0 listens at MASTER_ADDR:MASTER_PORT, every other rank connects: what gloo's TCP store does.
import os, socket, sys, time
rank, world = int(os.environ["RANK"]), int(os.environ["WORLD_SIZE"])
addr, port = os.environ["MASTER_ADDR"], int(os.environ["MASTER_PORT"])
assert os.environ["AZ_BATCHAI_PYTORCH_INIT_METHOD"] == "tcp://%s:%d" % (addr, port), os.environ["AZ_BATCHAI_PYTORCH_INIT_METHOD"]
socket.getaddrinfo(addr, port)
if rank == 0:
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind(("", port))
    s.listen(world)
    for _ in range(world - 1):
        c, _ = s.accept()
        print("rank 0 met", c.recv(16).decode())
    print("rendezvous at %s: %d ranks" % (addr, world))
else:
    deadline = time.time() + 60
    while True:  # until rank 0 listens
        try:
            c = socket.create_connection((addr, port))
            break
        except OSError:
            if time.time() > deadline:
                raise
            time.sleep(0.2)
    c.sendall(b"rank%d" % rank)
PY
cat > "$work/gloo.json" <<JSON
{ "properties": { "nodeCount": 2, "stdOutErrPathPrefix": "$work/jobs",
  "pyTorchSettings": { "pythonInterpreterPath": "$py", "pythonScriptFilePath": "$work/rendezvous.py",
                       "processCount": 2, "communicationBackend": "gloo" } } }
JSON
td job create -e slurm -n gloo -c hpc -f "$work/gloo.json" >/dev/null || fail "job create gloo"
timeout 120 "$traindesk" job wait -e slurm -n gloo || fail "the PyTorch job failed: $(cat "$(td job show -e slurm -n gloo --query jobDirectory)"/stdouterr/std*.txt)"
jobdir=$(td job show -e slurm -n gloo --query jobDirectory)
grep -q "rendezvous at 127.0.0.1: 2 ranks" "$jobdir/stdouterr/stdout.txt" || fail "no rendezvous: $(cat "$jobdir"/stdouterr/std*.txt)"

echo "== cluster probe checks the login node (this machine), not the Slurm nodes' SSH ports"
td cluster probe -n hpc > "$work/probe.txt" 2>&1
grep -q "Connection refused" "$work/probe.txt" && fail "the probe tried the Slurm nodes' SSH ports: $(cat "$work/probe.txt")"
grep -q "PASS login *Reachable" "$work/probe.txt" && grep -q "PASS login *Slurm: .*partitions: debug" "$work/probe.txt" \
  || fail "probe: $(cat "$work/probe.txt")"

echo "== a failing command passes its exit code through"
td job create -e slurm -n fails -c hpc -f "$(job_json fails 1 "exit 3")" >/dev/null
timeout 60 "$traindesk" job wait -e slurm -n fails
[ $? -eq 3 ] || fail "job wait did not exit with the job's code 3"
td job show -e slurm -n fails -o json | grep -q '"exitCode": 3' || fail "exit code 3 not recorded"

echo "== a job Slurm refuses fails at submit with sbatch's message"
td cluster create -n gpus --slurm local --gpus-per-node 1 >/dev/null || fail "cluster create --gpus-per-node"
out=$(td job create -e slurm -n refused -c gpus -f "$(job_json refused 1 "true")" 2>&1) && fail "a refused job was created"
echo "$out" | grep -qi "sbatch: error" || fail "the refusal does not carry sbatch's message: $out"

echo "== the wall clock, queueing behind busy nodes, terminate"
td job create -e slurm -n clock -c hpc -f "$(job_json clock 1 "sleep 300" ', "constraints": {"maxWallClockTime": "00:01:00"}')" >/dev/null
wait_for clock "running" 30
td job create -e slurm -n long -c hpc -f "$(job_json long 1 "sleep 300")" >/dev/null
wait_for long "running" 30
td job create -e slurm -n behind -c hpc -f "$(job_json behind 1 "true")" >/dev/null
wait_for behind "queued \(Slurm [0-9]+: PENDING \((Resources|Priority)\)\)" 20
td job create -e slurm -n pending -c hpc -f "$(job_json pending 2 "true")" >/dev/null
wait_for pending "PENDING" 20
td job terminate -e slurm -n pending >/dev/null || fail "terminate of a pending job"
wait_for pending "failed" 30
td job show -e slurm -n pending -o json | grep -q JobTerminated || fail "the pending job is not JobTerminated"
td job terminate -e slurm -n long >/dev/null || fail "terminate of a running job"
wait_for long "failed" 30
td job show -e slurm -n long -o json | grep -q JobTerminated || fail "the running job is not JobTerminated"
# The node that job held is free again: the one queued behind starts and succeeds.
timeout 60 "$traindesk" job wait -e slurm -n behind || fail "the queued job did not run after the nodes freed up"
timeout 120 "$traindesk" job wait -e slurm -n clock
td job show -e slurm -n clock -o json | grep -q MaxWallClockTimeExceeded || fail "the wall clock did not end the job: $(td job show -e slurm -n clock -o json)"
[ -z "$(squeue -h)" ] || fail "Slurm still runs jobs: $(squeue -h)"
echo "PASS: Slurm cluster end to end"
