# A real Slurm for tests, sourced by them: munged with its own key, slurmctld and two
# slurmd (nodes td1 and td2, one CPU each) on this machine, all in a temporary folder with
# ports of their own, stopped by slurm_stop. Both nodes run on this host (slurmd -N): the
# jobs see two Slurm nodes, and Open MPI starts its daemons on them through srun.

# The settings both fixtures' slurm.conf share: ports from BASE (controller BASE, slurmd
# BASE+1), munge's socket, state, spool, pid and log files under DIR, no accounting, a
# scheduler that looks every second.
# slurm_settings DIR BASE
slurm_settings() {
  local dir=$1 base=$2
  cat <<CONF
SlurmUser=root
SlurmctldPort=$base
SlurmdPort=$((base + 1))
AuthType=auth/munge
AuthInfo=socket=$dir/munge/socket
CredType=cred/munge
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool/%n
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd-%n.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd-%n.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SchedulerType=sched/backfill
SchedulerParameters=sched_interval=1,bf_interval=1
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
ReturnToService=2
SlurmdTimeout=30
InactiveLimit=0
KillWait=3
MinJobAge=600
OverTimeLimit=0
CONF
}

# slurm_start DIR   (exports SLURM_CONF; returns 77 where Slurm cannot run here)
slurm_start() {
  local dir=$1
  for tool in munged slurmctld slurmd sbatch squeue scancel sinfo; do
    command -v "$tool" >/dev/null || { echo "SKIP: $tool not found (Debian packages slurm-wlm and munge)"; return 77; }
  done
  [ "$(id -u)" = 0 ] || { echo "SKIP: slurmd needs root to start jobs as their users"; return 77; }
  mkdir -p "$dir"/{munge,state,spool,log}
  chmod 700 "$dir/munge"
  head -c 1024 /dev/urandom > "$dir/munge/munge.key"
  chmod 400 "$dir/munge/munge.key"
  munged --key-file="$dir/munge/munge.key" --socket="$dir/munge/socket" --pid-file="$dir/munge/pid" \
         --log-file="$dir/munge/log" --seed-file="$dir/munge/seed" --force || return 1
  # Ports of this run's own, so tests running side by side do not meet.
  local base=$(( 20000 + (RANDOM % 2000) * 4 ))
  local host
  host=$(hostname -s)
  cat > "$dir/slurm.conf" <<CONF
ClusterName=traindesktest
SlurmctldHost=$host(127.0.0.1)
$(slurm_settings "$dir" "$base")
NodeName=td1 NodeHostname=$host NodeAddr=127.0.0.1 Port=$((base + 2)) CPUs=1 RealMemory=500 State=UNKNOWN
NodeName=td2 NodeHostname=$host NodeAddr=127.0.0.1 Port=$((base + 3)) CPUs=1 RealMemory=500 State=UNKNOWN
PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
  export SLURM_CONF=$dir/slurm.conf
  slurmctld -i || return 1
  slurmd -N td1 || return 1
  slurmd -N td2 || return 1
  local i
  for i in $(seq 1 60); do
    [ "$(sinfo -h -t idle -o '%D' 2>/dev/null)" = 2 ] && return 0
    sleep 0.5
  done
  echo "Slurm did not come up; its logs:" >&2
  tail -n 20 "$dir"/log/* >&2
  return 1
}

slurm_stop() {
  local dir=$1
  [ -n "${SLURM_CONF:-}" ] && scontrol shutdown >/dev/null 2>&1
  for pidfile in "$dir"/slurmd-*.pid "$dir"/slurmctld.pid "$dir"/munge/pid; do
    [ -f "$pidfile" ] && kill "$(cat "$pidfile")" 2>/dev/null
  done
  sleep 0.5
  return 0
}
