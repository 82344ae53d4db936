# Sourced by tests: N test hosts on this machine, each a network namespace with its own
# address on a bridge, its own hostname, its own process tree (PID namespace with its own
# /proc) and its own sshd, reached over real TCP from the root namespace. A node's link can
# be cut (`netns_link NODE down`) and restored. A test user with a password logs in; its
# home is shared by the nodes, as an NFS home would be. Needs root; cleans up on
# netns_down (call it from the test's EXIT trap).
#
#   netns_up WORKDIR N     -> NETNS_USER, NETNS_PASSWORD, NETNS_ADDR[1..N], NETNS_NAME[1..N]
#                             (NETNS_MASK="FILE ...": files hidden on every node, /dev/null
#                             bound over each in the node's own mount namespace;
#                             NETNS_SSHD_EXTRA: lines added to each node's sshd_config, @N@
#                             standing for the node's number, e.g. a SetEnv for its sessions)
#   netns_link I up|down
#   netns_exec I CMD...    runs CMD inside node I (its network, hostname and processes)
#   netns_down

# Several such tests run at once (ctest -j): names carry the PID (interface names stay under
# Linux's 15 characters: "br-td" + PID, "vtd" + PID + "-N"); the subnet is one no interface
# of this machine uses, chosen and taken (bridge address added) under NETNS_LOCK; users are
# added and removed under it too (useradd/userdel of two tests at once fail on /etc/passwd's
# lock).
NETNS_TAG="td$$"
NETNS_SUBNET=""
NETNS_BRIDGE="br-$NETNS_TAG"
NETNS_LOCK=/run/lock/traindesk-netns.lock
NETNS_COUNT=0
declare -a NETNS_ADDR NETNS_NAME NETNS_HOLDER

netns_fail() { echo "netns fixture: $*" >&2; return 1; }

# Runs CMD holding NETNS_LOCK (up to 60 s to get it).
netns_locked() {
  ( flock -w 60 9 || { netns_fail "$NETNS_LOCK is held for over 60 s"; exit 1; }; "$@" ) 9>"$NETNS_LOCK"
}

# A 10.x.y.0/24 that no interface of this machine has an address in, given to the bridge
# (call under NETNS_LOCK: the next test then sees it taken).
netns_take_subnet() {
  local used a b try
  used=$(ip -4 -o addr show | awk '{print $4}' | cut -d. -f1-3)
  for try in $(seq 0 999); do
    a=$(( 100 + ($$ + try) % 100 )); b=$(( ($$ / 100 + try) % 250 ))
    grep -qx "10.$a.$b" <<<"$used" && continue
    ip addr add "10.$a.$b.254/24" dev "$NETNS_BRIDGE" || return 1
    echo "10.$a.$b"; return 0
  done
  netns_fail "no free 10.x.y.0/24 subnet"
}

netns_up() {
  local work=$1 n=$2 i
  NETNS_WORK=$work
  [ "$(id -u)" = 0 ] || { netns_fail "needs root"; return 1; }
  mkdir -p /run/sshd
  ip link add "$NETNS_BRIDGE" type bridge || return 1
  NETNS_SUBNET=$(netns_locked netns_take_subnet) || return 1
  ip link set "$NETNS_BRIDGE" up
  NETNS_USER="tdn$$"
  NETNS_PASSWORD="pw-$RANDOM-$RANDOM"
  netns_locked useradd -m -d "$work/home" -s /bin/sh "$NETNS_USER" || { netns_fail "useradd $NETNS_USER failed"; return 1; }
  echo "$NETNS_USER:$NETNS_PASSWORD" | netns_locked chpasswd || { netns_fail "chpasswd $NETNS_USER failed"; return 1; }
  for i in $(seq 1 "$n"); do
    local ns="$NETNS_TAG-$i" dir="$work/node$i"
    NETNS_NAME[$i]="node$i"
    NETNS_ADDR[$i]="$NETNS_SUBNET.$i"
    ip netns add "$ns" || return 1
    ip link add "v$NETNS_TAG-$i" type veth peer name eth0 netns "$ns"
    ip link set "v$NETNS_TAG-$i" master "$NETNS_BRIDGE" up
    ip -n "$ns" addr add "${NETNS_ADDR[$i]}/24" dev eth0
    ip -n "$ns" link set eth0 up
    ip -n "$ns" link set lo up
    mkdir -p "$dir"
    ssh-keygen -q -t ed25519 -N '' -f "$dir/host_key"
    cat > "$dir/sshd_config" <<EOF
Port 22
ListenAddress ${NETNS_ADDR[$i]}
HostKey $dir/host_key
PidFile $dir/sshd.pid
UsePAM no
StrictModes no
PasswordAuthentication yes
KbdInteractiveAuthentication no
PubkeyAuthentication yes
Subsystem sftp internal-sftp
MaxSessions ${NETNS_MAX_SESSIONS:-64}
MaxStartups 64
EOF
    [ -z "${NETNS_SSHD_EXTRA:-}" ] || printf '%s\n' "${NETNS_SSHD_EXTRA//@N@/$i}" >> "$dir/sshd_config"
    local mask="" f
    for f in ${NETNS_MASK:-}; do mask="$mask mount --bind /dev/null $f &&"; done
    # The holder (PID 1 of the node's PID namespace) runs sshd; killing it ends the node.
    ip netns exec "$ns" unshare --uts --pid --fork --mount-proc /bin/sh -c \
      "hostname node$i; $mask exec /usr/sbin/sshd -D -f $dir/sshd_config -E $dir/sshd.log" &
    NETNS_HOLDER[$i]=$!
  done
  NETNS_COUNT=$n
  for i in $(seq 1 "$n"); do
    for _ in $(seq 1 50); do
      bash -c "exec 3<>/dev/tcp/${NETNS_ADDR[$i]}/22" 2>/dev/null && break
      sleep 0.1
    done
    bash -c "exec 3<>/dev/tcp/${NETNS_ADDR[$i]}/22" 2>/dev/null || { netns_fail "sshd of node$i does not answer: $(cat "$NETNS_WORK/node$i/sshd.log")"; return 1; }
  done
}

netns_link() {
  ip link set "v$NETNS_TAG-$1" "$2"
}

# The node's processes are in its own PID namespace: enter it, its /proc and its network.
netns_exec() {
  local i=$1; shift
  # ip netns exec became unshare (the holder), whose forked child is the node's PID 1: sshd.
  nsenter -t "$(pgrep -P "${NETNS_HOLDER[$i]}" | head -1)" -p -n -u -m "$@"
}

netns_down() {
  local i
  for i in $(seq 1 "$NETNS_COUNT"); do
    kill "${NETNS_HOLDER[$i]}" 2>/dev/null
    pkill -P "${NETNS_HOLDER[$i]}" 2>/dev/null
    ip netns del "$NETNS_TAG-$i" 2>/dev/null
    ip link del "v$NETNS_TAG-$i" 2>/dev/null
  done
  ip link del "$NETNS_BRIDGE" 2>/dev/null
  if [ -n "${NETNS_USER:-}" ] && id "$NETNS_USER" >/dev/null 2>&1; then
    pkill -u "$NETNS_USER" 2>/dev/null
    # userdel refuses a user with processes left: until they are gone (bounded).
    for _ in $(seq 1 50); do pgrep -u "$NETNS_USER" >/dev/null || break; sleep 0.1; done
    netns_locked userdel "$NETNS_USER" 2>/dev/null || echo "netns fixture: userdel $NETNS_USER failed" >&2
  fi
  NETNS_COUNT=0
}
