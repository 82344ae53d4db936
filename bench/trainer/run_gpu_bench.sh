#!/bin/bash
# Trainer GPU benchmark (one H100/H200): 100 epochs of 50,000 32x32x3 images at batch 32
# (targets: <= 60 s of training and >= 3x PyTorch on the same GPU), us/step, kernels/step,
# fraction of the FLOP floor (122.7 MFLOP per training image), the per-layer breakdown,
# and Fashion-MNIST test accuracy on the GPU against the CPU (target: within 0.5 points).
#
# Usage: bench/trainer/run_gpu_bench.sh [BUILD_DIR]
#   BUILD_DIR defaults to build-gpu-bench beside bench/; built (Release) when it has no trainer.
# Environment:
#   EPOCHS=100 TRAIN=50000 TEST=10000   the timed runs (synthetic 32x32x3 unless CIFAR=DIR)
#   CIFAR=DIR                           CIFAR-10 binary version instead of the synthetic set
#   FASHION=DIR                         Fashion-MNIST IDX files (default: Debian's
#                                       /usr/share/datasets/fashion-mnist); the accuracy part is
#                                       skipped when absent
#   FASHION_EPOCHS=15                   epochs of the accuracy comparison (CPU and GPU)
#   QUICK=1                             10 epochs, 5 Fashion-MNIST epochs (a smoke run)
#   GPU_KERNELS=library|fused           the GPU's kernel path (--gpu-kernels; default the
#                                       trainer's default)
#   OUT=DIR                             keep logs and metrics there (default: a temp dir)
# Exit code 77 without a usable NVIDIA GPU (nothing measured then).
set -euo pipefail
# --device cuda with the kernel path asked for.
cuda=(--device cuda)
if [ -n "${GPU_KERNELS:-}" ]; then cuda+=(--gpu-kernels "$GPU_KERNELS"); fi
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=${1:-$root/build-gpu-bench}
if [ "${QUICK:-0}" = 1 ]; then EPOCHS=${EPOCHS:-10}; FASHION_EPOCHS=${FASHION_EPOCHS:-5}; fi
epochs=${EPOCHS:-100}
train=${TRAIN:-50000}
test_n=${TEST:-10000}
fashion=${FASHION:-/usr/share/datasets/fashion-mnist}
fashion_epochs=${FASHION_EPOCHS:-15}
work=${OUT:-$(mktemp -d)}
mkdir -p "$work"
py=python3
flops=122.7e6   # training FLOPs per 32x32x3 image (forward + backward, no data gradient for conv 1)
mpiflags="--allow-run-as-root --oversubscribe --bind-to none"

say() { echo "$@" | tee -a "$work/summary.txt"; }

# ---- build ----
trainer=$build/traindesk-trainer
if [ ! -x "$trainer" ]; then
    extra=()
    # cuDNN / NCCL from the pip wheels when the toolkit has none (the GPU machines' image).
    for lib in cudnn nccl; do
        d=$($py -c "import nvidia.$lib, os; print(os.path.dirname(nvidia.$lib.__file__ or nvidia.$lib.__path__[0]))" 2>/dev/null || true)
        [ -n "$d" ] && [ -d "$d" ] && extra+=("-D$(echo $lib | tr a-z A-Z)_ROOT=$d")
    done
    cmake -S "$root/trainer" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release "${extra[@]}" > "$work/cmake.log" 2>&1 \
        || { tail -30 "$work/cmake.log"; echo "configure failed (needs MPI, oneDNN, HDF5, zlib; see trainer/README.md)"; exit 1; }
    grep "traindesk-trainer:" "$work/cmake.log" || true
    ninja -C "$build" traindesk-trainer > "$work/build.log" 2>&1 || { tail -30 "$work/build.log"; exit 1; }
fi
[ -f "$build/libtraindesk-trainer-cuda.so" ] || { echo "this build has no CUDA backend (see $work/cmake.log)"; exit 1; }
if ! info=$("$trainer" --gpu-info); then
    echo "SKIPPED: $info"
    exit 77
fi

say "== $(date -u +%Y-%m-%dT%H:%MZ) $(nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv,noheader 2>/dev/null | head -1)"
say "$info"
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1 || echo unknown)
# Dense peaks (TFLOP/s): FP32 on the CUDA cores, TF32 on the tensor cores (datasheet, boost clock).
case "$gpu" in
    *H100*PCIe*) peak32=51.2; peak_tf32=378 ;;
    *H100*NVL*) peak32=60.0; peak_tf32=418 ;;
    *H100*|*H200*|*GH200*) peak32=66.9; peak_tf32=494.7 ;;
    *) peak32=""; peak_tf32="" ;;
esac
say "peak used for the FLOP floor: FP32 ${peak32:-?} TFLOP/s, TF32 ${peak_tf32:-?} TFLOP/s ($gpu)"

if [ -n "${CIFAR:-}" ]; then data=(--format cifar10 --data "$CIFAR"); else
    data=(--synthetic-train "$train" --synthetic-test "$test_n" --synthetic-shape 32x32x3); fi

# $1 name, rest: trainer args. Prints "train_seconds total_seconds val_acc us_step kernels".
run_trainer() {
    local name=$1; shift
    "$@" --metrics-file "$work/$name.jsonl" > "$work/$name.out" 2>&1 || { tail -30 "$work/$name.out"; exit 1; }
    $py - "$work/$name.jsonl" "$work/$name.out" <<'PY'
import json, re, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
done = [r for r in recs if r["kind"] == "done"][-1]
out = open(sys.argv[2]).read()
us = re.search(r"GPU: ([0-9.]+) us/step", out)
k = re.search(r"([0-9]+) kernels per step", out)
print(done["train_seconds"], done["seconds"], done["val_acc"], us.group(1) if us else "nan", k.group(1) if k else "nan")
PY
}

common=("${data[@]}" --epochs "$epochs" --batch-size 32 --seed 1 --no-save --dir "$work/out")
say "== traindesk-trainer on the GPU: $epochs epochs x $train images, batch 32 (augmentation on, as the tutorial)"
need() {  # a run's first field must be a number, else show its log and stop
    [[ "$1" =~ ^[0-9.]+$ ]] || { echo "run $2 failed:"; tail -30 "$work/$2.out"; exit 1; }
}
read -r t32 tot32 acc32 us32 k32 <<< "$(run_trainer fp32 "$trainer" "${cuda[@]}" "${common[@]}")"; need "$t32" fp32
read -r ttf tottf acctf ustf ktf <<< "$(run_trainer tf32 "$trainer" "${cuda[@]}" --tf32 "${common[@]}")"; need "$ttf" tf32
read -r tna totna accna usna kna <<< "$(run_trainer noaug "$trainer" "${cuda[@]}" --no-augment "${common[@]}")"
need "$tna" noaug
grep -h "CUDA graph:\|GPU: \|cuDNN\|NHWC convolutions" "$work/fp32.out" | head -5 | tee -a "$work/summary.txt"

images=$($py -c "print($train // 32 * 32 * $epochs)")
frac() { [ -n "$2" ] && $py -c "print(f'{$flops*$images/$1/($2*1e12)*100:.1f}%')" || echo "?"; }
ips() { $py -c "print(f'{$images/$1:.0f}')"; }

say "== per-layer breakdown (eager, CUDA events; 2000 steps)"
"$trainer" "${cuda[@]}" "${data[@]}" --epochs 1 --max-steps 2000 --batch-size 32 --seed 1 --no-save --profile \
    --dir "$work/prof" --metrics-file "$work/prof.jsonl" > "$work/prof.out" 2>&1 || tail -20 "$work/prof.out"
sed -n '/Per-layer GPU time/,/cuDNN algorithms/p' "$work/prof.out" | tee -a "$work/summary.txt"

say "== PyTorch on the same GPU (data resident, no augmentation, cudnn.benchmark)"
torch_ips() { sed -n 's/.*: \([0-9.]*\) img\/s.*/\1/p' <<< "$1"; }
if $py -c "import torch; assert torch.cuda.is_available()" 2>/dev/null; then
    p32=$($py "$here/bench_torch_gpu.py" 2>&1 | tail -1); say "$p32"
    pcl=$($py "$here/bench_torch_gpu.py" --channels-last 2>&1 | tail -1); say "$pcl"
    ptf=$($py "$here/bench_torch_gpu.py" --tf32 2>&1 | tail -1); say "$ptf"
    pco=$($py "$here/bench_torch_gpu.py" --compile 2>&1 | tail -1 || true); say "$pco"
    best32=$($py -c "print(max(float(v) for v in '''$(torch_ips "$p32") $(torch_ips "$pcl") $(torch_ips "$pco")'''.split()))")
    besttf=$(torch_ips "$ptf")
else
    say "PyTorch with CUDA is not available here: no PyTorch comparison"
    best32=""; besttf=""
fi

say ""
say "| run ($epochs epochs x $train images, batch 32) | train s | total s | us/step | kernels/step | img/s | FLOP-floor fraction | x PyTorch |"
say "|---|---:|---:|---:|---:|---:|---:|---:|"
row() {  # name train total us kernels peak torch
    local r="—"; [ -n "$7" ] && r=$($py -c "print(f'{$(ips "$2")/$7:.2f}x')")
    say "| $1 | $2 | $3 | $4 | $5 | $(ips "$2") | $(frac "$2" "$6") | $r |"
}
row "trainer FP32" "$t32" "$tot32" "$us32" "$k32" "$peak32" "$best32"
row "trainer TF32" "$ttf" "$tottf" "$ustf" "$ktf" "$peak_tf32" "$besttf"
row "trainer FP32, no augmentation" "$tna" "$totna" "$usna" "$kna" "$peak32" "$best32"
say "targets: train s <= 60, x PyTorch >= 3 (against the best FP32 PyTorch variant above)"

# ---- Fashion-MNIST: accuracy on the GPU vs the CPU ----
if compgen -G "$fashion/train-images-idx3-ubyte*" > /dev/null; then
    say "== Fashion-MNIST, $fashion_epochs epochs, 1 worker, batch 32, seed 7: test accuracy"
    fm=(--format idx --data "$fashion" --epochs "$fashion_epochs" --seed 7 --no-save --dir "$work/fm")
    read -r tc _ acc_cpu _ _ <<< "$(run_trainer fm-cpu "$trainer" --device cpu --threads "$(nproc)" "${fm[@]}")"
    need "$tc" fm-cpu
    read -r tg _ acc_gpu _ _ <<< "$(run_trainer fm-gpu "$trainer" "${cuda[@]}" "${fm[@]}")"
    need "$tg" fm-gpu
    say "cpu $acc_cpu, gpu $acc_gpu, difference $($py -c "print(f'{abs($acc_gpu-$acc_cpu)*100:.2f} points (target <= 0.5)')")"
else
    say "Fashion-MNIST not found in $fashion (set FASHION=DIR): accuracy comparison skipped"
fi

# ---- several GPUs: NCCL ----
ngpu=$(sed -n 's/^gpus: //p' <<< "$info")
if [ "${ngpu:-1}" -ge 2 ] && command -v mpirun > /dev/null; then
    say "== $ngpu GPUs, NCCL (per-GPU batch 32, 5 epochs)"
    read -r tm _ _ usm _ <<< "$(run_trainer multi mpirun $mpiflags -np "$ngpu" "$trainer" "${cuda[@]}" "${data[@]}" \
        --epochs 5 --batch-size 32 --seed 1 --no-save --dir "$work/multi")"
    need "$tm" multi
    say "train s $tm, us/step $usm (each step: $ngpu x 32 images)"
fi
say "logs: $work"
