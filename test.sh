#!/usr/bin/env bash
# Installs what is missing, builds everything (Release, Ninja) and runs every test with
# ctest. Exits non-zero on any failure.
set -euo pipefail
cd "$(dirname "$0")"
scripts/install-deps.sh
cmake --preset release >/dev/null
cmake --build --preset release -j "$(nproc)"
# Tests run as root in CI containers; Open MPI refuses that unless told.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# The JUnit report keeps each test's output: the summary names every skip and its reason,
# and fails a CI run that skipped a test CI must run.
rc=0
ctest --preset release --timeout 1200 --output-junit "$PWD/build/ctest-junit.xml" "$@" || rc=$?
python3 scripts/test_summary.py build/ctest-junit.xml || { [ "$rc" -ne 0 ] || rc=1; }
exit "$rc"
