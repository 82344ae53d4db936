#!/bin/bash
# Trainer speed benchmark (CPU): traindesk-trainer vs PyTorch on the same model, batch,
# optimizer and thread count; GFLOP/s; per-layer breakdown; MPI scaling 2x1 vs 1x1.
# Usage: bench/trainer/run_bench.sh [BUILD_DIR] [THREADS]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../../build-trainer}
threads=${2:-$(nproc)}
trainer=$build/traindesk-trainer
py=/usr/bin/python3
[ -x "$py" ] || py=python3
mpiflags="--allow-run-as-root --oversubscribe --mca btl self,vader --mca btl_vader_single_copy_mechanism none"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# Training FLOPs per 32x32x3 image: forward + backward (data and weights), no data
# gradient for the first convolution.
flops=122.7e6

# images/s of the (single) epoch record: whole training loop, batch assembly included.
ips() { "$py" -c "import json,sys; print([json.loads(l) for l in open(sys.argv[1])][-2]['images_per_sec'])" "$1"; }

run_trainer() {  # name, launcher..., -- trainer args
    local name=$1; shift
    "$@" --metrics-file "$work/$name.jsonl" > "$work/$name.out" 2>&1 || { cat "$work/$name.out"; exit 1; }
    ips "$work/$name.jsonl"
}

common=(--synthetic-train 12800 --synthetic-test 64 --epochs 1 --no-augment --no-save --log-every 100000 --seed 1
        --dir "$work/out")
echo "== machine ($(date -u +%Y-%m-%dT%H:%MZ))"
echo "$(lscpu | sed -n 's/^Model name: *//p'), $(nproc) cores, $(lscpu | sed -n 's/^L3 cache: *//p') L3"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg) (other work on the machine skews every number below)"
echo "flags: $(grep -o -w -E 'avx2|avx512f|avx512_bf16|amx_tile' /proc/cpuinfo | sort -u | tr '\n' ' ')"
echo "== trainer, 1 rank x $threads threads, batch 32 (no augmentation: same work as the PyTorch loop)"
t=$(run_trainer t1 "$trainer" "${common[@]}" --threads "$threads" --profile)
sed -n '/Per-layer/,/outside the layers/p' "$work/t1.out"
echo "trainer: $t img/s = $("$py" -c "print(f'{$t*$flops/1e9:.1f}')") GFLOP/s"
echo "== PyTorch, $threads threads, batch 32"
l1=$("$py" "$here/bench_torch.py" --threads "$threads" --steps 300)
l2=$("$py" "$here/bench_torch.py" --threads "$threads" --steps 300 --channels-last)
printf '%s\n%s\n' "$l1" "$l2"
p1=$(sed 's/.*: \([0-9.]*\) img\/s.*/\1/' <<< "$l1")
p2=$(sed 's/.*: \([0-9.]*\) img\/s.*/\1/' <<< "$l2")
best=$("$py" -c "print(max($p1, $p2))")
echo "ratio trainer / best PyTorch: $("$py" -c "print(f'{$t/$best:.2f}')")x"
echo "== MPI scaling, 1 thread per rank"
s1=$(run_trainer s1 "$trainer" "${common[@]}" --threads 1)
s2=$(run_trainer s2 mpirun $mpiflags --bind-to core -np 2 "$trainer" "${common[@]}" --threads 1)
echo "1 rank x 1 thread: $s1 img/s; 2 ranks x 1 thread: $s2 img/s; speed-up $("$py" -c "print(f'{$s2/$s1:.2f}')")x"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
