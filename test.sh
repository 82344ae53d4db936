#!/usr/bin/env bash
# Installs what is missing, builds everything (Release, Ninja) and runs every test with
# ctest. Exits non-zero on any failure.
set -euo pipefail
cd "$(dirname "$0")"
scripts/install-deps.sh
cmake --preset release >/dev/null
cmake --build --preset release -j "$(nproc)"
# Tests run as root in CI containers; Open MPI refuses that unless told.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
ctest --preset release --timeout 1200 "$@"
