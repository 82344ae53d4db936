# Sourced by the portable trainer's launchers; td_root is the folder.

# This folder's Open MPI (Debian's, relocated) for this process and what it starts.
td_bundled_mpi() {
  OPAL_PREFIX="$td_root/mpi"
  PMIX_PREFIX="$td_root/mpi/pmix"
  case ":$PATH:" in *":$td_root/mpi/bin:"*) ;; *) PATH="$td_root/mpi/bin:$PATH" ;; esac
  case ":${LD_LIBRARY_PATH:-}:" in
    *":$td_root/mpi/lib:"*) ;;
    *) LD_LIBRARY_PATH="$td_root/mpi/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" ;;
  esac
  export OPAL_PREFIX PMIX_PREFIX PATH LD_LIBRARY_PATH
  # Without an ssh client (a node that only runs ranks, a container) Open MPI refuses to
  # start even a local job; a launcher that exists lets local jobs run.
  if [ -z "${OMPI_MCA_plm_rsh_agent:-}" ] && ! command -v ssh >/dev/null 2>&1 && ! command -v rsh >/dev/null 2>&1; then
    OMPI_MCA_plm_rsh_agent=false
    export OMPI_MCA_plm_rsh_agent
  fi
}

# Prints the node's own mpirun (one outside this folder on PATH); fails when it has none.
td_node_mpirun() {
  _td_ifs=$IFS
  IFS=:
  for _td_dir in $PATH; do
    case "$_td_dir" in "$td_root" | "$td_root"/*) continue ;; esac
    if [ -x "$_td_dir/mpirun" ] && [ -f "$_td_dir/mpirun" ]; then
      IFS=$_td_ifs
      echo "$_td_dir/mpirun"
      return 0
    fi
  done
  IFS=$_td_ifs
  return 1
}
