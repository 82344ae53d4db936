# A real Slurm whose two compute nodes are two hosts, sourced by tests: each node a network
# namespace of netns_nodes.sh (its own address, hostname node<i> that does not resolve here,
# process tree and /proc) running its own slurmd; munged and slurmctld run on this machine,
# reached by the nodes over the namespaces' bridge. Jobs are submitted from this machine
# (the login node), their batch scripts run on node1, and Open MPI starts its daemons on
# node2 through srun, across the bridge: what a cluster of two machines does.
#
# slurm_netns_start DIR   -> SLURM_CONF exported, NETNS_* of netns_nodes.sh; returns 77 where
#                            Slurm or network namespaces cannot run here
# slurm_netns_stop DIR    (call from the test's EXIT trap)
here_slurm_netns=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$here_slurm_netns/../netns/netns_nodes.sh"
. "$here_slurm_netns/slurm_fixture.sh"  # slurm_settings

slurm_netns_start() {
  local dir=$1 tool
  for tool in munged slurmctld slurmd sbatch squeue scancel sinfo scontrol; do
    command -v "$tool" >/dev/null || { echo "SKIP: $tool not found (Debian packages slurm-wlm and munge)"; return 77; }
  done
  [ "$(id -u)" = 0 ] || { echo "SKIP: slurmd and network namespaces need root"; return 77; }
  mkdir -p "$dir"/{munge,state,spool,log}
  netns_up "$dir/nodes" 2 || return 1
  chmod 700 "$dir/munge"
  head -c 1024 /dev/urandom > "$dir/munge/munge.key"
  chmod 400 "$dir/munge/munge.key"
  # The nodes reach munged through its socket file: the file system is shared, only the
  # network is the node's own.
  munged --key-file="$dir/munge/munge.key" --socket="$dir/munge/socket" --pid-file="$dir/munge/pid" \
         --log-file="$dir/munge/log" --seed-file="$dir/munge/seed" --force || return 1
  local base=$(( 20000 + (RANDOM % 2000) * 4 )) host cpus
  host=$(hostname -s)
  cpus=$(nproc)
  cat > "$dir/slurm.conf" <<CONF
ClusterName=traindesknetns
SlurmctldHost=$host($NETNS_SUBNET.254)
$(slurm_settings "$dir" "$base")
NodeName=node1 NodeHostname=node1 NodeAddr=${NETNS_ADDR[1]} CPUs=$cpus RealMemory=500 State=UNKNOWN
NodeName=node2 NodeHostname=node2 NodeAddr=${NETNS_ADDR[2]} CPUs=$cpus RealMemory=500 State=UNKNOWN
PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
  export SLURM_CONF=$dir/slurm.conf
  slurmctld -i || return 1
  local i mounts
  # slurmd inside each node: its network, hostname, processes and /proc. `ip netns exec`
  # gave the node a /sys of its own, without the cgroup file systems slurmd starts with:
  # they are mounted there again as this machine has them (v1 controllers or v2).
  mounts=$(findmnt -rn -R -o TARGET,FSTYPE,OPTIONS /sys/fs/cgroup)
  for i in 1 2; do
    mkdir -p "$dir/spool/node$i"
    netns_exec "$i" sh -c 'echo "$1" | while read -r target type options; do
        mkdir -p "$target" && mount -t "$type" -o "$options" "$type" "$target" || exit 1
      done && exec slurmd -N "$2"' mount-cgroups "$mounts" "node$i" \
      || { echo "slurmd does not start on node$i: $(tail -n 5 "$dir/log/slurmd-node$i.log" 2>&1)" >&2; return 1; }
  done
  for i in $(seq 1 120); do
    [ "$(sinfo -h -t idle -o '%D' 2>/dev/null)" = 2 ] && return 0
    sleep 0.5
  done
  echo "Slurm on the namespaces did not come up: $(sinfo -N 2>&1); its logs:" >&2
  tail -n 20 "$dir"/log/* >&2
  return 1
}

slurm_netns_stop() {
  local dir=$1 pidfile
  [ -n "${SLURM_CONF:-}" ] && scontrol shutdown >/dev/null 2>&1
  # slurmd's pid files hold the pids in the nodes' own PID namespaces: netns_down ends them
  # with their node. slurmctld and munged are this machine's.
  for pidfile in "$dir"/slurmctld.pid "$dir"/munge/pid; do
    [ -f "$pidfile" ] && kill "$(cat "$pidfile")" 2>/dev/null
  done
  netns_down
  return 0
}
