#!/usr/bin/env bash
# Builds TrainDesk (Release, Ninja) after installing what is missing, then starts the
# desktop app on the embedded default: cluster `local`, share `local`, demo job ready.
# Arguments are passed on: `./run.sh job list -e demo` runs the CLI instead.
set -euo pipefail
cd "$(dirname "$0")"
scripts/install-deps.sh
cmake --preset release >/dev/null
cmake --build --preset release -j "$(nproc)"
if [ $# -eq 0 ] && [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ] && [ -z "${QT_QPA_PLATFORM:-}" ]; then
  echo "No display found: run under a desktop session, or e.g. 'xvfb-run -a ./run.sh'." >&2
  exit 1
fi
exec build/bin/traindesk "$@"
