#!/bin/sh
# The portable trainer (README): bin/traindesk-trainer with this folder's libraries (its run
# path) and the right Open MPI: this folder's when this folder's mpirun started it, or when it
# runs alone on a node without Open MPI (TRAINDESK_MPI=bundled forces it); the node's when the
# node's mpirun started it or the node has one.
td_root=$(cd "$(dirname "$(readlink -f "$0")")" && pwd -P)
. "$td_root/mpi/portable-env.sh"
if [ "${OPAL_PREFIX:-}" = "$td_root/mpi" ] || [ "${TRAINDESK_MPI:-}" = bundled ]; then
  td_bundled_mpi
elif [ -z "${OMPI_COMM_WORLD_SIZE:-}" ] && ! td_node_mpirun >/dev/null; then
  td_bundled_mpi
fi
exec "$td_root/bin/traindesk-trainer" "$@"
