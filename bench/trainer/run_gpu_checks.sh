#!/usr/bin/env bash
# Every GPU check of the trainer, on any GPU machine, from the portable trainer archive alone
# (cpack / the trainer-portable target: traindesk-trainer-VERSION-linux-x86_64.tar.gz): no
# build, no package installed; the CUDA libraries are the machine's (toolkit, system path or
# Python wheels: the trainer finds them, --gpu-info says where). Each step runs under its own
# time limit (timeout); the limits add up to under 8 minutes; everything goes into one log.
#
#   1 --gpu-info             the GPUs, the driver and the CUDA libraries it found (15 s)
#   2 trainer_gpu_layers     every layer, GPU against CPU, FP32 and TF32 (checks/ in the archive; 40 s)
#   3 trainer_gpu_train      50 steps GPU vs CPU, self-check, resume (tests/trainer; 90 s)
#   4 trainer_gpu_nccl       NCCL over one rank (tests/trainer; 30 s)
#   5 benchmark              100 epochs x 50,000 synthetic 32x32x3 images, batch 32 (115 s)
#   6 step profile           per-section times of 200 eager steps (--profile: the trainer's
#                            ProfileTimeline, CUDA events per layer and pass; 30 s)
#   7 kernel durations       when ncu (Nsight Compute) is on the machine: every kernel of a
#                            4-step run, the CUDA graph's nodes one by one (--graph-profiling
#                            node, --clock-control none), as a table (ncu_table.py; 55 s)
#   8 PyTorch peer           bench_torch_gpu.py, same model on the same GPU (40 s; needs torch)
#   9 Fashion-MNIST          3 epochs, seed 7, GPU and CPU side by side: test accuracy (60 s;
#                            IDX files in $FASHION, /usr/share/datasets/fashion-mnist or
#                            fashion-mnist/ beside the archive)
# (Limits: 475 s in all. The 2026-11-26 H100 run took 161 s for steps 1-5, 8 and 9.)
#
# usage: bench/trainer/run_gpu_checks.sh ARCHIVE [LOG]
#   LOG defaults to gpu-checks-<UTC time>.log in the current folder. Exit 0 when every step
#   that ran passed, 1 when one failed, 77 without a usable GPU (step 1's log says why).
set -uo pipefail
archive=${1:?usage: run_gpu_checks.sh ARCHIVE [LOG]}
log=${2:-$PWD/gpu-checks-$(date -u +%Y%m%dT%H%M%SZ).log}
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
tests=$repo/tests/trainer
work=$(mktemp -d "${TMPDIR:-/tmp}/td-gpu-checks.XXXXXX")
trap 'rm -rf "$work"' EXIT
: > "$log"
say() { echo "$@" | tee -a "$log"; }
failed=0
summary=()

# step NAME LIMIT_S COMMAND...: runs it with its output in the log, records the outcome.
step() {
  local name=$1 limit=$2 start rc
  shift 2
  say ""
  say "==== $name (limit ${limit} s): $*"
  start=$(date +%s.%N)
  timeout --kill-after=2 "$limit" "$@" >>"$log" 2>&1
  rc=$?
  local took
  took=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN {printf "%.1f", b - a}')
  case $rc in
    0) summary+=("PASS  $name  ${took} s") ;;
    77) summary+=("SKIP  $name  ${took} s") ;;
    124|137) summary+=("FAIL  $name  ${took} s: over its limit of ${limit} s"); failed=1 ;;
    *) summary+=("FAIL  $name  ${took} s: exit code $rc"); failed=1 ;;
  esac
  say "---- $name: exit code $rc after ${took} s"
  return $rc
}

say "GPU checks of $(basename "$archive"), $(date -u +%Y-%m-%dT%H:%M:%SZ) on $(hostname)"
say "$(nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>/dev/null | head -4 || echo 'nvidia-smi: not found')"
say "$(. /etc/os-release 2>/dev/null && echo "$PRETTY_NAME"), glibc $(ldd --version 2>/dev/null | head -1 | awk '{print $NF}'), $(nproc) CPUs"
tar -xzf "$archive" -C "$work" || { say "cannot unpack $archive"; exit 1; }
dir=$(echo "$work"/traindesk-trainer-*-linux-x86_64)
T=$dir/traindesk-trainer
M=$dir/mpirun
[ -x "$T" ] || { say "no traindesk-trainer in $archive"; exit 1; }
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1

if ! step "gpu-info" 15 "$T" --gpu-info; then
  summary[-1]="SKIP  everything: no usable GPU (the gpu-info lines above say why)"
  printf '%s\n' "${summary[@]}" | tee -a "$log"
  exit 77
fi
# The folders of the CUDA libraries the trainer found, for the test program that links them.
cuda_dirs=$("$T" --gpu-info | awk '/^lib[^ ]*\.so[^ ]*: \// {sub(/\/[^\/]*$/, "", $2); print $2}' | sort -u | paste -sd:)
# The test program links Open MPI: the folder's when the machine has none.
. "$dir/mpi/portable-env.sh"
td_root=$dir
mpi_env=()
if ! td_node_mpirun >/dev/null; then
  mpi_env=(env "OPAL_PREFIX=$dir/mpi" "PMIX_PREFIX=$dir/mpi/pmix" "PATH=$dir/mpi/bin:$PATH"
           "LD_LIBRARY_PATH=$dir/mpi/lib:$cuda_dirs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}")
else
  mpi_env=(env "LD_LIBRARY_PATH=$cuda_dirs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}")
fi
command -v ssh >/dev/null || mpi_env+=("OMPI_MCA_plm_rsh_agent=false")

if [ -x "$dir/checks/trainer_gpu_layers" ]; then
  step "trainer_gpu_layers" 40 "${mpi_env[@]}" "$dir/checks/trainer_gpu_layers"
else
  summary+=("SKIP  trainer_gpu_layers: not in the archive (a build without the CUDA backend)")
fi

py=""
for p in "$(command -v python3)" /usr/bin/python3; do  # the first with numpy (the tests need it)
  if [ -x "$p" ] && "$p" -c "import numpy" 2>/dev/null; then py=$p; break; fi
done
if [ -n "$py" ]; then
  step "trainer_gpu_train" 90 "$py" "$tests/test_gpu_train.py" --trainer "$T" --work "$work/gpu_train"
  step "trainer_gpu_nccl (one rank)" 30 "$py" "$tests/test_gpu_nccl.py" --part one-rank --trainer "$T" \
    --mpiexec "$M" --mpiexec-flags "--oversubscribe --bind-to none" --work "$work/gpu_nccl"
else
  summary+=("SKIP  trainer_gpu_train, trainer_gpu_nccl: they need python3 with numpy")
fi

bench() {  # the 100-epoch benchmark; prints the figures of its metrics file
  "$T" --device cuda --synthetic-train 50000 --synthetic-test 10000 --synthetic-shape 32x32x3 --epochs 100 \
    --batch-size 32 --seed 1 --no-save --dir "$work/bench" --metrics-file "$work/bench.jsonl" > "$work/bench.out" 2>&1
  local rc=$?
  grep -h "self-check\|CUDA graph\|us/step\|kernels per step\|Total time" "$work/bench.out" | head -6
  [ $rc = 0 ] || { tail -20 "$work/bench.out"; return $rc; }
  grep '"kind": *"done"' "$work/bench.jsonl" | tail -1
}
export T work fashion
export -f bench
step "100 epochs x 50,000 images, batch 32" 115 bash -c bench

# Where the step's time goes (issue #46). Eager steps (--profile runs no CUDA graph), each
# section between CUDA events: augment, each layer's forward and backward, loss, all-reduce,
# RMSprop. The graph's own per-kernel durations come from ncu below.
profile_run() {
  "$T" --device cuda --skip-gpu-check --synthetic-train 6400 --synthetic-test 32 --synthetic-shape 32x32x3 \
    --epochs 1 --batch-size 32 --seed 1 --no-save --profile --dir "$work/prof" > "$work/prof.out" 2>&1
  local rc=$?
  [ $rc = 0 ] || { tail -20 "$work/prof.out"; return $rc; }
  sed -n '/Per-layer GPU time/,/cuDNN algorithms/p' "$work/prof.out"
  grep -q "Per-layer GPU time" "$work/prof.out" || { echo "no per-section table in the trainer's output"; return 1; }
}
export -f profile_run
step "step profile (eager, per section)" 30 bash -c profile_run

# ncu_path: Nsight Compute's command line, on PATH or where the CUDA Toolkit puts it.
ncu_path() {
  command -v ncu 2>/dev/null && return
  ls -d /usr/local/cuda*/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | sort -V | tail -1
}
kernel_run() {  # every kernel of 4 steps (step 1 eager, 2-4 the graph's nodes) and the evaluation
  local ncu=$1
  "$ncu" --graph-profiling node --clock-control none --metrics gpu__time_duration.sum --csv --print-units base \
    --launch-count 1500 --log-file "$work/ncu.csv" \
    "$T" --device cuda --skip-gpu-check --synthetic-train 128 --synthetic-test 32 --synthetic-shape 32x32x3 \
    --epochs 1 --batch-size 32 --seed 1 --no-save --max-steps 4 --dir "$work/ncu" > "$work/ncu-app.out" 2>&1
  local rc=$?
  if grep -qs "ERR_NVGPUCTRPERM" "$work/ncu.csv" "$work/ncu-app.out"; then
    echo "ncu: no permission for the GPU's performance counters on this machine (ERR_NVGPUCTRPERM)"
    return 77
  fi
  [ $rc = 0 ] || { tail -20 "$work/ncu.csv" "$work/ncu-app.out"; return $rc; }
  grep -h "CUDA graph" "$work/ncu-app.out"
  echo "(4 steps: step 1 eager, steps 2-4 the CUDA graph profiled node by node; plus the setup's and the"
  echo " 32-image evaluation's kernels: per-step columns divide by 4)"
  "$ncu_py" "$here/ncu_table.py" "$work/ncu.csv" --steps 4 --top 60
}
ncu=$(ncu_path)
ncu_py=${py:-$(command -v python3)}
if [ -n "$ncu" ] && [ -n "$ncu_py" ]; then
  export -f kernel_run
  export ncu_py here
  step "kernel durations (ncu, graph nodes)" 55 bash -c 'kernel_run "$1"' _ "$ncu"
elif [ -z "$ncu" ]; then
  summary+=("SKIP  kernel durations: no ncu (Nsight Compute) on this machine")
else
  summary+=("SKIP  kernel durations: no python3 for ncu_table.py")
fi

torch_py=""
for p in "$(command -v python3)" /usr/bin/python3; do
  if [ -x "$p" ] && "$p" -c "import torch; assert torch.cuda.is_available()" 2>/dev/null; then torch_py=$p; break; fi
done
if [ -n "$torch_py" ]; then
  step "PyTorch peer (bench_torch_gpu.py)" 40 "$torch_py" "$here/bench_torch_gpu.py" --steps 2000 --warmup 200
else
  summary+=("SKIP  PyTorch peer: no PyTorch with CUDA here")
fi

fashion=""
for d in "${FASHION:-}" /usr/share/datasets/fashion-mnist "$(dirname "$archive")/fashion-mnist"; do
  if [ -n "$d" ] && compgen -G "$d/train-images-idx3-ubyte*" >/dev/null; then fashion=$d; break; fi
done
fashion_run() {  # GPU and CPU side by side, 3 epochs, seed 7; their test accuracies
  local fm=(--format idx --data "$fashion" --epochs 3 --seed 7 --no-save)
  "$T" --device cuda "${fm[@]}" --dir "$work/fm-gpu" --metrics-file "$work/fm-gpu.jsonl" > "$work/fm-gpu.out" 2>&1 &
  local gpu=$!
  "$T" --device cpu --threads "$(nproc)" "${fm[@]}" --dir "$work/fm-cpu" --metrics-file "$work/fm-cpu.jsonl" \
    > "$work/fm-cpu.out" 2>&1
  local cpu_rc=$?
  wait $gpu
  local gpu_rc=$?
  tail -n 3 "$work/fm-gpu.out" "$work/fm-cpu.out"
  [ $gpu_rc = 0 ] && [ $cpu_rc = 0 ] || return 1
  for side in gpu cpu; do
    echo "$side: $(grep '"kind": *"val"' "$work/fm-$side.jsonl" | tail -1)"
  done
}
if [ -n "$fashion" ]; then
  export -f fashion_run
  step "Fashion-MNIST GPU vs CPU accuracy" 60 bash -c fashion_run
else
  summary+=("SKIP  Fashion-MNIST: no IDX files (set FASHION=DIR or put fashion-mnist/ beside the archive)")
fi

say ""
say "==== summary"
printf '%s\n' "${summary[@]}" | tee -a "$log"
say "log: $log"
exit $failed
