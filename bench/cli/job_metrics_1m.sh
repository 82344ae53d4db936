#!/usr/bin/env bash
# `traindesk job metrics` of a job with 1,000,000 metric records: peak RSS and CPU time of
# the table, --csv and -o json, for one or more traindesk binaries (e.g. main's and a
# branch's) on the same database. Usage: job_metrics_1m.sh TRAINDESK [TRAINDESK ...]
set -eu
work=$(mktemp -d "${TMPDIR:-/tmp}/td-bench-metrics.XXXXXX")
trap 'rm -rf "$work"' EXIT
export TRAINDESK_HOME=$work/home
"$1" job list -e demo >/dev/null  # the database with its demo job
python3 - "$TRAINDESK_HOME/traindesk.db" <<'PY'
import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
(jid,) = c.execute("SELECT j.id FROM jobs j JOIN experiments e ON j.experiment_id = e.id WHERE e.name = 'demo'").fetchone()
t0 = 1764155412.25
rows = ((jid, '{"kind":"train","time":%.3f,"rank":0,"epoch":%d,"step":%d,"loss":%.6f,"acc":%.6f}'
         % (t0 + i * 0.01, i // 10000, i, 2.0 / (1 + i * 1e-4), i / 1e6)) for i in range(1000000))
c.executemany("INSERT INTO job_metrics(job_id, record) VALUES(?, ?)", rows)
c.commit()
PY
for traindesk in "$@"; do
  for format in table --csv "-o json"; do
    # shellcheck disable=SC2086  # "-o json" is two words
    python3 - "$traindesk" $([ "$format" = table ] || echo $format) <<'PY'
import resource, subprocess, sys, time
start = time.monotonic()
subprocess.run([sys.argv[1], "job", "metrics", "-e", "demo", "-j", "fashion-mnist-demo"] + sys.argv[2:],
               stdout=subprocess.DEVNULL, check=True)
r = resource.getrusage(resource.RUSAGE_CHILDREN)
print("%s %-9s peak RSS %5d MiB, CPU %.1f s user + %.1f s sys, wall %.1f s"
      % (sys.argv[1], " ".join(sys.argv[2:]) or "table", r.ru_maxrss // 1024, r.ru_utime, r.ru_stime,
         time.monotonic() - start))
PY
  done
done
