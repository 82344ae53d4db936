#!/usr/bin/env bash
# The portable trainer (installer/portable) unpacked into a minimal Debian 12 root
# (debootstrap --variant=minbase from this machine's apt mirror, cached in the build folder):
# no oneDNN, HDF5, Open MPI, OpenMP or CUDA there. It must run --version, train one CPU epoch,
# train with two ranks under the folder's own mpirun, and end --gpu-info cleanly naming the
# missing driver; with CUDA libraries laid out as Python wheels put them
# (site-packages/nvidia/{cuda_runtime,cublas,cudnn,nccl}/lib) and the toolkit's driver stub,
# its library lookup finds each in the wheel folder, says so, and the plugin loads.
#
# test_portable_root.sh ARCHIVE ROOT_CACHE [DRIVER_STUB]
# test_portable_root.sh --prepare ROOT_CACHE   only makes the root (ctest's fixture
#   trainer_portable_minbase: the debootstrap waits on the mirror and on dpkg, so it runs
#   beside other tests, not in the cpu_bound queue where this test runs)
set -uo pipefail
fail() { echo "FAIL: $*" >&2; exit 1; }
[ "$(id -u)" = 0 ] || { echo "SKIP: chroot and mounts need root"; exit 77; }
command -v debootstrap >/dev/null || { echo "SKIP: debootstrap is not installed (scripts/install-deps.sh)"; exit 77; }

# The minimal root, made once into ROOT_CACHE.
make_root() {
  local root=$1 mirror
  [ -x "$root/bin/sh" ] && return 0
  # One debootstrap into the folder at a time (test.sh's early start, the fixture, the test).
  exec 8>"$root.lock"
  flock 8 || fail "cannot lock $root.lock"
  [ -x "$root/bin/sh" ] && return 0
  mirror=$(sed -n 's/^URIs: *//p' /etc/apt/sources.list.d/*.sources 2>/dev/null | head -1)
  [ -n "$mirror" ] || mirror=$(awk '$1 == "deb" {print $2; exit}' /etc/apt/sources.list 2>/dev/null)
  echo "== debootstrap --variant=minbase bookworm from ${mirror:-the default mirror} into $root (cached)"
  rm -rf "$root.tmp"
  debootstrap --variant=minbase bookworm "$root.tmp" ${mirror:+"$mirror"} >"$root.log" 2>&1 \
    || { tail -20 "$root.log"; echo "SKIP: debootstrap failed (no mirror reachable?)"; exit 77; }
  mv "$root.tmp" "$root"
}
if [ "${1:-}" = --prepare ]; then
  make_root "$2"
  exit
fi
archive=$1 root=$2 stub=${3:-}
[ -s "$archive" ] || fail "no portable trainer at $archive (build the target trainer-portable)"
make_root "$root"
for lib in libdnnl libhdf5 libmpi libgomp libcudnn libcuda; do
  if grep -q "$lib" <<<"$(chroot "$root" /sbin/ldconfig -p)"; then fail "the minimal root has $lib: not a bare node"; fi
done

name=$(basename "$archive" .tar.gz)
run=/opt/td-$$
trap 'rm -rf "$root$run" "$root/opt/venv-$$" "$root/opt/stub-$$"' EXIT
mkdir -p "$root$run"
tar -xzf "$archive" -C "$root$run" || fail "cannot unpack $archive"
T=$run/$name/traindesk-trainer
M=$run/$name/mpirun

# Runs a shell command in the root, with /proc, /sys, /dev and /dev/shm, in a mount namespace of
# its own (the mounts vanish with it); extra "SRC DEST" bind mounts from $binds.
binds=()
in_root() {
  local setup="mount -t proc proc '$root/proc' && mount -t sysfs sysfs '$root/sys' && mount --rbind /dev '$root/dev' && mount -t tmpfs tmpfs '$root/dev/shm'"
  local b
  for b in "${binds[@]}"; do setup="$setup && touch '$root${b#* }' && mount --bind ${b% *} '$root${b#* }'"; done
  unshare --mount --propagation private sh -c "$setup && exec chroot '$root' /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 $1"
}

echo "== --version"
out=$(in_root "$T --version" 2>&1) || fail "--version: $out"
echo "$out"
grep -q "^traindesk-trainer " <<<"$out" || fail "--version printed: $out"

echo "== one CPU epoch"
out=$(in_root "$T --synthetic-train 256 --synthetic-test 64 --synthetic-shape 16x16x1 --epochs 1 --no-save --dir /tmp/one --device cpu" 2>&1) \
  || fail "one epoch: $out"
echo "$out" | tail -3
grep -q "Epoch 1/1" <<<"$out" || fail "no epoch in: $out"

echo "== two ranks under the folder's own mpirun"
out=$(in_root "$M -np 2 --oversubscribe $T --synthetic-train 256 --synthetic-test 64 --synthetic-shape 16x16x1 --epochs 1 --no-save --dir /tmp/two --device cpu --metrics-file /tmp/two.jsonl" 2>&1) \
  || fail "two ranks: $out"
echo "$out" | tail -3
grep -q '"workers": 2' <<<"$(in_root "cat /tmp/two.jsonl")" || fail "the run did not have 2 workers: $(in_root 'cat /tmp/two.jsonl' | head -2)"

echo "== --gpu-info without a driver"
out=$(in_root "$T --gpu-info" 2>&1)
rc=$?
echo "$out"
[ $rc = 1 ] || fail "--gpu-info exited $rc"
if grep -q "CUDA backend not built\|this build has no CUDA backend" <<<"$out"; then
  echo "(this build has no CUDA backend: the library lookup is not checked)"
  echo ok
  exit 0
fi
grep -q "no usable NVIDIA GPU: no NVIDIA driver (libcuda.so.1" <<<"$out" || fail "the missing driver is not named"
grep -q "libcudnn.so.[0-9]*: not found" <<<"$out" || fail "the missing cuDNN is not named"
grep -q "looked for .* in: .*/usr/local/cuda" <<<"$out" || fail "it does not say where it looked"

echo "== the CUDA libraries as Python wheels lay them out, and the driver stub"
[ -n "$stub" ] && [ -f "$stub" ] || { echo "(no driver stub: the wheel layout is not checked)"; echo ok; exit 0; }
plugin=$root$run/$name/bin/libtraindesk-trainer-cuda.so
sp=/opt/venv-$$/lib/python3.11/site-packages
for soname in $(objdump -p "$plugin" | awk '$1 == "NEEDED" {print $2}' | grep -E '^lib(cudart|cublas|cudnn|nccl)'); do
  src=$(ldd "$plugin" | awk -v s="$soname" '$1 == s {print $3}')
  [ -f "$src" ] || fail "this machine has no $soname for the test"
  case $soname in
    libcudart*) wheel=cuda_runtime ;; libcublas*) wheel=cublas ;; libcudnn*) wheel=cudnn ;; libnccl*) wheel=nccl ;;
  esac
  mkdir -p "$root$sp/nvidia/$wheel/lib"
  binds+=("$(readlink -f "$src") $sp/nvidia/$wheel/lib/$soname")
  if [ "$wheel" = cublas ]; then  # cuBLAS needs cuBLASLt, in the same wheel
    lt=$(ldd "$src" | awk '$1 ~ /^libcublasLt/ {print $1, $3}')
    binds+=("$(readlink -f "${lt#* }") $sp/nvidia/cublas/lib/${lt% *}")
  fi
done
mkdir -p "$root/opt/stub-$$"
binds+=("$stub /opt/stub-$$/libcuda.so.1")
out=$(in_root "env LD_LIBRARY_PATH=/opt/stub-$$ $T --gpu-info" 2>&1)
echo "$out"
for wheel in cuda_runtime cublas cudnn nccl; do
  grep -q "$sp/nvidia/$wheel/lib/lib[a-zA-Z]*\.so\.[0-9]* (Python wheel ($sp))" <<<"$out" \
    || fail "the $wheel wheel is not reported"
done
grep -q "^driver libcuda.so.1: /opt/stub-$$/libcuda.so.1" <<<"$out" || fail "the driver stub is not reported"
grep -q "cudaGetDeviceCount\|compute capability" <<<"$out" || fail "the plugin did not load from the wheels: $out"
echo ok
