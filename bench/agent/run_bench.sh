#!/usr/bin/env bash
# Submit to first metric record through the agent on the local cluster, against the same
# command started by hand with mpirun: the overhead TrainDesk adds (queue, agent wake-up,
# launch script, metrics ingestion into the store).
#   bench/agent/run_bench.sh [build/bin/traindesk] [runs]
set -u
traindesk=${1:-build/bin/traindesk}
runs=${2:-10}
work=$(mktemp -d "${TMPDIR:-/tmp}/td-agent-bench.XXXXXX")
export TRAINDESK_HOME=$work/home TRAINDESK_TRAINER_DIR=$(dirname "$traindesk")
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
trap '"$traindesk" agent stop >/dev/null 2>&1; rm -rf "$work"' EXIT
ms() { echo $(( $(date +%s%N) / 1000000 )); }
# The rank's work in both runs: one metric record into the folder given, then a second's work.
cat > "$work/writer.sh" <<'SH'
echo '{"kind": "train", "step": 1, "loss": 1.0}' >> "$1/metrics.jsonl"
sleep 1
SH

"$traindesk" experiment create -n bench >/dev/null
"$traindesk" agent >/dev/null  # warm: the agent is running, as while a user works
by_hand=() through_agent=()
for i in $(seq 1 "$runs"); do
  # By hand: mpirun starts the rank, which writes the record; time until the file has it.
  mkdir -p "$work/hand-$i"
  t0=$(ms)
  mpirun -np 1 --oversubscribe sh "$work/writer.sh" "$work/hand-$i" >/dev/null 2>&1 &
  until [ -s "$work/hand-$i/metrics.jsonl" ]; do sleep 0.005; done
  by_hand+=($(( $(ms) - t0 )))
  wait

  # Through TrainDesk: job create returns once queued; time until `job metrics` shows it.
  cat > "$work/job-$i.json" <<JSON
{ "properties": { "nodeCount": 1, "stdOutErrPathPrefix": "$work/jobs",
  "customMpiSettings": { "processCount": 1,
    "commandLine": "sh $work/writer.sh \$AZ_BATCHAI_STDOUTERR_DIR" } } }
JSON
  t0=$(ms)
  "$traindesk" job create -e bench -n j$i -c local -f "$work/job-$i.json" >/dev/null || { echo "job create failed"; exit 1; }
  until "$traindesk" job metrics -e bench -j j$i -o json | grep -q '"step"'; do sleep 0.005; done
  through_agent+=($(( $(ms) - t0 )))
  "$traindesk" job wait -e bench -n j$i >/dev/null
done
python3 "$(dirname "$0")/summary.py" "" "mpirun by hand, start to first record in the file" "${by_hand[*]}" "${through_agent[*]}"
