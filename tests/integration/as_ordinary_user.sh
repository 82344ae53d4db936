#!/usr/bin/env bash
# The SSH suites run as an ordinary user: each starts its sshd as that user on a high port
# and logs in as it with keys, and skips, by name and with the reason, only the cases that
# need root (a throwaway user with a password). Run as root (CI): makes
# a user for the run, runs the suites as it, and fails when a case failed, when a suite ran
# nothing, or when a skip does not say it needs root. Prints each suite's counts.
# as_ordinary_user.sh BIN_DIR
set -uo pipefail
bin=$1
suites="tst_sshtransport tst_sshauth tst_quoting tst_cluster tst_cluster_cli tst_shares tst_clusterwizard"

if [ "$(id -u)" -ne 0 ]; then
  echo "SKIP: run as root: it makes an ordinary user and runs the suites as it (as an ordinary user, run the suites themselves)"
  exit 77
fi
user=tdplain$$
home=$(mktemp -d /tmp/td-ordinary-XXXXXX)
chmod 755 "$home"
opened=()
cleanup() {
  for d in ${opened[@]+"${opened[@]}"}; do chmod o-x "$d"; done
  flock -w 60 "$users_lock" userdel -f "$user" > /dev/null 2>&1; rm -rf "$home"
}
trap cleanup EXIT
# useradd/userdel of tests running at once fail on /etc/passwd's lock: one at a time (the
# netns fixture, tests/netns/netns_nodes.sh, takes the same lock).
users_lock=/run/lock/traindesk-netns.lock
flock -w 60 "$users_lock" useradd -M -d "$home/home" -s /bin/sh -c "traindesk test pid $$" "$user" || { echo "FAIL: useradd $user"; exit 1; }
mkdir -p "$home/home" && chown "$user:" "$home/home"
# A checkout under a private folder (/root, say) is not reachable by the user: let it pass
# through (o+x, no listing) each such folder above the build tree for this run only.
d=$(cd "$bin" && pwd -P)
while [ "$d" != / ]; do
  if [ -z "$(find "$d" -maxdepth 0 -perm -o+x)" ]; then chmod o+x "$d" && opened+=("$d"); fi
  d=$(dirname "$d")
done
for s in $suites; do
  if ! runuser -u "$user" -- test -x "$bin/$s"; then
    echo "SKIP: $user cannot run $bin/$s (the build tree is not readable by other users)"
    exit 77
  fi
done

# The suites at once (ctest runs them side by side too: each has its own sshd on a free port
# and its own temporary folders); they mostly wait on SSH round trips.
declare -A pids
for s in $suites; do
  runuser -u "$user" -- env -i PATH=/usr/local/bin:/usr/bin:/bin HOME="$home/home" LANG=C.UTF-8 \
    QT_QPA_PLATFORM=offscreen TRAINDESK_AGENT_PROGRAM="$bin/traindesk" TRAINDESK_TRAINER_DIR="$bin" \
    timeout 600 "$bin/$s" > "$home/$s.txt" 2>&1 &
  pids[$s]=$!
done
status=0
for s in $suites; do
  out="$home/$s.txt"
  wait "${pids[$s]}"
  rc=$?
  totals=$(grep -E '^Totals: ' "$out" | tail -1)
  passed=$(sed -nE 's/^Totals: ([0-9]+) passed.*/\1/p' <<< "$totals")
  failed=$(sed -nE 's/.* ([0-9]+) failed.*/\1/p' <<< "$totals")
  echo "$s as $user: ${totals:-no totals} (exit $rc)"
  grep -E '^SKIP   : ' "$out" | sed 's/^/    /'
  if [ "$rc" -ne 0 ] || [ -z "$totals" ] || [ "${failed:-1}" -ne 0 ]; then
    echo "FAIL: $s as an ordinary user:"; grep -E '^(FAIL!|   Loc)' "$out" | head -20; status=1
  elif grep -E '^SKIP   : ' "$out" | grep -v 'needs root: ' >/dev/null; then
    echo "FAIL: $s skipped a case without saying it needs root"; status=1
  elif [ "${passed:-0}" -le 2 ]; then
    # initTestCase and cleanupTestCase count as passes: 2 or less means no case ran.
    echo "FAIL: $s ran no case as an ordinary user"; status=1
  fi
done
exit "$status"
