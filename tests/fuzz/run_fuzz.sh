#!/bin/sh
# Runs a libFuzzer target for a bounded time: the files under SEEDS are the seeds (for the
# job.json fuzzer its corpus's specs), new inputs go to a scratch folder, any crash, leak,
# sanitizer report or an allocation over 2 GB fails the test (the input that caused it is
# kept in the test's working directory as <fuzzer>-crash-*, -leak-*, -oom-*, ...).
# run_fuzz.sh FUZZER SEEDS DICTIONARY [SECONDS]
set -eu
fuzzer=$1
seeds=$2
dictionary=$3
seconds=${4:-60}
artifacts=$(pwd)/$(basename "$fuzzer")-
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/corpus" "$work/seeds"
find "$seeds" -type f ! -name '*.expected' ! -name '*.md' -exec cp {} "$work/seeds/" \;
cd "$work"
"$fuzzer" -max_total_time="$seconds" -max_len=8192 -timeout=10 -rss_limit_mb=2048 -malloc_limit_mb=512 -detect_leaks=1 \
    -dict="$dictionary" -artifact_prefix="$artifacts" -print_final_stats=1 "$work/corpus" "$work/seeds"
echo "$(basename "$fuzzer"): no crash, leak or sanitizer report in ${seconds} s"
