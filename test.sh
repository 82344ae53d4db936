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
