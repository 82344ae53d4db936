#!/usr/bin/env bash
# The AddressSanitizer + UndefinedBehaviorSanitizer build (CMake preset `asan`) and its tests:
# every core test, and the agent's end-to-end tests (clients, killed creates, hostile files,
# over-long lines, full disks) through the CLI built without the GUI (traindesk_cli_test,
# copied as `traindesk`, the name the tests look for in process lists). A sanitizer report
# aborts the program and fails its test. .ci/run runs this after ./test.sh (which installed
# everything). The GUI and the trainer are left out: their own tests run in ./test.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
started=$(date +%s)
cmake --preset asan >/dev/null
targets=(traindesk_cli_test $(sed -n 's/^traindesk_core_test(\(tst_[a-z_]*\).*/\1/p' tests/core/CMakeLists.txt))
cmake --build --preset asan -j "$(nproc)" --target "${targets[@]}"
mkdir -p build-asan/cli
cp build-asan/bin/traindesk_cli_test build-asan/cli/traindesk
built=$(date +%s)
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
export LSAN_OPTIONS=suppressions=$PWD/scripts/lsan.supp:print_suppressions=0
rc=0
ctest --preset asan -j "$(nproc)" --timeout 1200 "$@" || rc=$?
for script in cli_agent cli_agent_hostile cli_disk_full; do
  if bash "tests/e2e/$script.sh" "$PWD/build-asan/cli/traindesk" > "build-asan/$script.log" 2>&1; then
    echo "e2e.$script under the sanitizers: passed"
  else
    code=$?
    [ "$code" = 77 ] && { echo "e2e.$script: skipped ($(tail -1 "build-asan/$script.log"))"; continue; }
    echo "e2e.$script under the sanitizers: FAILED (exit $code); its output:"; tail -40 "build-asan/$script.log"
    rc=1
  fi
done
echo "sanitizers.sh: build $((built - started)) s, tests $(( $(date +%s) - built )) s"
exit "$rc"
