#!/bin/sh
# Runs the job.json fuzzer for a bounded time: the corpus's specs are the seeds, new inputs
# go to a scratch folder, any crash, leak or sanitizer report fails the test (the input that
# caused it is kept in the test's working directory as fuzz_jobspec-crash-*, -leak-*, ...).
set -eu
fuzzer=$1
seeds=$2
dictionary=$3
seconds=${4:-60}
artifacts=$(pwd)/fuzz_jobspec-
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/corpus" "$work/seeds"
find "$seeds" -name '*.json' -exec cp {} "$work/seeds/" \;
cd "$work"
"$fuzzer" -max_total_time="$seconds" -max_len=8192 -timeout=10 -rss_limit_mb=2048 -detect_leaks=1 \
    -dict="$dictionary" -artifact_prefix="$artifacts" -print_final_stats=1 "$work/corpus" "$work/seeds"
echo "fuzz_jobspec: no crash, leak or sanitizer report in ${seconds} s"
