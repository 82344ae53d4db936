#!/usr/bin/env bash
# Installs what is missing, builds everything (Release, Ninja) and runs every test with
# ctest, several at a time (tests that share a resource -- network namespaces, Slurm, the
# machine's CPUs for timing-sensitive runs -- hold a RESOURCE_LOCK, see tests/CMakeLists.txt).
# Prints the set-up, build and test times. Exits non-zero on any failure.
# TRAINDESK_TEST_JOBS sets how many tests run at once (default: 2 per core, at least 4).
set -euo pipefail
cd "$(dirname "$0")"
started=$(date +%s)
scripts/install-deps.sh
installed=$(date +%s)
cmake --preset release >/dev/null
# The tests' Debian roots (the container images' and the portable trainer's bare one) are
# debootstraps that wait mostly on the mirror and dpkg: on a fresh machine they start now,
# beside the C++ build, instead of inside ctest (the torch image alone took up to 13 min).
# Their fixtures find them built, or wait on their locks. Where they are cached, nothing runs.
roots=()
if [ "$(id -u)" = 0 ] && command -v debootstrap >/dev/null; then
  cache=$(sed -n 's/^TRAINDESK_TEST_IMAGE_CACHE:PATH=//p' build/CMakeCache.txt)
  tests/container/docker_engine.sh roots "${cache:-/var/cache/traindesk-test}" >build/test-roots-images.log 2>&1 &
  roots+=($!)
  tests/trainer/test_portable_root.sh --prepare "$PWD/build/debian12-minbase" >build/test-roots-minbase.log 2>&1 &
  roots+=($!)
  trap 'kill "${roots[@]}" 2>/dev/null || true' EXIT
fi
cmake --build --preset release -j "$(nproc)"
built=$(date +%s)
# Tests run as root in CI containers; Open MPI refuses that unless told.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
jobs=${TRAINDESK_TEST_JOBS:-$(( $(nproc) * 2 > 4 ? $(nproc) * 2 : 4 ))}
# The JUnit report keeps each test's output: the summary names every skip and its reason,
# and fails a CI run that skipped a test CI must run.
rc=0
ctest --preset release -j "$jobs" --timeout 1200 --output-junit "$PWD/build/ctest-junit.xml" "$@" || rc=$?
tested=$(date +%s)
python3 scripts/test_summary.py build/ctest-junit.xml || { [ "$rc" -ne 0 ] || rc=1; }
echo "test.sh: set-up $((installed - started)) s, build $((built - installed)) s, tests $((tested - built)) s ($jobs at a time)"
exit "$rc"
