#!/bin/sh
# mpirun for jobs of the portable trainer (README): the node's own Open MPI when it has one,
# else this folder's, relocated: --prefix makes the remote nodes start mpi/bin/orted of the
# same folder (it has the same path on every node) and passes OPAL_PREFIX on.
td_root=$(cd "$(dirname "$(readlink -f "$0")")" && pwd -P)
. "$td_root/mpi/portable-env.sh"
if [ "${TRAINDESK_MPI:-}" != bundled ] && node_mpirun=$(td_node_mpirun); then
  exec "$node_mpirun" "$@"
fi
td_bundled_mpi
exec "$td_root/mpi/bin/orterun.bin" --prefix "$td_root/mpi" "$@"
