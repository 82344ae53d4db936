#!/usr/bin/env bash
# Builds the packages with cpack and checks them as a user's machine would see them:
# the file lists, the dependencies (the trainer's hand-written list against
# dpkg-shlibdeps), lintian, desktop-file-validate and appstreamcli, and the installed
# programs run from an unpacked root: --version, --help and a CLI job on the local cluster.
#
# test_packages.sh BUILD_DIR VERSION
set -euo pipefail
build=$1
version=$2
work=$(mktemp -d "${TMPDIR:-/tmp}/td-package.XXXXXX")
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

echo "== cpack"
(cd "$build" && cpack -G "DEB;TGZ" -B "$work/out" >"$work/cpack.log" 2>&1) || { cat "$work/cpack.log"; fail "cpack"; }
app_deb=$work/out/traindesk_${version}_$(dpkg --print-architecture).deb
trainer_deb=$work/out/traindesk-trainer_${version}_$(dpkg --print-architecture).deb
tgz=$(ls "$work"/out/traindesk-"$version"-*.tar.gz)
portable=$work/out/traindesk-trainer-${version}-linux-x86_64.tar.gz
for f in "$app_deb" "$trainer_deb" "$tgz" "$portable"; do [ -s "$f" ] || fail "missing package $f"; done

echo "== file lists"
list() { dpkg-deb -c "$1" | awk '{print $6}' | sed 's|^\./|/|'; }
app_id=io.github.traindesk.TrainDesk
expect_app=(/usr/bin/traindesk /usr/share/applications/$app_id.desktop
  /usr/share/metainfo/$app_id.metainfo.xml /usr/share/icons/hicolor/scalable/apps/$app_id.svg
  /usr/share/man/man1/traindesk.1.gz /usr/share/man/man1/traindesk-job.1.gz
  /usr/share/man/man1/traindesk-cluster.1.gz /usr/share/man/man1/traindesk-share.1.gz
  /usr/share/doc/traindesk/copyright /usr/share/doc/traindesk/changelog.gz)
for size in 16 22 24 32 48 64 128 256; do expect_app+=(/usr/share/icons/hicolor/${size}x${size}/apps/$app_id.png); done
expect_trainer=(/usr/bin/traindesk-trainer /usr/share/man/man1/traindesk-trainer.1.gz
  /usr/share/doc/traindesk-trainer/copyright /usr/share/doc/traindesk-trainer/changelog.gz)
list "$app_deb" >"$work/app.list"
list "$trainer_deb" >"$work/trainer.list"
for f in "${expect_app[@]}"; do grep -qxF "$f" "$work/app.list" || fail "traindesk lacks $f"; done
# The portable trainer the app copies to the nodes (installer/portable).
grep -qE "^/usr/lib/(x86_64-linux-gnu/)?traindesk/traindesk-trainer-${version}-linux-x86_64\.tar\.gz$" "$work/app.list" \
  || fail "traindesk lacks the portable trainer"
tar -tzf "$portable" >"$work/portable.list"
grep -qx "traindesk-trainer-${version}-linux-x86_64/bin/traindesk-trainer" "$work/portable.list" \
  || fail "the portable trainer has no bin/traindesk-trainer"
for f in "${expect_trainer[@]}"; do grep -qxF "$f" "$work/trainer.list" || fail "traindesk-trainer lacks $f"; done
# The agent's unit and the completion, where the source tree has them.
src=$(cd "$(dirname "$0")/../.." && pwd)
[ ! -f "$src/resources/traindesk-agent.service" ] || grep -qxF /usr/lib/systemd/user/traindesk-agent.service "$work/app.list" \
  || fail "traindesk lacks the agent's systemd user unit"
[ ! -f "$src/resources/traindesk.bash-completion" ] || grep -qxF /usr/share/bash-completion/completions/traindesk "$work/app.list" \
  || fail "traindesk lacks the bash completion"
# Nothing of the build or the tests leaks into a package.
if grep -E '/(tst_|trainer_|bench_)|/include/|\.a$' "$work/app.list" "$work/trainer.list"; then fail "test or build files in a package"; fi
tar tzf "$tgz" | grep '/usr/bin/traindesk$' >/dev/null || fail "the .tar.gz lacks usr/bin/traindesk"

echo "== dependencies"
depends() { dpkg-deb -f "$1" Depends; }
depends "$app_deb" | grep "traindesk-trainer (= $version)" >/dev/null || fail "traindesk does not depend on traindesk-trainer (= $version)"
for p in libqt6core6 libqt6widgets6 libqt6charts6 libssh-4 libqt6sql6-sqlite qt6-qpa-plugins openmpi-bin; do
  depends "$app_deb" | grep "\b$p\b" >/dev/null || fail "traindesk does not depend on $p"
done
dpkg-deb -f "$trainer_deb" Suggests | grep libnccl2 >/dev/null || fail "traindesk-trainer does not suggest NCCL"
if depends "$trainer_deb" | grep -Eq 'cuda|cudnn|nccl|cublas'; then fail "the CPU trainer depends on the GPU stack"; fi
root=$work/root
dpkg-deb -x "$app_deb" "$root"
dpkg-deb -x "$trainer_deb" "$root"
mkdir -p "$work/shl/debian" && echo "Source: traindesk" >"$work/shl/debian/control"
needed=$(cd "$work/shl" && dpkg-shlibdeps -O "$root/usr/bin/traindesk-trainer" 2>/dev/null | sed 's/^shlibs:Depends=//')
IFS=',' read -ra pkgs <<<"$needed"
for p in "${pkgs[@]}"; do
  name=$(echo "$p" | awk '{print $1}')
  depends "$trainer_deb" | grep "\b$name\b" >/dev/null || fail "traindesk-trainer needs $name (dpkg-shlibdeps) but does not depend on it"
done

echo "== validators"
desktop-file-validate "$root/usr/share/applications/$app_id.desktop" || fail "desktop-file-validate"
appstreamcli validate --no-net "$root/usr/share/metainfo/$app_id.metainfo.xml" || fail "appstreamcli validate"
for page in "$root"/usr/share/man/man1/*.1.gz; do
  warnings=$(zcat "$page" | groff -man -Tutf8 -ww -z 2>&1 || true)
  [ -z "$warnings" ] || fail "man page $(basename "$page"): $warnings"
done
lintian_args=(--tag-display-limit 0 -I)
out=$(lintian "${lintian_args[@]}" "$app_deb" "$trainer_deb" 2>&1 | grep -v 'running with root privileges' || true)
[ -z "$out" ] || fail "lintian findings (fix them or explain them in installer/lintian/):
$out"

echo "== installed programs"
export TRAINDESK_HOME=$work/home QT_QPA_PLATFORM=offscreen
# Output is taken whole before it is searched: with pipefail, `grep -q` leaving early would
# fail the pipeline with the program's SIGPIPE.
out=$("$root/usr/bin/traindesk" --version)
grep -qF "$version" <<<"$out" || fail "traindesk --version does not print $version"
out=$("$root/usr/bin/traindesk" --help)
grep -q "job create" <<<"$out" || fail "traindesk --help lacks the commands"
out=$("$root/usr/bin/traindesk-trainer" --version)
grep -qF "$version" <<<"$out" || fail "traindesk-trainer --version does not print $version"
# A real job on the local cluster, run by the installed app with the installed trainer.
cat >"$work/job.json" <<EOF
{ "properties": { "nodeCount": 1,
  "stdOutErrPathPrefix": "$work/jobs",
  "customMpiSettings": { "processCount": 1,
    "commandLine": "traindesk-trainer --format synthetic --synthetic-train 256 --synthetic-test 64 --synthetic-shape 12x12x1 --epochs 1 --dir \$AZ_BATCHAI_JOB_TEMP/model" } } }
EOF
td() { "$root/usr/bin/traindesk" "$@"; }
td job create -e demo -n packaged -c local -f "$work/job.json" >/dev/null
timeout 300 "$root/usr/bin/traindesk" job wait -e demo -n packaged || { td job file stream -e demo -j packaged -f stderr.txt || true; fail "the CLI job on the local cluster failed"; }
out=$(td job show -e demo -n packaged -o json)
grep -q '"succeeded"' <<<"$out" || fail "the job did not succeed"
td agent stop >/dev/null
echo "PASS: packages $(basename "$app_deb"), $(basename "$trainer_deb"), $(basename "$tgz")"
