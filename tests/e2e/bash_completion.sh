#!/usr/bin/env bash
# The bash completion installed with the app (resources/traindesk.bash-completion): every
# command of `traindesk --help` is reached by completing its words one by one, a command's
# options complete (job create --no-container), and -w completes the workspaces there are.
set -u
traindesk=$1
completion=$2
work=$(mktemp -d "${TMPDIR:-/tmp}/td-completion.XXXXXX")
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
export TRAINDESK_HOME=$work/data
bin=$work/bin
mkdir -p "$bin" && ln -s "$traindesk" "$bin/traindesk"
export PATH=$bin:$PATH
. "$completion"
complete_line() {  # words... -> COMPREPLY for the last word
  COMP_WORDS=("$@"); COMP_CWORD=$(( $# - 1 )); COMPREPLY=()
  _traindesk traindesk "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
}
commands=$(traindesk --help | sed -n 's/^  \([a-z][a-z0-9-]*\( [a-z0-9][a-z0-9-]*\)*\)  .*/\1/p')
[ "$(printf '%s\n' "$commands" | wc -l)" -ge 40 ] || fail "too few commands in the help: $commands"
while read -r line; do
  read -ra w <<< "$line"
  for ((k = 0; k < ${#w[@]}; k++)); do
    complete_line traindesk "${w[@]:0:k}" "${w[k]:0:2}"
    printf '%s\n' "${COMPREPLY[@]}" | grep -qx -- "${w[k]}" || fail "'traindesk ${w[*]:0:k} ${w[k]:0:2}<Tab>' offers ${COMPREPLY[*]:-nothing}, not ${w[k]}"
  done
done <<< "$commands"
complete_line traindesk job create --no-c
[ "${COMPREPLY[*]}" = "--no-container" ] || fail "job create --no-c<Tab>: ${COMPREPLY[*]:-nothing}"
complete_line traindesk job metrics --c
[ "${COMPREPLY[*]}" = "--csv --csv-raw" ] || fail "job metrics --c<Tab>: ${COMPREPLY[*]:-nothing}"
traindesk workspace create -n tutorial >/dev/null || fail "workspace create"
complete_line traindesk job list -w tu
[ "${COMPREPLY[*]}" = "tutorial" ] || fail "-w tu<Tab>: ${COMPREPLY[*]:-nothing}"
echo "completion ok: $(printf '%s\n' "$commands" | wc -l) commands"
