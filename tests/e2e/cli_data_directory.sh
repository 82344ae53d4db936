#!/usr/bin/env bash
# The CLI refuses a data directory that others may write or that another user owns, and its
# files when they are links (an agent.log link to a file of the attacker's choice), naming
# the folder and the fix, and opens nothing there.
set -u
traindesk=$1
work=$(mktemp -d "${TMPDIR:-/tmp}/td-datadir.XXXXXX")
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

echo "== a data directory others may write"
mkdir -m 777 "$work/open" && chmod 777 "$work/open"
TRAINDESK_HOME=$work/open "$traindesk" workspace list > /dev/null 2> "$work/err" && fail "a 0777 data directory was used"
grep -q "the data directory $work/open is refused: others may write it (mode 0777) (fix: 'chmod 700 $work/open')" "$work/err" \
  || fail "message: $(cat "$work/err")"
[ ! -e "$work/open/traindesk.db" ] || fail "a database was made in the refused data directory"
chmod 700 "$work/open"
TRAINDESK_HOME=$work/open "$traindesk" workspace list > /dev/null || fail "the fixed data directory is still refused"

echo "== a data directory under a folder others may write"
mkdir -p "$work/shared/data" && chmod 777 "$work/shared" && chmod 700 "$work/shared/data"
TRAINDESK_HOME=$work/shared/data "$traindesk" workspace list > /dev/null 2> "$work/err" && fail "a data directory in a 0777 folder was used"
grep -q "above the data directory may be written by others" "$work/err" || fail "message: $(cat "$work/err")"

echo "== agent.log as a link"
ln -s "$work/victim" "$work/open/agent.log"
TRAINDESK_HOME=$work/open "$traindesk" workspace list > /dev/null 2> "$work/err" && fail "a linked agent.log was accepted"
grep -q "agent.log in the data directory is refused: it is a link" "$work/err" || fail "message: $(cat "$work/err")"
[ ! -e "$work/victim" ] || fail "the link's target was written"
rm "$work/open/agent.log"

if [ "$(id -u)" -eq 0 ]; then
  echo "== another user's data directory"
  mkdir -m 700 "$work/theirs" && chown nobody "$work/theirs"
  TRAINDESK_HOME=$work/theirs "$traindesk" workspace list > /dev/null 2> "$work/err" && fail "another user's data directory was used"
  grep -q "the data directory $work/theirs is refused: it belongs to user nobody" "$work/err" || fail "message: $(cat "$work/err")"
  [ ! -e "$work/theirs/traindesk.db" ] || fail "a database was made in another user's data directory"
else
  echo "(another user's data directory: needs root, not run)"
fi
echo PASS
