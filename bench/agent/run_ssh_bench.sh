#!/usr/bin/env bash
# Submit to first metric record on a 2-node SSH cluster (two network-namespace hosts, each
# with its own sshd: tests/netns/netns_nodes.sh), against the same mpirun typed by hand on
# the head node over ssh. Needs root (network namespaces).
#   bench/agent/run_ssh_bench.sh [build/bin/traindesk] [runs]
set -u
traindesk=${1:-build/bin/traindesk}
runs=${2:-10}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/td-ssh-bench.XXXXXX")
chmod 755 "$work"
. "$here/../../tests/netns/netns_nodes.sh"
cleanup() { "$traindesk" agent stop >/dev/null 2>&1; netns_down; rm -rf "$work"; }
trap cleanup EXIT
[ "$(id -u)" = 0 ] || { echo "needs root (network namespaces)"; exit 1; }
netns_up "$work" 2 || { echo "the test nodes do not start"; exit 1; }
echo "nodes up: ${NETNS_ADDR[*]}"
export TRAINDESK_HOME=$work/data TRAINDESK_TRAINER_DIR=$(dirname "$traindesk") TRAINDESK_SSH_PASSWORD=$NETNS_PASSWORD
ms() { echo $(( $(date +%s%N) / 1000000 )); }
head=$NETNS_USER@${NETNS_ADDR[1]}

"$traindesk" cluster create -n two --nodes "$head,$NETNS_USER@${NETNS_ADDR[2]}" --generate-ssh-keys \
  --accept-new-host-keys >/dev/null 2>"$work/create.err" || { echo "cluster create: $(cat "$work/create.err")"; exit 1; }
"$traindesk" experiment create -n bench >/dev/null
echo "cluster created"
# The rank's work in both runs: one metric record into the folder given, then a second's work.
mkdir -p "$work/out" && chown "$NETNS_USER" "$work/out"
cat > "$work/writer.sh" <<'SH'
echo '{"kind": "train", "step": 1, "loss": 1.0}' >> "$1/metrics.jsonl"
sleep 1
SH
chmod 644 "$work/writer.sh"
# By hand: ssh to the head node with TrainDesk's own cluster key, and mpirun there over both
# nodes with the cluster's SSH config, as a user who set the cluster up would.
key=$TRAINDESK_HOME/ssh/id_ed25519  # the key --generate-ssh-keys made and installed
[ -f "$key" ] || { echo "no key at $key"; exit 1; }
config=$(ls "$work"/home/.traindesk*/clusters/*/ssh_config 2>/dev/null | head -1)
[ -n "$config" ] || config=$(find "$work/home" -name ssh_config | head -1)
by_hand=() through_agent=()
"$traindesk" agent >/dev/null  # warm: the agent is running, as while a user works
echo "agent running; by hand: ssh -i $key $head mpirun ... with -F $config"
for i in $(seq 1 "$runs"); do
  dir=$work/out/hand-$i
  mkdir -p "$dir" && chown "$NETNS_USER" "$dir"
  t0=$(ms)
  ssh -n -i "$key" -o BatchMode=yes -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o LogLevel=ERROR "$head" \
    "OMPI_MCA_plm_rsh_args='-F $config' mpirun -np 2 --host ${NETNS_ADDR[1]},${NETNS_ADDR[2]} --mca btl tcp,self sh $work/writer.sh $dir" \
    >/dev/null 2>"$work/hand.err" &
  until [ -s "$dir/metrics.jsonl" ]; do
    sleep 0.005
    kill -0 $! 2>/dev/null || [ -s "$dir/metrics.jsonl" ] || { echo "by hand: $(cat "$work/hand.err")"; exit 1; }
    [ $(( $(ms) - t0 )) -lt 60000 ] || { echo "by hand: no record after 60 s: $(cat "$work/hand.err")"; exit 1; }
  done
  by_hand+=($(( $(ms) - t0 )))
  hand=$!
  for _ in $(seq 1 300); do kill -0 $hand 2>/dev/null || break; sleep 0.1; done
  kill -0 $hand 2>/dev/null && { echo "by hand: mpirun still runs 30 s after the record: $(cat "$work/hand.err")"; kill $hand; exit 1; }
  wait $hand || { echo "by hand: mpirun failed: $(cat "$work/hand.err")"; exit 1; }

  cat > "$work/job-$i.json" <<JSON
{ "properties": { "nodeCount": 2, "stdOutErrPathPrefix": "$work/out",
  "customMpiSettings": { "processCount": 2,
    "commandLine": "sh $work/writer.sh \$AZ_BATCHAI_STDOUTERR_DIR" } } }
JSON
  t0=$(ms)
  "$traindesk" job create -e bench -n j$i -c two -f "$work/job-$i.json" >/dev/null || { echo "job create failed"; exit 1; }
  until "$traindesk" job metrics -e bench -j j$i -o json | grep '"step"' >/dev/null; do
    sleep 0.005
    [ $(( $(ms) - t0 )) -lt 60000 ] || { echo "traindesk: no record after 60 s: $("$traindesk" job show -e bench -n j$i -o json)"; exit 1; }
  done
  through_agent+=($(( $(ms) - t0 )))
  echo "run $i: by hand ${by_hand[-1]} ms, through the agent ${through_agent[-1]} ms"
  "$traindesk" job wait -e bench -n j$i >/dev/null
done
python3 "$(dirname "$0")/summary.py" " on 2 SSH nodes x 1 rank" "ssh + mpirun by hand, start to first record in the file" "${by_hand[*]}" "${through_agent[*]}"
