#!/usr/bin/env bash
# Installs every Debian package TrainDesk needs to build, run and test.
# Shared by run.sh and test.sh so both commands work on a fresh Debian 12 machine.
set -euo pipefail

packages=(
  # build
  cmake ninja-build g++ pkg-config git
  # Qt 6 (Charts' CMake package needs the OpenGL dev package)
  qt6-base-dev qt6-base-dev-tools qt6-charts-dev libqt6opengl6-dev libqt6sql6-sqlite qt6-svg-dev
  # transport, launching, compute, model files
  procps iproute2 libssh-dev openssh-client openssh-server openmpi-bin libopenmpi-dev libdnnl-dev ocl-icd-opencl-dev zlib1g-dev libhdf5-dev
  # packages: icons rendered from SVG, dpkg-shlibdeps, and the checks the package test runs
  librsvg2-bin dpkg-dev lintian desktop-file-utils appstream groff-base
  # Slurm clusters' tests: a real Slurm (controller, node daemons, munge) started by the test
  slurm-wlm munge
  # the demo data set
  dataset-fashion-mnist
  # tests: the PyTorch reference, model readers, fuzzing, a display for GUI screenshots
  python3 python3-numpy python3-torch python3-h5py python3-onnx clang libfuzzer-14-dev libclang-rt-14-dev
  xvfb xauth x11-apps
  # the test programs link with lld (80 of them against the static core and ui libraries);
  # gdb: a Qt test function that hangs prints every thread's stack (qt_test_watchdog in tests/)
  lld gdb
  # the tutorial's job on network-namespace nodes: a Horovod-style script on Debian's mpi4py
  python3-mpi4py
  # the portable trainer folder: run paths set with patchelf; tested in a minimal Debian 12 root
  patchelf debootstrap
  # jobs in containers on a real engine: the tests start their own private dockerd (never the
  # system's service, see below) and build their images with debootstrap; a registry on loopback
  # with htpasswd logins (apache2-utils)
  docker.io docker-registry apache2-utils
)

missing=()
for p in "${packages[@]}"; do
  [[ "$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null)" == *"install ok installed"* ]] || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

sudo=""
[ "$(id -u)" -ne 0 ] && sudo="sudo"
echo "Installing: ${missing[*]}"
# docker's services are not started by the install: a default dockerd sets iptables' FORWARD
# policy to DROP and adds a bridge and NAT rules, which breaks the network-namespace tests; the
# container tests start their own engine (tests/container/docker_engine.sh). Where no
# policy-rc.d is there already, one that refuses docker's (and containerd's, the registry's)
# starts stands for the length of the install; other services start as they would.
policy=/usr/sbin/policy-rc.d
if [ ! -e "$policy" ]; then
  printf '%s\n' '#!/bin/sh' '# traindesk install-deps.sh: docker is not started by its install' \
    'case "$1" in docker*|containerd*) exit 101 ;; esac' 'exit 0' | $sudo tee "$policy" >/dev/null
  $sudo chmod 755 "$policy"
  trap '$sudo rm -f "$policy"' EXIT
fi
$sudo apt-get update
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y --no-install-recommends "${missing[@]}"
