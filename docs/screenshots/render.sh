#!/usr/bin/env bash
# Renders the GUI screenshots in this folder from a real run: a fresh data directory, the
# demo job started with the CLI, then the app under Xvfb once per view, each saving a grab
# of its window (TRAINDESK_SCREENSHOT, see ui/ScreenshotMode.h). The demo job is terminated
# at the end.
# The main screens (job charts with the system metrics, cluster, new job) come light and
# dark (NAME-dark.png: View > Theme > Dark, TRAINDESK_THEME), each at scale 1 and 2.
# The main screens also fill a 1024x700 and a 1920x1080 screen (NAME-1024x700.png,
# NAME-1920x1080-dark.png...): the smallest screen the app is laid out for, and a common one.
#   docs/screenshots/render.sh [--main | --sizes] [BUILD_DIR]
#     (default: build; needs bin/traindesk and bin/traindesk-trainer there, xvfb-run, mpirun)
#     --main: only the main screens, light and dark (skips the compare run and the wizards)
#     --sizes: only the main screens at 1024x700 and 1920x1080, light and dark
set -euo pipefail

main_only=0
sizes_only=0
if [ "${1:-}" = --main ]; then main_only=1; shift; fi
if [ "${1:-}" = --sizes ]; then main_only=1; sizes_only=1; shift; fi
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:-$here/../../build}" && pwd)
app="$build/bin/traindesk"
[ -x "$app" ] || { echo "render.sh: $app not found: build the app first" >&2; exit 1; }
[ -x "$build/bin/traindesk-trainer" ] || { echo "render.sh: $build/bin/traindesk-trainer not found" >&2; exit 1; }

home=$(mktemp -d /tmp/traindesk-shots.XXXXXX)
export TRAINDESK_HOME="$home" XDG_CONFIG_HOME="$home/config" TRAINDESK_TRAINER_DIR="$build/bin"
demo=(-w default -e demo -n fashion-mnist-demo)
cleanup() {
  "$app" job terminate "${demo[@]}" >/dev/null 2>&1 || true
  rm -rf "$home"
}
trap cleanup EXIT

shot() {  # shot FILE SELECT TAB [DELAY] [ACTION STEPS]: ACTION opens a wizard, STEPS drive it
  local scale=${SCALE:-1}  # SCALE=2: a high-DPI screen (QT_SCALE_FACTOR), twice the pixels
  # THEME=dark: the dark theme; light otherwise, whatever the desktop of the machine says.
  # SCREEN=WxH: a screen of that size, the main window filling it.
  local screen=${SCREEN:-$((1400 * scale))x$((900 * scale))}
  TRAINDESK_THEME=${THEME:-light} TRAINDESK_SCREENSHOT="$here/$1" TRAINDESK_SCREENSHOT_SELECT="$2" TRAINDESK_SCREENSHOT_TAB="$3" \
    TRAINDESK_SCREENSHOT_DELAY="${4:-4}" TRAINDESK_SCREENSHOT_ACTION="${5:-}" TRAINDESK_SCREENSHOT_STEPS="${6:-}" \
    TRAINDESK_SCREENSHOT_FILL=$([ -n "${SCREEN:-}" ] && echo 1 || echo 0) \
    QT_SCALE_FACTOR=$scale xvfb-run -a -s "-screen 0 ${screen}x24" "$app" >/dev/null 2>&1
  echo "render.sh: $1"
}
shot_scales() {  # shot_scales NAME ARGS...: NAME.png at scale 1 and NAME@2x.png at scale 2
  local name=$1
  shift
  shot "$name.png" "$@"
  SCALE=2 shot "$name@2x.png" "$@"
}
shot_sizes() {  # shot_sizes NAME ARGS...: NAME-1024x700(-dark).png, NAME-1920x1080(-dark).png
  local name=$1
  shift
  for size in 1024x700 1920x1080; do
    SCREEN=$size shot "$name-$size.png" "$@"
    SCREEN=$size THEME=dark shot "$name-$size-dark.png" "$@"
  done
}
shot_themes() {  # shot_themes NAME ARGS...: shot_scales light, then NAME-dark(.png, @2x.png), shot_sizes
  local name=$1
  shift
  if [ $sizes_only = 0 ]; then
    shot_scales "$name" "$@"
    THEME=dark shot_scales "$name-dark" "$@"
  fi
  shot_sizes "$name" "$@"
}

# The first start creates the defaults; the draft demo job is what a new user sees.
[ $main_only = 1 ] || shot 01-first-start.png fashion-mnist-demo Overview 3
compare=fashion-mnist-lr1e-3
with_compare=$([ $main_only = 0 ] || [ $sizes_only = 1 ] && echo 1 || echo 0)
if [ $with_compare = 1 ]; then
# A shorter run of the demo with a ten times larger learning rate, to compare with.
sed 's/--epochs 5/--epochs 1 --max-steps 500 --lr 0.001/' "$here/../../resources/jobs/fashion-mnist-demo.json" > "$home/compare.json"
"$app" job create -e demo -n "$compare" -c local -f "$home/compare.json" >/dev/null
echo "render.sh: running $compare first (the local cluster runs one 2-rank job at a time)"
"$app" job wait -e demo -n "$compare" >/dev/null
fi

"$app" job start "${demo[@]}" >/dev/null
# Wait for the first epoch's validation, so the charts have both kinds of points.
echo "render.sh: waiting for the demo job's first epoch (a few minutes)"
for _ in $(seq 1 600); do
  metrics="$("$app" job show "${demo[@]}" --query jobDirectory 2>/dev/null || true)/stdouterr/metrics.jsonl"
  if [ -f "$metrics" ] && grep -q '"kind": *"val"' "$metrics"; then break; fi
  state=$("$app" job show "${demo[@]}" --query state 2>/dev/null || true)
  case "$state" in failed|succeeded) echo "render.sh: the demo job $state early" >&2; "$app" job show "${demo[@]}" >&2; exit 1 ;; esac
  sleep 1
done
sleep 20  # a few training points after the validation one

shot_themes 02-job-charts fashion-mnist-demo Charts 5
shot_themes 06-cluster local Cluster 3
shot_themes 07-new-job demo "" 3 newJobAction ""
# The experiment's runs side by side, both chosen: their charts overlaid below the table
# (not with --main, which has no second run).
[ $with_compare = 0 ] || shot_themes 18-runs-table demo Runs 6 "" "select:runsTable=0,1"
# The same two runs' settings against their best val_acc: parallel coordinates, and the
# learning rate against it (at the two screen sizes, light and dark).
[ $with_compare = 0 ] || shot_sizes 26-runs-parallel demo Runs 6 "" "select:runsTable=0,1|tab:runsPlotTabs=1"
[ $with_compare = 0 ] || shot_sizes 26-runs-scatter demo Runs 6 "" "select:runsTable=0,1|tab:runsPlotTabs=2|runsPlotParameter=lr"
[ $main_only = 0 ] || exit 0
shot 03-job-logs.png fashion-mnist-demo Logs 4
shot 04-job-overview.png fashion-mnist-demo Overview 3
shot 05-job-files.png fashion-mnist-demo "Output files" 4
# Each rank's own curves; then the shorter run overlaid.
shot 12-charts-per-rank.png fashion-mnist-demo Charts 5 "" "perRankCheck=1"
shot 13-charts-compare.png fashion-mnist-demo Charts 5 "" "menu:compareButton=$compare"
# Terminate and Delete ask first; the Help menu's shortcuts and About.
shot_scales 20-terminate-asks fashion-mnist-demo Overview 3 terminateJobAction ""
shot_scales 21-delete-job "$compare" Overview 3 deleteJobAction ""
shot_scales 22-keyboard-shortcuts "" "" 3 shortcutsAction ""
shot 23-about.png "" "" 3 aboutAction ""


# The wizards (see ui/ScreenshotMode.cpp for the steps).
# The tutorial's job.json on the local cluster: what the core finds wrong, the first one chosen.
shot 08-job-editor.png demo "" 5 newJobAction "templateList=2|next|next|activate:issueList=0"
shot 09-new-workspace.png "" "" 3 newWorkspaceAction "workspaceName=tutorial|experimentName=cifar"
mkdir -p "$home/upload"
cat > "$home/upload/hello_horovod.py" <<'PY'
# Prints each Horovod rank: a first check that a share and its folder reach every process.
import horovod.keras as hvd
hvd.init()
print("rank", hvd.rank(), "of", hvd.size())
PY
shot 10-share-upload.png "" "" 5 newShareAction \
  "shareName=myshare|next|folderCombo=cifar|files:$home/upload/hello_horovod.py|click:uploadButton"
shot 11-share-folder.png cifar Overview 3
# The share browser: the folder's files with sizes and dates (the Files tab of a share).
shot_themes 19-share-files cifar Files 4
# A share for SSH clusters: the kind asks for a cluster (none here but the local one).
shot 14-new-share-kinds.png "" "" 3 newShareAction "shareName=nfs|shareKind=1|shareFolder=/srv/nfs/traindesk"
# Data sets: CIFAR-10 in share "data", fetched from a small archive in the published layout
# (the tests' cifar_sets.py) that the tests' loopback server serves as the publisher would;
# the real one is 170 MB from the internet. Then the tutorial template's Data set page.
mkdir -p "$home/mirror/cifar10"
PYTHONPATH=$here/../../tests/trainer /usr/bin/python3 - "$home" <<'PY'
import os, sys
import numpy as np
import cifar_sets as cs
s = cs.CifarSet(np.random.default_rng(3), hundred=False, train_files=5, per_file=200, n_test=200)
cs.write_archive(s, os.path.join(sys.argv[1], "mirror/cifar10/cifar-10-python.tar.gz"), True, os.path.join(sys.argv[1], "scratch"))
PY
(cd "$home/mirror" && md5sum cifar10/cifar-10-python.tar.gz > "$home/MD5SUMS")
/usr/bin/python3 "$here/../../tests/e2e/range_http_server.py" "$home/mirror" --port-file "$home/port" --log "$home/requests.log" &
server=$!
for _ in $(seq 1 100); do [ -s "$home/port" ] && break; sleep 0.1; done
"$app" share create -n data --kind local >/dev/null
# The app judges the archive by the checksums it was fetched with, so it shows it verified.
export TRAINDESK_DATASET_MIRROR=http://127.0.0.1:$(cat "$home/port")/ TRAINDESK_DATASET_CHECKSUMS=$home/MD5SUMS
"$app" data fetch cifar10 --share data >/dev/null 2>&1
kill "$server"
shot_scales 16-data-sets data "" 3 dataSetsAction ""
shot_scales 17-new-job-data-set demo "" 4 newJobAction "templateList=1|next|next|dataShareCombo=data"
unset TRAINDESK_DATASET_MIRROR TRAINDESK_DATASET_CHECKSUMS
# The cluster wizard's Slurm page, against the tests' own Slurm (where it can run here).
. "$here/../../tests/slurm/slurm_fixture.sh"
if slurm_start "$home/slurm" >/dev/null; then
  shot 15-new-cluster-slurm.png "" "" 5 newClusterAction \
    "clusterName=hpc|slurmKind=1|next|slurmLoginIsLocal=1|click:slurmListPartitions"
  slurm_stop "$home/slurm"
else
  echo "render.sh: 15-new-cluster-slurm.png skipped (no Slurm here)"
fi
