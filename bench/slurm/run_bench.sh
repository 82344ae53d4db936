#!/usr/bin/env bash
# Slurm clusters, measured against Slurm itself (issue: Slurm clusters, speed):
#  1. submit to the first metric record: `traindesk job create` of a 1-node trainer job on
#     a Slurm cluster, against the same trainer under mpirun in an sbatch script typed by
#     hand (both write metrics.jsonl; the clock stops at its first "train" line);
#  2. the cost of watching 50 Slurm jobs: one refresh (`traindesk job list`) with 50 jobs
#     pending or running, its wall time, and how many squeue/sacct calls it made (counted by
#     a logging wrapper put first on PATH for this measurement only).
# Uses the test fixture's Slurm (tests/slurm/slurm_fixture.sh): two slurmd on this machine.
#   bench/slurm/run_bench.sh [BUILD_DIR] [ROUNDS]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:-$here/../../build}" && pwd)
rounds=${2:-5}
td=$build/bin/traindesk
work=$(mktemp -d "${TMPDIR:-/tmp}/td-slurm-bench.XXXXXX")
export TRAINDESK_HOME=$work/home TRAINDESK_TRAINER_DIR=$build/bin QT_QPA_PLATFORM=offscreen
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
. "$here/../../tests/slurm/slurm_fixture.sh"
trap 'scancel --user=root >/dev/null 2>&1; slurm_stop "$work/slurm"; rm -rf "$work"' EXIT
slurm_start "$work/slurm"
"$td" cluster create -n hpc --slurm local >/dev/null

now() { date +%s.%N; }
trainer_args="--format synthetic --synthetic-train 4096 --synthetic-test 256 --synthetic-shape 16x16x1 --epochs 1 --log-every 2"
first_train_line() {  # FILE: waits for its first train record
  until [ -f "$1" ] && grep -q '"kind": *"train"' "$1"; do sleep 0.02; done
}
median() { sort -n | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }

: > "$work/traindesk.times"; : > "$work/hand.times"
for r in $(seq 1 "$rounds"); do
  # TrainDesk: job create, then its metrics file in the job directory.
  cat > "$work/job$r.json" <<JSON
{ "properties": { "nodeCount": 1, "stdOutErrPathPrefix": "$work/jobs",
  "customMpiSettings": { "processCount": 1,
    "commandLine": "traindesk-trainer $trainer_args --dir \$AZ_BATCHAI_JOB_TEMP/model" } } }
JSON
  t0=$(now)
  "$td" job create -e demo -n bench$r -c hpc -f "$work/job$r.json" >/dev/null
  dir=$("$td" job show -e demo -n bench$r --query jobDirectory)
  first_train_line "$dir/stdouterr/metrics.jsonl"
  echo "$(now) - $t0" | bc >> "$work/traindesk.times"
  "$td" job wait -e demo -n bench$r >/dev/null
  # By hand: the same program in a batch script.
  cat > "$work/hand$r.sh" <<SH
#!/bin/sh
#SBATCH --nodes=1
#SBATCH --ntasks=1
#SBATCH --output=$work/hand$r.out
mpirun -np 1 $build/bin/traindesk-trainer $trainer_args --dir $work/hand$r --metrics-file $work/hand$r.jsonl
SH
  t0=$(now)
  id=$(sbatch --parsable "$work/hand$r.sh")
  first_train_line "$work/hand$r.jsonl"
  echo "$(now) - $t0" | bc >> "$work/hand.times"
  while [ -n "$(squeue -h -j "$id")" ]; do sleep 0.1; done
done
tdm=$(median < "$work/traindesk.times"); handm=$(median < "$work/hand.times")
echo "submit to first metric record, median of $rounds: traindesk job create ${tdm}s, sbatch by hand ${handm}s," \
     "overhead $(echo "$tdm - $handm" | bc)s, ratio $(echo "scale=2; $tdm / $handm" | bc)"

# Watching 50 jobs: 50 jobs of 2 nodes each queue behind one another (one runs at a time).
cat > "$work/sleep.json" <<JSON
{ "properties": { "nodeCount": 2, "stdOutErrPathPrefix": "$work/jobs",
  "customToolkitSettings": { "commandLine": "sleep 600" } } }
JSON
for i in $(seq 1 50); do "$td" job create -e demo -n watch$i -c hpc -f "$work/sleep.json" >/dev/null; done
mkdir -p "$work/shim"
for tool in squeue sacct; do
  real=$(command -v $tool)
  printf '#!/bin/sh\necho %s >> %s/calls\nexec %s "$@"\n' "$tool" "$work" "$real" > "$work/shim/$tool"
  chmod +x "$work/shim/$tool"
done
: > "$work/calls"
t0=$(now)
for i in $(seq 1 10); do PATH=$work/shim:$PATH "$td" job list -e demo >/dev/null; done
per=$(echo "scale=3; ($(now) - $t0) / 10" | bc)
calls=$(wc -l < "$work/calls")
echo "watching 50 Slurm jobs: one refresh (traindesk job list) takes ${per}s wall," \
     "$(echo "scale=1; $calls / 10" | bc) squeue/sacct calls per refresh ($(grep -c squeue "$work/calls") squeue, $(grep -c sacct "$work/calls" || true) sacct in 10)"
