#!/bin/bash
# Trainer deployment to 2 SSH nodes (network namespaces with their own sshd, as the netns
# tests run them): the first time (nothing on the nodes: traindesk-trainer and, where built,
# its CUDA plugin go over SFTP) and when already there (a checksum folder check only), each
# in a fresh process (connections made, as the agent's first job start) and again on its
# pooled connections (the agent's later job starts). Target: under 0.2 s a node when there.
# Needs root. Usage: bench/deploy/run_bench.sh [BUILD_DIR] [ROUNDS]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../../build}
rounds=${2:-5}
[ "$(id -u)" = 0 ] || { echo "run as root: the benchmark starts network namespaces and sshd" >&2; exit 1; }
work=$(mktemp -d /tmp/td-bench-deploy.XXXXXX)
chmod 755 "$work"
. "$here/../../tests/netns/netns_nodes.sh"
cleanup() { netns_down; rm -rf "$work"; }
trap cleanup EXIT

bench=$work/bench_deploy
g++ -std=c++20 -O2 -fPIC "$here/bench_deploy.cpp" -I"$here/../../core" $(pkg-config --cflags Qt6Core Qt6Sql Qt6Network) \
  "$build/core/libtraindesk_core.a" $(pkg-config --libs Qt6Core Qt6Sql Qt6Concurrent Qt6Network libssh) -lcrypto -o "$bench"

netns_up "$work" 2
export TRAINDESK_HOME=$work/data TRAINDESK_TRAINER_DIR=$build/bin TRAINDESK_SSH_PASSWORD=$NETNS_PASSWORD
"$build/bin/traindesk" cluster create -n bench --nodes "$NETNS_USER@${NETNS_ADDR[1]},$NETNS_USER@${NETNS_ADDR[2]}" \
  --generate-ssh-keys --accept-new-host-keys >/dev/null
size=$(du -cb "$build/bin/traindesk-trainer" $(ls "$build/bin/libtraindesk-trainer-cuda.so" 2>/dev/null) | tail -1 | cut -f1)
echo "== machine ($(date -u +%Y-%m-%dT%H:%MZ))"
echo "$(lscpu | sed -n 's/^Model name: *//p'), $(nproc) cores; libssh $(pkg-config --modversion libssh); bundle $((size / 1024)) KiB"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
copies=$work/home/traindesk/mounts/default/bench/.traindesk-trainer
report() {  # label, then the bench's lines "total per-node"
  python3 -c '
import sys
label = sys.argv[1]
rows = [tuple(map(float, l.split())) for l in sys.stdin if l.strip()]
first, rest = rows[0], rows[1:]
print(f"{label}: fresh process {first[0]:.3f} s ({first[1]:.3f} s a node)", end="")
if rest:
    best = min(r[0] for r in rest); median = sorted(r[0] for r in rest)[len(rest) // 2]
    print(f"; pooled connections median {median:.3f} s, best {best:.3f} s ({median / 2:.3f} s a node)")
else:
    print()' "$1"
}
for i in $(seq 1 "$rounds"); do
  rm -rf "$copies"
  "$bench" default bench 1 | report "first time, round $i"
done
for i in $(seq 1 "$rounds"); do
  "$bench" default bench 6 | report "already there, round $i"
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
