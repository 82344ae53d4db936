#!/usr/bin/env bash
# A private docker engine for the container tests, and the Debian image they run.
#
#   docker_engine.sh start STATE          start dockerd on STATE/docker.sock (stops an old one first)
#   docker_engine.sh image STATE CACHE NAME...
#                                         build (once, cached in CACHE) a minimal Debian 12 root with
#                                         python3 and the trainer's libraries, import it, tag it NAME...
#   docker_engine.sh image-torch STATE CACHE NAME...
#                                         the same root with Debian's PyTorch (torch_packages, for
#                                         the gloo test): its own cache entry, keyed on the list
#   docker_engine.sh roots CACHE          only build both roots into CACHE, at once, no engine
#                                         needed (test.sh starts it beside the C++ build; the
#                                         fixtures then find the roots built, or wait for them)
#   docker_engine.sh stop STATE           remove every container, stop dockerd, remove STATE
#
# The engine is the tests' own: its socket, data root, exec root and pidfile are under STATE,
# and it changes nothing on the host's network (--bridge=none --iptables=false
# --ip-masq=false): a default dockerd sets iptables' FORWARD policy to DROP and adds a bridge
# and NAT rules, which would break the network-namespace tests on the same machine.
# Containers use the host's network (docker run --network host), as Batch AI's did.
# Images are built here from the Debian mirror apt uses, never pulled from a registry.
# Exit 77 (with "SKIP: why") where the engine cannot run here: not root, no dockerd.
set -uo pipefail

fail() { echo "FAIL: $*" >&2; exit 1; }
# Where the engine cannot run, why, also in STATE.why: the tests that need it skip naming it.
why_file=""
skip() { echo "SKIP: $*"; [ -z "$why_file" ] || echo "$*" > "$why_file"; exit 77; }

# The dockerd started on STATE, if it still runs.
engine_pid() {
  local pid
  pid=$(cat "$1/docker.pid" 2>/dev/null) || return 1
  [ -n "$pid" ] && [ -d "/proc/$pid" ] && grep -q dockerd "/proc/$pid/comm" 2>/dev/null && echo "$pid"
}

# Waits (on the process, not on a clock) for pid to exit; true when it did within ~60 s.
wait_exit() {
  local pid=$1 i
  for i in $(seq 600); do [ -d "/proc/$pid" ] || return 0; sleep 0.1; done
  return 1
}

# Unmounts everything mounted under a folder, deepest first (debootstrap mounts /proc and /sys
# in its root; the engine mounts overlays and namespaces under its roots).
unmount_under() {
  awk -v s="$1" 'index($2, s) == 1 { print $2 }' /proc/mounts | sort -r | while read -r m; do
    umount -l "$m" 2>/dev/null
  done
}

stop_engine() {
  local state=$1 pid p
  [ -d "$state" ] || return 0
  export DOCKER_HOST="unix://$state/docker.sock"
  if pid=$(engine_pid "$state"); then
    # Containers first (their processes end with them), then the daemon.
    ids=$(timeout 60 docker ps -aq 2>/dev/null)
    [ -z "$ids" ] || timeout 120 docker rm -f $ids >/dev/null 2>&1
    kill -TERM "$pid" 2>/dev/null
    wait_exit "$pid" || { kill -KILL "$pid" 2>/dev/null; wait_exit "$pid"; }
  fi
  # What the daemon started and left (containerd, shims of killed containers): by their
  # command line naming STATE, one pid at a time.
  for p in $(grep -l -a -F "$state" /proc/[0-9]*/cmdline 2>/dev/null | cut -d/ -f3); do
    case "$(cat "/proc/$p/comm" 2>/dev/null)" in
      dockerd|containerd|containerd-shim*|runc) kill -KILL "$p" 2>/dev/null ;;
    esac
  done
  unmount_under "$state/"
  rm -rf --one-file-system "$state"
}

# A test node (a network namespace entered through `ip netns exec`) has a fresh sysfs without
# the cgroup file systems, and dockerd refuses to start ("Devices cgroup isn't mounted"): in
# this mount namespace only, mount each hierarchy this process belongs to (/proc/self/cgroup),
# as the machine has them.
mount_cgroups() {
  [ -n "$(awk '$3 == "cgroup" || $3 == "cgroup2"' /proc/self/mounts)" ] && return 0
  local v1=no line controllers
  grep -q '^[0-9]*:[^:]' /proc/self/cgroup && v1=yes
  mount -t tmpfs -o mode=755 cgroup_root /sys/fs/cgroup || fail "cannot mount a tmpfs on /sys/fs/cgroup"
  while IFS= read -r line; do
    controllers=$(cut -d: -f2 <<<"$line")
    if [ -z "$controllers" ]; then
      if [ "$v1" = yes ]; then
        mkdir -p /sys/fs/cgroup/unified && mount -t cgroup2 cgroup2 /sys/fs/cgroup/unified
      else
        mount -t cgroup2 cgroup2 /sys/fs/cgroup
      fi
    else
      local dir=${controllers#name=}
      mkdir -p "/sys/fs/cgroup/$dir" && mount -t cgroup -o "${controllers/name=systemd/none,name=systemd}" cgroup "/sys/fs/cgroup/$dir"
    fi || fail "cannot mount the cgroup hierarchy '$line' in this mount namespace"
  done < /proc/self/cgroup
}

start_engine() {
  local state=$1 pid i
  why_file="$state.why"
  rm -f "$why_file"
  [ "$(id -u)" = 0 ] || skip "the private docker engine needs root (dockerd mounts and makes namespaces)"
  command -v dockerd >/dev/null || skip "dockerd is not installed (scripts/install-deps.sh installs docker.io)"
  command -v docker >/dev/null || skip "the docker client is not installed (docker.io)"
  stop_engine "$state"
  mount_cgroups
  mkdir -p "$state" || fail "cannot make $state"
  # dockerd and its containerd find runc, containerd and their shims on PATH.
  PATH=/usr/sbin:/usr/bin:/sbin:/bin:$PATH setsid dockerd \
    -H "unix://$state/docker.sock" --data-root "$state/data" --exec-root "$state/exec" --pidfile "$state/docker.pid" \
    --bridge=none --iptables=false --ip6tables=false --ip-masq=false --userland-proxy=false \
    >"$state/dockerd.log" 2>&1 </dev/null &
  pid=$!
  export DOCKER_HOST="unix://$state/docker.sock"
  # Up when the socket answers; gone when the daemon died (the log says why).
  for i in $(seq 1200); do
    [ -S "$state/docker.sock" ] && docker info >/dev/null 2>&1 && break
    if ! [ -d "/proc/$pid" ]; then
      echo "dockerd exited at start; the end of its log:"; tail -15 "$state/dockerd.log"
      rm -rf "$state"
      skip "the docker engine cannot start on this machine (its log above says why)"
    fi
    sleep 0.1
  done
  docker info >/dev/null 2>&1 || { tail -15 "$state/dockerd.log"; stop_engine "$state"; fail "dockerd did not answer on $state/docker.sock in 2 minutes"; }
  echo "docker engine $(docker info --format '{{.ServerVersion}} ({{.Driver}})') on $DOCKER_HOST, pid $(cat "$state/docker.pid")"
}

# The packages in the test image: Python for job scripts, and the libraries the bundled
# trainer (built on this Debian) links, so that a mounted-in trainer runs inside.
image_packages=python3,libopenmpi3,libdnnl2,libhdf5-103-1,libgomp1,ocl-icd-libopencl1,openmpi-bin
# The torch image's packages on top (Debian's PyTorch, and `python` as PyTorch's images have it).
torch_packages=python3-torch,python-is-python3
# Bump when the way the root is made changes: a new cache key, a new build.
image_recipe=1

# Builds the root with image_packages and PKG,... once, as CACHE/debian12-python-KEY.tar (KEY
# from the list), and sets root_tar to that path.
#   build_root CACHE [PKG,...]
build_root() {
  local cache=$1 packages=$image_packages
  [ -z "${2:-}" ] || packages="$packages,$2"
  command -v debootstrap >/dev/null || skip "debootstrap is not installed (scripts/install-deps.sh)"
  local mirror key tar
  mirror=$(sed -n 's/^URIs: *//p' /etc/apt/sources.list.d/*.sources 2>/dev/null | head -1)
  [ -n "$mirror" ] || mirror=$(awk '$1 == "deb" {print $2; exit}' /etc/apt/sources.list 2>/dev/null)
  key=$(printf '%s\n' bookworm "$packages" "$image_recipe" | md5sum | cut -c1-12)
  tar="$cache/debian12-python-$key.tar"
  mkdir -p "$cache" || fail "cannot make the image cache $cache"
  # One build of a root at a time (two build folders' fixtures, or test.sh's early start and
  # a fixture, may start together); the second finds the first's tar. A tar already there
  # (written whole, then renamed) needs no lock.
  [ -s "$tar" ] || exec 8>"$cache/build-$key.lock"
  [ -s "$tar" ] || flock 8 || fail "cannot lock $cache/build-$key.lock"
  if [ ! -s "$tar" ]; then
    local root="$cache/root-$key.tmp" log="$cache/debootstrap-$key.log" started=$(date +%s)
    unmount_under "$root/"; rm -rf --one-file-system "$root"
    # Its own downloads folder: two roots build at once (test.sh starts both), and two
    # debootstraps writing the same .deb would spoil it.
    mkdir -p "$cache/debs-$key" || fail "cannot make $cache/debs-$key"
    echo "== debootstrap --variant=minbase --include=$packages bookworm from ${mirror:-the default mirror} (cached in $tar)"
    if ! debootstrap --variant=minbase --include="$packages" --cache-dir="$cache/debs-$key" bookworm "$root" \
         ${mirror:+"$mirror"} >"$log" 2>&1; then
      tail -20 "$log"; unmount_under "$root/"; rm -rf --one-file-system "$root"
      fail "debootstrap failed (log: $log): no Debian mirror reachable?"
    fi
    # A file only the image has: a test's command that prints it ran in the container.
    echo "traindesk test image: Debian 12 minbase with $packages" > "$root/etc/traindesk-test-image"
    # What an image does not need: apt's lists and the packages (they are in CACHE/debs-KEY).
    rm -rf "$root"/var/cache/apt/archives/*.deb "$root"/var/lib/apt/lists/* "$root"/usr/share/doc "$root"/usr/share/man
    unmount_under "$root/"
    tar --numeric-owner --one-file-system -C "$root" -cf "$tar.tmp" . || fail "cannot write $tar.tmp"
    mv "$tar.tmp" "$tar"
    rm -rf --one-file-system "$root"
    echo "image root built in $(( $(date +%s) - started )) s: $(du -h "$tar" | cut -f1)"
  fi
  exec 8>&-
  root_tar=$tar
}

build_image() {
  local state=$1 cache=$2; shift 2
  export DOCKER_HOST="unix://$state/docker.sock"
  docker info >/dev/null 2>&1 || fail "no engine on $DOCKER_HOST (run: $0 start $state)"
  build_root "$cache" "${extra_packages:-}"
  local tar=$root_tar started=$(date +%s) id first=$1
  id=$(docker import --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
         --change 'CMD ["/bin/sh"]' "$tar" "$first") || fail "docker import of $tar failed"
  shift
  for name in "$@"; do docker tag "$first" "$name" || fail "docker tag $first $name failed"; done
  echo "imported $tar as $first $* in $(( $(date +%s) - started )) s"
}

case "${1:-}" in
  start) [ $# = 2 ] || fail "usage: $0 start STATE"; start_engine "$2" ;;
  image) [ $# -ge 4 ] || fail "usage: $0 image STATE CACHE NAME..."; build_image "${@:2}" ;;
  image-torch) [ $# -ge 4 ] || fail "usage: $0 image-torch STATE CACHE NAME..."; extra_packages=$torch_packages; build_image "${@:2}" ;;
  roots)
    [ $# = 2 ] || fail "usage: $0 roots CACHE"
    [ "$(id -u)" = 0 ] || skip "debootstrap needs root"
    build_root "$2" & base=$!
    build_root "$2" "$torch_packages" & torch=$!
    wait $base; rc=$?
    wait $torch || rc=$?
    exit $rc ;;
  stop) [ $# = 2 ] || fail "usage: $0 stop STATE"; stop_engine "$2"; echo "docker engine on $2 stopped and removed" ;;
  *) fail "usage: $0 start|image|image-torch|roots|stop ..." ;;
esac
