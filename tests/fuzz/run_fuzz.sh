#!/bin/sh
# Runs a libFuzzer target the same way on every machine: the inputs under each SEEDS folder
# (the committed corpus that longer runs found, and the hand-made seeds) are replayed first,
# then RUNS mutated inputs from a fixed random seed. Bounded by a count, not a clock: a slow,
# busy CI machine tries the same inputs as a fast idle one, in a few seconds.
# TRAINDESK_FUZZ_EXPLORE_SECONDS=N explores for N seconds from a random seed instead (a longer local
# run; `-merge=1` of its corpus folder into tests/fuzz/<name>/corpus keeps what it found).
# New inputs go to a scratch folder; any crash, leak, sanitizer report or an allocation over
# 2 GB fails the test (the input that caused it is kept in the test's working directory as
# <fuzzer>-crash-*, -leak-*, -oom-*, ...).
#   run_fuzz.sh FUZZER DICTIONARY RUNS SEEDS...
set -eu
fuzzer=$1
dictionary=$2
runs=$3
shift 3
if [ -n "${TRAINDESK_FUZZ_EXPLORE_SECONDS:-}" ]; then
  bound="-max_total_time=$TRAINDESK_FUZZ_EXPLORE_SECONDS"
  said="in $TRAINDESK_FUZZ_EXPLORE_SECONDS s"
else
  bound="-runs=$runs -seed=1"
  said="in the corpus and $runs inputs from seed 1"
  # Qt's hash seed fixed too: the same inputs then take the same paths, whose coverage
  # steers the same mutations.
  export QT_HASH_SEED=0
fi
artifacts=$(pwd)/$(basename "$fuzzer")-
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/corpus" "$work/seeds"
for seeds in "$@"; do
  [ -d "$seeds" ] || { echo "FAIL: no seed folder $seeds" >&2; exit 1; }
  find "$seeds" -type f ! -name '*.expected' ! -name '*.md' -exec cp {} "$work/seeds/" \;
done
cd "$work"
# shellcheck disable=SC2086 # $bound is one option or two
"$fuzzer" $bound -max_len=8192 -timeout=10 -rss_limit_mb=2048 -malloc_limit_mb=512 -detect_leaks=1 \
    -dict="$dictionary" -artifact_prefix="$artifacts" -print_final_stats=1 "$work/corpus" "$work/seeds"
echo "$(basename "$fuzzer"): no crash, leak or sanitizer report $said"
