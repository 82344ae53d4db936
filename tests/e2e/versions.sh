#!/usr/bin/env bash
# `traindesk --version` and `traindesk-trainer --version` as built: each prints its name and the
# project's version on one line and exits 0; the trainer also says whether its CUDA backend
# was built. (tests/package checks the same of the installed packages.)
set -u
traindesk=$1
trainer=$2
version=$3
fail() { echo "FAIL: $*" >&2; exit 1; }

out=$("$traindesk" --version) || fail "traindesk --version exited $?"
[ "$out" = "traindesk $version" ] || fail "traindesk --version printed '$out', expected 'traindesk $version'"

out=$("$trainer" --version) || fail "traindesk-trainer --version exited $?"
case "$out" in
  "traindesk-trainer $version (CUDA backend built)" | "traindesk-trainer $version (CUDA backend not built)") ;;
  *) fail "traindesk-trainer --version printed '$out'" ;;
esac
[ "$(printf '%s\n' "$out" | wc -l)" = 1 ] || fail "traindesk-trainer --version printed more than one line"
echo "versions: $version"
