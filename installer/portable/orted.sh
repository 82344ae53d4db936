#!/bin/sh
# Open MPI's daemon from the portable trainer's folder, as mpirun --prefix starts it on the
# other nodes (and a lone rank starts it for itself): the folder's environment first.
td_root=$(cd "$(dirname "$(readlink -f "$0")")/../.." && pwd -P)
. "$td_root/mpi/portable-env.sh"
td_bundled_mpi
exec "$td_root/mpi/bin/orted.bin" "$@"
