#!/usr/bin/env python3
# The launch matrix of one cluster kind (issue #39): every toolkit of the 2018-05-01 job
# schema x plain / retried after a killed rank / as a sweep trial, each cell one job running
# cell.py on every rank, driven through the real `traindesk` CLI and agent. All the kind's
# cells are submitted at once (the cluster queues them), then each is checked:
#   - the job succeeded (retried: in attempt 2, attempt 1 ended by signal 9), its folder has
#     launch.sh, hostfile, exit_code and tracking (Slurm: "slurm <job id>") and no .tmp file;
#   - every task the toolkit promises left its report (cell.py checked its variables, rank
#     and world size, the rendezvous, OMP_NUM_THREADS against its CPUs, the mode);
#   - the tasks ran on the nodes they should (a multi-node job on every node);
#   - each task's own stdout-<task>.txt holds its lines and no other task's;
#   - the threads of the ranks on one node add up to at most its CPUs; where the binding is
#     none (not Slurm, not packed) a rank may use every CPU of its node;
#   - the metric line of every task is stored as its own series.
# Prints the kind's table (docs/LAUNCH_MATRIX.md keeps it) and exits 1 on any failed cell.
import argparse
import json
import os
import shutil
import subprocess
import sys
import time

TOOLKITS = ["cntk", "tensorFlow", "caffe", "caffe2", "chainer", "pyTorch", "horovod", "customMpi", "customToolkit"]
MODES = ["plain", "retried", "trial"]
ap = argparse.ArgumentParser()
ap.add_argument("--traindesk", required=True)
ap.add_argument("--cluster", required=True)
ap.add_argument("--kind", required=True, choices=["local", "ssh", "slurm"])
ap.add_argument("--nodes", type=int, required=True, help="the nodes a multi-node cell uses")
ap.add_argument("--hosts", required=True, help="the cluster's nodes' host names as a rank sees them (their names in "
                "the cluster too where there are more than --nodes), comma separated")
ap.add_argument("--work", required=True, help="a folder the nodes see at the same path (job files, outputs)")
ap.add_argument("--table", help="also write the table here")
args = ap.parse_args()
hosts = args.hosts.split(",")
EXP = "matrix"
started = time.time()


def td(*a, check=True, timeout=120):
    r = subprocess.run([args.traindesk, *a], capture_output=True, text=True, timeout=timeout)
    if check and r.returncode != 0:
        raise Failure("traindesk %s: %s" % (" ".join(a), (r.stderr or r.stdout).strip()[-600:]))
    return r


class Failure(Exception):
    pass


def query(job, field):
    return td("job", "show", "-e", EXP, "-n", job, "--query", field).stdout.strip()


# -- the cells -------------------------------------------------------------------------------
cell_py = os.path.join(args.work, "cell.py")
shutil.copy(os.path.join(os.path.dirname(os.path.abspath(__file__)), "cell.py"), cell_py)
os.chmod(cell_py, 0o644)
jobs_dir = os.path.join(args.work, "jobs")
os.makedirs(jobs_dir, exist_ok=True)
os.chmod(jobs_dir, 0o777)


def processes(toolkit):
    """How many ranks a cell asks for: 2 (one per node on 2 nodes, two on one)."""
    return 2


def settings(toolkit, mode):
    word = " PARAM_CELL" if mode == "trial" else ""
    argsline = "%s %s%s" % (toolkit, mode, word)
    py = {"pythonScriptFilePath": cell_py, "commandLineArgs": argsline}
    p = processes(toolkit)
    if toolkit == "cntk":
        return {"cntkSettings": dict(py, languageType="Python", processCount=p)}
    if toolkit == "tensorFlow":
        return {"tensorFlowSettings": {"pythonScriptFilePath": cell_py, "workerCount": 2,
                                       "parameterServerCount": tf_servers(),
                                       "masterCommandLineArgs": argsline, "workerCommandLineArgs": argsline,
                                       "parameterServerCommandLineArgs": argsline}}
    if toolkit == "caffe":
        return {"caffeSettings": dict(py, processCount=p)}
    if toolkit == "caffe2":
        return {"caffe2Settings": py}
    if toolkit == "chainer":
        return {"chainerSettings": dict(py, processCount=p)}
    if toolkit == "pyTorch":
        return {"pyTorchSettings": dict(py, processCount=p, communicationBackend="gloo")}
    if toolkit == "horovod":
        return {"horovodSettings": dict(py, processCount=p)}
    if toolkit == "customMpi":
        return {"customMpiSettings": {"commandLine": "python3 %s %s" % (cell_py, argsline), "processCount": p}}
    return {"customToolkitSettings": {"commandLine": "python3 %s %s" % (cell_py, argsline)}}


def tf_servers():
    """Slurm runs as many tasks on every node: 2 parameter servers and 2 workers there (1 and
    2 are refused at submit, checked below), 1 and 2 elsewhere."""
    return 2 if args.kind == "slurm" else 1


def tasks_of(toolkit, nodes):
    """The tasks (their file names) the toolkit promises, in rank order."""
    if toolkit == "tensorFlow":
        return ["ps-%d" % i for i in range(tf_servers())] + ["wk-0", "wk-1"]
    if toolkit == "caffe2":
        return [str(i) for i in range(nodes)]
    if toolkit == "customToolkit":
        return ["head"]
    return [str(i) for i in range(processes(toolkit))]


cells = [(t, m) for t in TOOLKITS for m in MODES]
name_of = {(t, m): "%s-%s" % (t.lower(), m) for t, m in cells}
job_of = {c: (name_of[c] + "-1" if c[1] == "trial" else name_of[c]) for c in cells}
result = {}
t0 = {}

td("experiment", "create", "-n", EXP)
refusals = []
if args.kind == "slurm":
    # What Slurm cannot honour is refused at submit, naming the setting: 1 parameter server
    # and 2 workers are 3 tasks, which 2 nodes cannot run as many on each.
    path = os.path.join(args.work, "uneven.json")
    json.dump({"properties": {"nodeCount": 2, "stdOutErrPathPrefix": jobs_dir, "tensorFlowSettings": {
        "pythonScriptFilePath": cell_py, "workerCount": 2, "parameterServerCount": 1}}}, open(path, "w"))
    r = td("job", "create", "-e", EXP, "-n", "uneven", "-c", args.cluster, "-f", path, check=False)
    ok = r.returncode != 0 and "3 processes do not spread evenly over nodeCount 2" in r.stderr
    refusals.append(("tensorFlow 1 ps + 2 workers on 2 Slurm nodes refused at submit", ok, r.stderr.strip() or r.stdout.strip()))
for cell in cells:
    toolkit, mode = cell
    nodes = 1 if args.kind == "local" else args.nodes
    spec = {"properties": dict({"nodeCount": nodes, "stdOutErrPathPrefix": jobs_dir,
                                "outputDirectories": [{"id": "CELL", "pathPrefix": jobs_dir}]},
                               **settings(toolkit, mode))}
    path = os.path.join(args.work, name_of[cell] + ".json")
    json.dump(spec, open(path, "w"), indent=1)
    t0[cell] = time.time()
    try:
        if mode == "trial":
            td("sweep", "create", "-e", EXP, "-n", name_of[cell], "-c", args.cluster, "-f", path, "--param", "CELL=t1")
        else:
            extra = ["--max-retries", "1"] if mode == "retried" else []
            td("job", "create", "-e", EXP, "-n", name_of[cell], "-c", args.cluster, "-f", path, *extra)
    except Failure as e:
        result[cell] = ("FAIL", "submit: %s" % e)


def outputs_of(job_dir):
    return os.path.join(job_dir, "outputs")


def hosts_of(job, nodes):
    """The hosts a job was given, head first: the cluster's first `nodes` where it has no
    more; else (SSH: 4 nodes, so that two cells run side by side) those the scheduler chose,
    whose names are their host names."""
    if len(hosts) <= nodes:
        return hosts[:nodes]
    given = json.loads(td("job", "show", "-e", EXP, "-n", job, "--query", "nodes").stdout)
    if len(given) != nodes or len(set(given)) != nodes or not set(given) <= set(hosts):
        raise Failure("job %s was given nodes %s, not %d of %s" % (job, given, nodes, hosts))
    return given


def check(cell):
    toolkit, mode = cell
    job = job_of[cell]
    nodes = 1 if args.kind == "local" else args.nodes
    if mode == "trial":
        deadline = time.time() + 300
        while td("job", "show", "-e", EXP, "-n", job, check=False).returncode != 0:
            if time.time() > deadline:
                raise Failure("the sweep made no trial %s: %s" % (job, td("sweep", "show", "-e", EXP, "-n", name_of[cell], check=False).stdout))
            time.sleep(0.5)
    r = td("job", "wait", "-e", EXP, "-n", job, check=False, timeout=400)
    state = query(job, "executionState")
    job_dir = query(job, "jobDirectory")
    out = os.path.join(job_dir, "stdouterr")

    def logs():
        text = []
        for f in sorted(os.listdir(out)) if os.path.isdir(out) else []:
            if f.startswith(("stderr", "execution", "slurm-")):
                text.append("--- %s\n%s" % (f, open(os.path.join(out, f), errors="replace").read()[-1500:]))
        return "\n".join(text)
    if state != "succeeded":
        raise Failure("%s %s (job wait %d): %s" % (job, state, r.returncode, logs()))
    notes = []
    # The job folder the guide describes, on every cluster kind, and nothing half-written.
    for name in ("launch.sh", "hostfile", "exit_code", "tracking"):
        if not os.path.exists(os.path.join(job_dir, name)):
            raise Failure("the job folder has no %s: %s" % (name, sorted(os.listdir(job_dir))))
    tracking = open(os.path.join(job_dir, "tracking")).read().split()
    if tracking[:1] != (["slurm"] if args.kind == "slurm" else tracking[:1]) or not tracking:
        raise Failure("tracking says %s" % tracking)
    left = [f for f in os.listdir(job_dir) if f.endswith(".tmp")]
    if left:
        raise Failure("files left half-written in the job folder: %s" % left)
    if mode == "retried":
        attempt, code = query(job, "attempt"), query(job, "attempts[0].exitCode")
        if attempt != "2" or code != "137":
            raise Failure("attempt %s, attempt 1's exit code %s (expected 2 and 137)" % (attempt, code))
        notes.append("attempt 2 after 137")
    tasks = tasks_of(toolkit, nodes)
    reports = {}
    for task in tasks:
        f = os.path.join(outputs_of(job_dir), task + ".json")
        if not os.path.exists(f):
            raise Failure("task %s left no report (%s): %s" % (task, f, logs()))
        reports[task] = json.load(open(f))
    extra = sorted(set(f[:-5] for f in os.listdir(outputs_of(job_dir)) if f.endswith(".json")) - set(tasks))
    if extra:
        raise Failure("tasks %s ran besides the promised %s" % (extra, tasks))
    # Where they ran: a multi-node job on every node, tasks by the toolkit's rule.
    ran_on = sorted(set(rep["host"] for rep in reports.values()))
    given = hosts_of(job, nodes)
    if toolkit == "customToolkit":
        if ran_on != [given[0]]:
            raise Failure("the head node's command ran on %s, not %s" % (ran_on, given[0]))
    elif ran_on != sorted(given):
        raise Failure("ranks ran on %s, expected every node of %s" % (ran_on, given))
    # Each task's own output file.
    for task, rep in reports.items():
        name = "stdout.txt" if toolkit == "customToolkit" else "stdout-%s.txt" % task
        text = open(os.path.join(out, name), errors="replace").read() if os.path.exists(os.path.join(out, name)) else None
        if text is None:
            raise Failure("no %s: %s" % (name, sorted(os.listdir(out))))
        line = "cell %s rank %d of %d task %s on %s" % (toolkit, rep["rank"], rep["world"], task, rep["host"])
        if line not in text:
            raise Failure("%s lacks '%s': %s" % (name, line, text[:400]))
        if toolkit != "customToolkit" and any(" task %s on " % other in text for other in tasks if other != task):
            raise Failure("%s holds another task's lines: %s" % (name, text[:400]))
    # Cores: the ranks on one node share its CPUs.
    per_host = {}
    for rep in reports.values():
        per_host.setdefault(rep["host"], []).append(rep)
    for host, reps in per_host.items():
        threads = sum(r["threads"] for r in reps)
        # More ranks than CPUs (TensorFlow's 3 tasks on a 2-core node) run one thread each.
        if threads > max(reps[0]["cpu_count"], len(reps)):
            raise Failure("%d threads for %d CPUs on %s" % (threads, reps[0]["cpu_count"], host))
        if args.kind == "ssh" and len(reps) == 1 and len(reps[0]["cpus"]) != reps[0]["cpu_count"]:
            raise Failure("a rank alone on %s may use CPUs %s of %d (bound)" % (host, reps[0]["cpus"], reps[0]["cpu_count"]))
    notes.append("threads " + "+".join(str(r["threads"]) for r in reports.values()))
    # Metrics: every task's line stored as a series of its file.
    deadline = time.time() + 60
    while True:
        series = json.loads(td("job", "metrics", "-e", EXP, "-j", job, "--scalars", "-o", "json").stdout or "[]")
        stored = {s["file"].split("/")[-1]: s for s in series if s["name"] == "cell_rank"}
        missing = [t for t in tasks if ("stdout.txt" if toolkit == "customToolkit" else "stdout-%s.txt" % t) not in stored]
        if not missing:
            break
        if time.time() > deadline:
            raise Failure("no cell_rank series stored for tasks %s: %s" % (missing, series))
        time.sleep(0.5)
    for task in tasks:
        s = stored["stdout.txt" if toolkit == "customToolkit" else "stdout-%s.txt" % task]
        if s["points"] != 1 or float(s["last"]) != reports[task]["rank"]:
            raise Failure("task %s's series: %s" % (task, s))
    rv = [r["rendezvous"] for r in reports.values() if r["rendezvous"]]
    if rv:
        notes.append("rendezvous " + rv[0])
    return "%d task%s on %d node%s; %s" % (len(tasks), "" if len(tasks) == 1 else "s", len(ran_on),
                                           "" if len(ran_on) == 1 else "s", ", ".join(notes))


for cell in cells:
    if cell in result:
        continue
    try:
        text = check(cell)
        result[cell] = ("ok", "%s (%.0f s after submit)" % (text, time.time() - t0[cell]))
    except Failure as e:
        result[cell] = ("FAIL", str(e))
    except subprocess.TimeoutExpired as e:
        result[cell] = ("FAIL", "timed out: %s" % e)
    print("%-28s %-4s %s" % (name_of[cell], result[cell][0], result[cell][1][:3000]), flush=True)

# Bad input found before anything starts: an interpreter no node has fails the nodes'
# setup, the message naming each node and the setting (it failed as the job's exit code 127).
path = os.path.join(args.work, "nopython.json")
json.dump({"properties": {"nodeCount": 1 if args.kind == "local" else args.nodes, "stdOutErrPathPrefix": jobs_dir,
                          "pyTorchSettings": {"pythonScriptFilePath": cell_py, "pythonInterpreterPath": "/no/python3",
                                              "commandLineArgs": "pyTorch plain", "communicationBackend": "gloo",
                                              "processCount": 1 if args.kind == "local" else args.nodes}}}, open(path, "w"))
try:
    # Under load the node setup can fail before `job create` returns, which then reports
    # the job refused (exit 1): the job exists either way, and its error is what is judged.
    td("job", "create", "-e", EXP, "-n", "nopython", "-c", args.cluster, "-f", path, check=False)
    td("job", "wait", "-e", EXP, "-n", "nopython", check=False, timeout=300)
    code = query("nopython", "executionInfo.errors[0].code")
    err_file = os.path.join(query("nopython", "jobDirectory"), "stdouterr", "stderr.txt")
    said = open(err_file, errors="replace").read() if os.path.exists(err_file) else ""
    named = all("node %s" % h in said or args.kind != "ssh" for h in hosts_of("nopython", args.nodes)) and \
        "properties.pyTorchSettings.pythonInterpreterPath: /no/python3 is not there" in said
    refusals.append(("a pythonInterpreterPath no node has fails the node setup, naming node and setting",
                     code == "NodeSetupFailed" and named, "%s; %s" % (code, said.strip()[-400:])))
except Failure as e:
    refusals.append(("a pythonInterpreterPath no node has", False, str(e)))

lines = ["", "Launch matrix on a %s cluster (%d node%s for multi-node cells), %.0f s" %
         (args.kind, 1 if args.kind == "local" else args.nodes, "" if args.kind == "local" else "s", time.time() - started),
         "| toolkit | " + " | ".join(MODES) + " |", "|---|" + "---|" * len(MODES)]
for t in TOOLKITS:
    lines.append("| %s | %s |" % (t, " | ".join(result[(t, m)][0] for m in MODES)))
table = "\n".join(lines)
print(table)
if args.table:
    open(args.table, "w").write(table + "\n")
for what, ok, said in refusals:
    print("%s: %s (%s)" % (what, "ok" if ok else "FAIL", said))
failed = [c for c in cells if result[c][0] == "FAIL"] + [r for r in refusals if not r[1]]
for c in failed:
    if c in result:
        print("FAIL %s: %s" % (name_of[c], result[c][1][:3000]), file=sys.stderr)
sys.exit(1 if failed else 0)
