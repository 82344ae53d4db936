#!/usr/bin/env bash
# Makes the portable trainer: a folder, packed as traindesk-trainer-VERSION-linux-x86_64.tar.gz,
# that runs where it is unpacked on x86-64 Linux with glibc >= 2.36 (Debian 12, Ubuntu 24.04)
# without any package installed: the trainer and its CUDA plugin with $ORIGIN-relative run
# paths, every library they need that a bare node lacks, and an Open MPI runtime used when the
# node has none. Layout (see README in the folder):
#   traindesk-trainer  mpirun        launchers (sh): pick this folder's or the node's Open MPI
#   bin/               the trainer, its CUDA plugin (run path $ORIGIN/../lib)
#   lib/               oneDNN, HDF5 and its dependencies, libgomp, zlib, ...
#   mpi/               Open MPI as Debian installs it under /usr, relocated (OPAL_PREFIX, PMIX_PREFIX)
#   checks/            test programs for bench/trainer/run_gpu_checks.sh (trainer_gpu_layers)
# Left out: glibc and libstdc++/libgcc_s (every glibc system has them: a newer node's copy must
# win), the NVIDIA driver and the CUDA libraries (looked up on the node at start, see
# trainer/src/train/cuda_libraries.h), and Open MPI components for fabrics a bare node lacks
# (UCX, libfabric, verbs, PSM): TCP and shared memory remain.
#
# usage: make_portable_trainer.sh TRAINER [PLUGIN|-] VERSION OUTPUT.tar.gz [CHECK_PROGRAM...]
set -euo pipefail

trainer=$1 plugin=$2 version=$3 output=$4
shift 4
checks=("$@")
here=$(cd "$(dirname "$0")" && pwd)
name="traindesk-trainer-$version-linux-x86_64"
work=$(mktemp -d "${TMPDIR:-/tmp}/portable-trainer.XXXXXX")
trap 'rm -rf "$work"' EXIT
root="$work/$name"
mkdir -p "$root/bin" "$root/lib" "$root/mpi/bin" "$root/mpi/lib"

# Provided by every node (glibc, the C++ runtime) or by the loader itself; and the NVIDIA
# driver and CUDA libraries, which the trainer finds on the node (never packed).
node_provided='^(linux-vdso\.so|ld-linux-x86-64\.so|libc\.so|libm\.so|libdl\.so|libpthread\.so|librt\.so|libresolv\.so|libutil\.so|libstdc\+\+\.so|libgcc_s\.so|libcuda\.so|libcudart|libcublas|libcudnn|libnccl|libnvrtc|libnvJitLink|libcufft|libcurand|libcusolver|libcusparse)'
# Open MPI's own libraries: in mpi/lib, used only with this folder's Open MPI.
mpi_libs='^(libmpi\.so|libmpi_|libopen-rte\.so|libopen-pal\.so|libpmix\.so|libmca_common_)'
# Components needing fabrics a bare node lacks (their own needs, not their libraries').
fabric_libs='^(libucp|libucs|libuct|libucm|libfabric|libibverbs|librdmacm|libpsm|libinfinipath|libefa|liboshmem|libnl-|libmca_common_(ucx|ofi|verbs))'

# ldd's resolved dependencies of FILE as "soname path" lines.
deps() { ldd "$1" | awk '$2 == "=>" && $3 ~ /^\// {print $1, $3}'; }

copy_lib() {  # SRC DESTDIR: the real file under its soname, run path $ORIGIN
  local src=$1 dest=$2 soname
  soname=$(basename "$src")
  [ -e "$dest/$soname" ] && return 0
  cp -L "$src" "$dest/$soname"
  chmod u+w "$dest/$soname"
  patchelf --set-rpath '$ORIGIN' "$dest/$soname"
}

bundle_deps() {  # FILE DESTDIR [skip-mpi]: every dependency a bare node lacks
  local file=$1 dest=$2 skip_mpi=${3:-}
  while read -r soname path; do
    [[ $soname =~ $node_provided ]] && continue
    [[ -n $skip_mpi && $soname =~ $mpi_libs ]] && continue
    copy_lib "$path" "$dest"
  done < <(deps "$file")
}

# ---- the trainer and its plugin ----
install -m 755 "$trainer" "$root/bin/traindesk-trainer"
strip --strip-unneeded "$root/bin/traindesk-trainer"
patchelf --set-rpath '$ORIGIN/../lib' "$root/bin/traindesk-trainer"
bundle_deps "$trainer" "$root/lib" skip-mpi
if [ "$plugin" != - ] && [ -f "$plugin" ]; then
  install -m 755 "$plugin" "$root/bin/libtraindesk-trainer-cuda.so"
  strip --strip-unneeded "$root/bin/libtraindesk-trainer-cuda.so"
  # Its CUDA libraries are the node's (found and loaded by the trainer first): no build paths.
  patchelf --set-rpath '$ORIGIN/../lib' "$root/bin/libtraindesk-trainer-cuda.so"
fi

for prog in "${checks[@]}"; do
  mkdir -p "$root/checks"
  install -m 755 "$prog" "$root/checks/$(basename "$prog")"
  strip --strip-unneeded "$root/checks/$(basename "$prog")"
  patchelf --set-rpath '$ORIGIN/../lib' "$root/checks/$(basename "$prog")"
  bundle_deps "$prog" "$root/lib" skip-mpi
done

# ---- Open MPI, relocated: mpi/ mirrors Debian's /usr ----
ompi_pkglib=$(ompi_info --path pkglibdir --parsable | sed -n 's/^path:pkglibdir://p')   # .../openmpi/lib/openmpi3
ompi_libdir=$(ompi_info --path libdir --parsable | sed -n 's/^path:libdir://p')          # .../openmpi/lib
ompi_data=$(ompi_info --path pkgdatadir --parsable | sed -n 's/^path:pkgdatadir://p')    # /usr/share/openmpi
ompi_prefix=$(ompi_info --path prefix --parsable | sed -n 's/^path:prefix://p')          # /usr
rel() { echo "${1#"$ompi_prefix"/}"; }
orterun=$(readlink -f "$(command -v orterun)")
orted=$(readlink -f "$(command -v orted)")
for prog in "$orterun" "$orted"; do
  install -m 755 "$prog" "$root/mpi/bin/$(basename "$prog").bin"
  patchelf --set-rpath '$ORIGIN/../lib' "$root/mpi/bin/$(basename "$prog").bin"
  bundle_deps "$prog" "$root/mpi/lib"
done
# libmpi (the trainer's) and what it needs, in mpi/lib
while read -r soname path; do
  [[ $soname =~ $mpi_libs ]] && { copy_lib "$path" "$root/mpi/lib"; bundle_deps "$path" "$root/mpi/lib"; }
done < <(deps "$trainer")
# components: $ORIGIN/.. has libmca_common_*, mpi/lib the rest
mkdir -p "$root/mpi/$(rel "$ompi_pkglib")" "$root/mpi/$(rel "$ompi_data")"
comp_dir="$root/mpi/$(rel "$ompi_pkglib")" common_dir="$root/mpi/$(rel "$ompi_libdir")"
mkdir -p "$common_dir"
comp_up=$(realpath -m --relative-to="$comp_dir" "$root/mpi/lib")      # ../../../..
common_up=$(realpath -m --relative-to="$common_dir" "$root/mpi/lib")  # ../../..
for comp in "$ompi_pkglib"/*.so; do
  if objdump -p "$comp" | awk '$1 == "NEEDED" {print $2}' | grep -Eq "$fabric_libs"; then continue; fi
  cp "$comp" "$comp_dir/"
  patchelf --set-rpath "\$ORIGIN/..:\$ORIGIN/$comp_up" "$comp_dir/$(basename "$comp")"
  while read -r soname path; do
    [[ $soname =~ $node_provided ]] && continue
    if [[ $soname =~ ^libmca_common_ ]]; then
      copy_lib "$path" "$common_dir"
      patchelf --set-rpath "\$ORIGIN:\$ORIGIN/$common_up" "$common_dir/$soname"
      bundle_deps "$path" "$root/mpi/lib"
    else
      copy_lib "$path" "$root/mpi/lib"
    fi
  done < <(deps "$comp")
done
cp -r "$ompi_data/." "$root/mpi/$(rel "$ompi_data")/"
# PMIx (an external one in Debian's Open MPI): its plugins and help under mpi/pmix
pmix=$(ldd "$ompi_pkglib"/mca_pmix_*.so 2>/dev/null | awk '$1 ~ /^libpmix/ && !seen++ {print $3}')
if [ -n "$pmix" ]; then
  pmix_prefix=$(dirname "$(dirname "$(readlink -f "$pmix")")")   # .../pmix2
  mkdir -p "$root/mpi/pmix/lib"
  if [ -d "$pmix_prefix/lib/pmix" ]; then
    cp -r "$pmix_prefix/lib/pmix" "$root/mpi/pmix/lib/"
    for p in "$root/mpi/pmix/lib/pmix"/*.so; do patchelf --set-rpath '$ORIGIN/../../../lib' "$p"; bundle_deps "$p" "$root/mpi/lib"; done
  fi
  [ -d "$pmix_prefix/share" ] && cp -r "$pmix_prefix/share" "$root/mpi/pmix/"
fi

# ---- launchers ----
install -m 755 "$here/traindesk-trainer.sh" "$root/traindesk-trainer"
install -m 755 "$here/mpirun.sh" "$root/mpirun"
install -m 755 "$here/orted.sh" "$root/mpi/bin/orted"
install -m 644 "$here/portable-env.sh" "$root/mpi/portable-env.sh"
install -m 644 "$here/README.portable" "$root/README"
echo "$version" > "$root/VERSION"

# ---- pack: owner-neutral, sorted, reproducible timestamps ----
mkdir -p "$(dirname "$output")"
tar --sort=name --owner=0 --group=0 --numeric-owner --mtime=@0 -C "$work" -czf "$output.tmp" "$name"
mv "$output.tmp" "$output"
echo "portable trainer: $output ($(du -h "$output" | cut -f1))"
