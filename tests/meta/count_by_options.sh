#!/usr/bin/env bash
# The number of registered tests does not change with the build options: the project is
# configured (not built) with the app, the trainer or both left out, and each configuration
# must register every test of tests/registered_tests.txt, the ones it cannot build as
# Skipped (their command says why).
# count_by_options.sh SOURCE_DIR
set -euo pipefail
src=$1
expected=$(grep -c '^[^#]' "$src/tests/registered_tests.txt")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
status=0
for options in "-DTRAINDESK_BUILD_APP=OFF" "-DTRAINDESK_BUILD_TRAINER=OFF" \
               "-DTRAINDESK_BUILD_APP=OFF -DTRAINDESK_BUILD_TRAINER=OFF"; do
  dir="$work/$(echo "$options" | tr -c 'A-Za-z0-9\n' _)"
  # shellcheck disable=SC2086  # the options are separate words
  if ! cmake -S "$src" -B "$dir" -G Ninja $options > "$dir.log" 2>&1; then
    echo "FAIL: configure with $options failed:"; tail -20 "$dir.log"; exit 1
  fi
  listed=$(cd "$dir" && ctest -N | sed -n 's/^ *Test *#[0-9]*: //p' | sort)
  count=$(printf '%s\n' "$listed" | grep -c .)
  skipped=$(cd "$dir" && ctest -N -V | grep -c "exit 77" || true)
  echo "$options: $count tests registered ($skipped of them registered as Skipped), expected $expected"
  if [ "$count" -ne "$expected" ]; then
    echo "FAIL: missing: $(comm -13 <(printf '%s\n' "$listed") <(grep '^[^#]' "$src/tests/registered_tests.txt" | sort) | tr '\n' ' ')"
    status=1
  fi
  [ "$skipped" -gt 0 ] || { echo "FAIL: nothing registered as Skipped with $options"; status=1; }
done
exit "$status"
