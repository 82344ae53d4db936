#!/usr/bin/env bash
# On a terminal, what others wrote never drives it: a share listing of a file named with
# escape sequences shows them as \xNN (tables always do), a link is listed as a link (not
# as the file it points to), and a job's stream of output full of escape sequences (set the
# title, clear the screen) shows them in caret notation, as less does without -R; piped
# (not a terminal) the stream's bytes pass unchanged.
set -u
traindesk=$1
work=$(mktemp -d "${TMPDIR:-/tmp}/td-term.XXXXXX")
export TRAINDESK_HOME=$work/home TRAINDESK_TRAINER_DIR=$(dirname "$traindesk") QT_QPA_PLATFORM=offscreen
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
cleanup() { "$traindesk" agent stop >/dev/null 2>&1; rm -rf "$work"; }
trap cleanup EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
td() { "$traindesk" "$@"; }
# Runs the CLI on a terminal (a pty made by script(1)); what it printed, in $work/tty.out.
on_tty() { script -qec "$(printf '%q ' "$traindesk" "$@")" /dev/null > "$work/tty.out" 2>&1; }
esc=$(printf '\033')

mkdir -p "$work/share"
td share create -n s --kind local --path "$work/share" >/dev/null || fail "share create"
: > "$work/share/$(printf 'title\033]0;pwned\007name')"
ln -s /etc/passwd "$work/share/passwd-link"

echo "== share file list on a terminal"
on_tty share file list --share s || fail "list: $(cat "$work/tty.out")"
grep -q "$esc" "$work/tty.out" && fail "an escape sequence reached the terminal: $(od -c "$work/tty.out" | head)"
grep -qF 'title\x1b]0;pwned\x07name' "$work/tty.out" || fail "the name's control characters are not shown: $(cat -v "$work/tty.out")"
grep -q 'passwd-link.*link to /etc/passwd' "$work/tty.out" || fail "the link is not listed as one: $(cat -v "$work/tty.out")"

echo "== job file stream on a terminal"
cat > "$work/job.json" <<JSON
{ "properties": { "nodeCount": 1, "stdOutErrPathPrefix": "$work/jobs",
  "customToolkitSettings": { "commandLine": "printf 'before\\\\033]0;pwned\\\\007\\\\033[2Jafter\\\\n'" } } }
JSON
td job create -e demo -n esc -c local -f "$work/job.json" >/dev/null || fail "job create"
timeout 120 "$traindesk" job wait -e demo -n esc >/dev/null 2>&1 || fail "the job failed"
on_tty job file stream -e demo -j esc -f stdout.txt || fail "stream: $(cat "$work/tty.out")"
grep -q "$esc" "$work/tty.out" && fail "an escape sequence reached the terminal: $(od -c "$work/tty.out" | head)"
grep -qF 'before^[]0;pwned^G^[[2Jafter' "$work/tty.out" || fail "stream: $(cat -v "$work/tty.out")"
td job file stream -e demo -j esc -f stdout.txt | grep -q "$esc" || fail "piped, the stream is not passed unchanged"
echo PASS
