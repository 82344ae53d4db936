#!/bin/bash
# SSH transport benchmark: SFTP upload and download of a 1 GiB file over loopback with
# TrainDesk's SshTransport (libssh) against OpenSSH's sftp and scp in the same run, and
# the round trip of an exec on a pooled connection (against ssh over a ControlMaster
# connection, OpenSSH's own connection reuse). Needs root (it starts its own sshd).
# Usage: bench/ssh/run_bench.sh [BUILD_DIR] [SIZE_MIB] [ROUNDS]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../../build-ssh}
size_mib=${2:-1024}
rounds=${3:-3}
[ "$(id -u)" = 0 ] || { echo "run as root: the benchmark starts its own sshd" >&2; exit 1; }

# Files on tmpfs when it has room: the numbers are then the transport's, not the disk's.
base=${BENCH_DIR:-}
if [ -z "$base" ]; then
  free_kib=$(df -k --output=avail /dev/shm 2>/dev/null | tail -1 || echo 0)
  if [ "${free_kib:-0}" -gt $((size_mib * 1024 * 5)) ]; then base=/dev/shm; else base=/tmp; fi
fi
work=$(mktemp -d "$base/traindesk-bench-ssh.XXXXXX")
chmod 755 "$work"
# A user of its own with /bin/sh as login shell: root's shell on a developer machine may
# run rc files (pyenv, conda) on every command, which would be timed instead of SSH.
user=tdbench$$
sshd_pid=
cleanup() {
  [ -n "$sshd_pid" ] && kill "$sshd_pid" 2>/dev/null || true
  [ -S "$work/ctl" ] && ssh -S "$work/ctl" -O exit x 2>/dev/null || true
  id "$user" >/dev/null 2>&1 && userdel -f "$user" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

# The benchmark program, built against the TrainDesk core of BUILD_DIR.
bench=$work/bench_ssh
g++ -std=c++20 -O2 -fPIC "$here/bench_ssh.cpp" -I"$here/../../core" $(pkg-config --cflags Qt6Core) \
  "$build/core/libtraindesk_core.a" $(pkg-config --libs Qt6Core Qt6Sql Qt6Concurrent libssh) -o "$bench"

mkdir -p /run/sshd "$work/remote" "$work/local"
useradd -M -d "$work/remote" -s /bin/sh -p '*' "$user"  # '*': no password, not locked (sshd refuses locked accounts)
chown "$user" "$work/remote"
ssh-keygen -q -t ed25519 -N '' -f "$work/host_key"
ssh-keygen -q -t ed25519 -N '' -f "$work/client_key"
cp "$work/client_key.pub" "$work/authorized_keys"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
cat > "$work/sshd_config" <<CONF
Port $port
ListenAddress 127.0.0.1
HostKey $work/host_key
PidFile $work/sshd.pid
AuthorizedKeysFile $work/authorized_keys
StrictModes no
UsePAM no
PasswordAuthentication no
Subsystem sftp internal-sftp
MaxSessions 64
CONF
/usr/sbin/sshd -D -f "$work/sshd_config" -E "$work/sshd.log" &
sshd_pid=$!
for _ in $(seq 100); do (echo > /dev/tcp/127.0.0.1/$port) 2>/dev/null && break; sleep 0.1; done

ssh_opts=(-o UserKnownHostsFile="$work/known_hosts_openssh" -o StrictHostKeyChecking=accept-new -o BatchMode=yes
          -i "$work/client_key")
ours=("$bench" 127.0.0.1 "$port" "$user" "$work/client_key" "$work/known_hosts")

echo "== machine ($(date -u +%Y-%m-%dT%H:%MZ))"
echo "$(lscpu | sed -n 's/^Model name: *//p'), $(nproc) cores; files on $base; $(ssh -V 2>&1); libssh $(pkg-config --modversion libssh)"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg) (other work on the machine skews every number below)"
head -c $((size_mib * 1024 * 1024)) /dev/urandom > "$work/local/file.bin"
cp "$work/local/file.bin" "$work/remote/file.bin"
chown "$user" "$work/remote/file.bin"

# Seconds a command takes; its errors and a non-zero exit end the benchmark.
seconds() {
  local start end
  start=$(date +%s.%N)
  "$@" >/dev/null 2>"$work/err" || { echo "failed: $*" >&2; cat "$work/err" >&2; exit 1; }
  end=$(date +%s.%N)
  python3 -c "print(f'{$end - $start:.3f}')"
}
mibps() { python3 -c "print(f'{$size_mib/$1:.0f}')"; }
median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
declare -A all
for round in $(seq "$rounds"); do
  # Interleaved, so that a change in the machine's load touches every contender alike.
  rm -f "$work/remote/up.bin" "$work/local/down.bin"
  s=$(seconds sftp -q "${ssh_opts[@]}" -P "$port" -b - "$user@127.0.0.1" <<< "put $work/local/file.bin $work/remote/up.bin")
  all[sftp_up]+="$s "
  rm -f "$work/remote/up.bin"
  s=$(seconds sftp -q -c aes128-gcm@openssh.com "${ssh_opts[@]}" -P "$port" -b - "$user@127.0.0.1" <<< "put $work/local/file.bin $work/remote/up.bin")
  all[gcm_up]+="$s "
  rm -f "$work/remote/up.bin"
  s=$(seconds scp -q "${ssh_opts[@]}" -P "$port" "$work/local/file.bin" "$user@127.0.0.1:$work/remote/up.bin")
  all[scp_up]+="$s "
  rm -f "$work/remote/up.bin"
  # Timed from outside, like the others: start-up, handshake and login included.
  s=$(seconds "${ours[@]}" upload "$work/local/file.bin" "$work/remote/up.bin")
  cmp -s "$work/local/file.bin" "$work/remote/up.bin" || { echo "upload corrupted the file" >&2; exit 1; }
  all[ours_up]+="$s "
  s=$(seconds sftp -q "${ssh_opts[@]}" -P "$port" -b - "$user@127.0.0.1" <<< "get $work/remote/file.bin $work/local/down.bin")
  all[sftp_down]+="$s "
  rm -f "$work/local/down.bin"
  s=$(seconds sftp -q -c aes128-gcm@openssh.com "${ssh_opts[@]}" -P "$port" -b - "$user@127.0.0.1" <<< "get $work/remote/file.bin $work/local/down.bin")
  all[gcm_down]+="$s "
  rm -f "$work/local/down.bin"
  s=$(seconds scp -q "${ssh_opts[@]}" -P "$port" "$user@127.0.0.1:$work/remote/file.bin" "$work/local/down.bin")
  all[scp_down]+="$s "
  rm -f "$work/local/down.bin"
  s=$(seconds "${ours[@]}" download "$work/remote/file.bin" "$work/local/down.bin")
  cmp -s "$work/remote/file.bin" "$work/local/down.bin" || { echo "download corrupted the file" >&2; exit 1; }
  all[ours_down]+="$s "
done
echo "== ${size_mib} MiB over loopback, median of $rounds interleaved rounds (seconds of each round in brackets)"
echo "   OpenSSH's default cipher is chacha20-poly1305; TrainDesk prefers aes128-gcm (AES instructions);"
echo "   sftp-gcm is OpenSSH's sftp told to use aes128-gcm too. ratio = TrainDesk's throughput / theirs."
for dir in up down; do
  o=$(median ${all[ours_$dir]})
  printf '%s\n' "$([ $dir = up ] && echo upload || echo download)"
  printf '  %-10s %5s MiB/s  [%s]\n' traindesk "$(mibps "$o")" "${all[ours_$dir]% }"
  for tool in sftp scp gcm; do
    t=$(median ${all[${tool}_$dir]})
    printf '  %-10s %5s MiB/s  [%s]  ratio %.2f\n' "$([ $tool = gcm ] && echo sftp-gcm || echo $tool)" "$(mibps "$t")" \
      "${all[${tool}_$dir]% }" "$(python3 -c "print($t/$o)")"
  done
done

echo "== exec round trip (true), 200 runs"
"${ours[@]}" rtt 200 | sed 's/^/traindesk pooled connection: /'
ssh "${ssh_opts[@]}" -p "$port" -o ControlMaster=yes -o ControlPath="$work/ctl" -o ControlPersist=60 -fN "$user@127.0.0.1"
python3 - "$work/ctl" "$port" "$user" "${ssh_opts[@]}" <<'PY'
import subprocess, sys, time
ctl, port, user, opts = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
def run(extra):
    t = time.perf_counter()
    subprocess.run(["ssh", *opts, "-p", port, *extra, f"{user}@127.0.0.1", "true"], check=True)
    return (time.perf_counter() - t) * 1000
for label, extra, n in (("ssh over a ControlMaster connection", ["-S", ctl], 200), ("ssh, a new connection each time", [], 20)):
    ms = sorted(run(extra) for _ in range(n))
    print(f"{label}: rtt {n} median {ms[n // 2]:.2f} ms p90 {ms[n * 9 // 10]:.2f} ms")
PY
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
