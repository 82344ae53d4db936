#!/usr/bin/env bash
# The AddressSanitizer + UndefinedBehaviorSanitizer build (CMake preset `asan`: core, CLI,
# GUI; the trainer has its own checks) and its tests: every core test and the agent's
# end-to-end tests (clients, hostile files, full disks). A sanitizer report aborts the
# program and fails its test. .ci/run runs this after ./test.sh (which installed everything).
set -euo pipefail
cd "$(dirname "$0")/.."
started=$(date +%s)
cmake --preset asan >/dev/null
# Only what the tests below run: the CLI and the core test programs.
targets=(traindesk $(sed -n 's/^traindesk_core_test(\(tst_[a-z_]*\).*/\1/p' tests/core/CMakeLists.txt))
cmake --build --preset asan -j "$(nproc)" --target "${targets[@]}"
built=$(date +%s)
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
rc=0
ctest --preset asan -j "$(nproc)" --timeout 1200 "$@" || rc=$?
echo "sanitizers.sh: build $((built - started)) s, tests $(( $(date +%s) - built )) s"
exit "$rc"
