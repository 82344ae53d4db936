#!/usr/bin/env bash
# The launch matrix (issue #39) on one cluster kind, with its fixture:
#   local   this machine (the default `local` cluster)
#   ssh     4 SSH nodes, network namespaces whose names do not resolve (tests/netns): each
#           multi-node cell takes 2, so two cells run side by side
#   slurm   a Slurm with 2 nodes, each a network namespace running its own slurmd
#           (tests/slurm/slurm_netns_fixture.sh), jobs submitted from this machine
# then matrix.py: every toolkit x plain / retried after a killed rank / as a sweep trial.
# Exit 77 (skipped, with the reason) where the kind's fixture cannot run here.
#   launch_matrix.sh KIND TRAINDESK
set -u
kind=$1
traindesk=$2
shift 2
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/td-matrix-$kind.XXXXXX")
chmod 755 "$work"
export TRAINDESK_HOME=$work/home TRAINDESK_TRAINER_DIR=$(dirname "$traindesk") QT_QPA_PLATFORM=offscreen
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fail() { echo "FAIL: $*" >&2; exit 1; }
# TRAINDESK_KEEP_WORK=1 keeps the jobs' folders to look at.
remove_work() { [ -n "${TRAINDESK_KEEP_WORK:-}" ] && echo "kept $work" || rm -rf "$work"; }
td() { "$traindesk" "$@"; }
command -v python3 >/dev/null || { echo "SKIP: python3 is not installed"; exit 77; }

case $kind in
local)
  trap '"$traindesk" agent stop >/dev/null 2>&1; remove_work' EXIT
  cluster=local hosts=$(hostname) nodes=1
  ;;
ssh)
  [ "$(id -u)" = 0 ] || { echo "SKIP: network namespaces need root"; exit 77; }
  . "$here/../netns/netns_nodes.sh"
  trap '"$traindesk" agent stop >/dev/null 2>&1; netns_down; remove_work' EXIT
  netns_up "$work/nodes" 4 || fail "the test nodes do not start"
  getent hosts node1 >/dev/null && fail "node1 resolves here: the matrix needs names that do not"
  export TRAINDESK_SSH_PASSWORD=$NETNS_PASSWORD
  td cluster create -n net --nodes "node1=$NETNS_USER@${NETNS_ADDR[1]},node2=$NETNS_USER@${NETNS_ADDR[2]},node3=$NETNS_USER@${NETNS_ADDR[3]},node4=$NETNS_USER@${NETNS_ADDR[4]}" \
    --generate-ssh-keys --accept-new-host-keys >"$work/create.out" 2>&1 || fail "cluster create: $(cat "$work/create.out")"
  cluster=net hosts=node1,node2,node3,node4 nodes=2
  ;;
slurm)
  . "$here/../slurm/slurm_netns_fixture.sh"
  trap '"$traindesk" agent stop >/dev/null 2>&1; slurm_netns_stop "$work/slurm"; remove_work' EXIT
  slurm_netns_start "$work/slurm"
  rc=$?
  [ $rc -eq 0 ] || exit $rc
  getent hosts node1 >/dev/null && fail "node1 resolves here: the matrix needs names that do not"
  td cluster create -n hpc --slurm local >"$work/create.out" 2>&1 || fail "cluster create --slurm: $(cat "$work/create.out")"
  cluster=hpc hosts=node1,node2 nodes=2
  ;;
*) fail "unknown cluster kind $kind (local, ssh or slurm)" ;;
esac

# The jobs' files: on SSH nodes the test user writes them (its home is the nodes' share).
mkdir -p "$work/cells" && chmod 777 "$work/cells"
python3 "$here/matrix.py" --traindesk "$traindesk" --cluster "$cluster" --kind "$kind" --nodes "$nodes" \
  --hosts "$hosts" --work "$work/cells" "$@"
