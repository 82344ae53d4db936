# One rank of a launch-matrix cell (tests/launch_matrix/matrix.py): checks, from inside the
# job, what Batch AI promised the toolkit that started it, and leaves what it saw for the
# driver in $AZ_BATCHAI_OUTPUT_CELL/<task>.json. No framework: what a framework's launcher
# reads (its variables, a rendezvous address it connects to) is read here the same way.
#
#   cell.py TOOLKIT MODE [TRIAL]     MODE: plain | retried | trial
#
# Exits 1 naming the first broken promise (the driver shows this rank's stderr).
import json
import os
import socket
import sys
import time

toolkit, mode = sys.argv[1], sys.argv[2]
trial = sys.argv[3] if len(sys.argv) > 3 else None
env = os.environ
MPI_TOOLKITS = ("cntk", "caffe", "chainer", "horovod", "customMpi")


def broken(what):
    print("cell %s/%s: %s" % (toolkit, mode, what), file=sys.stderr, flush=True)
    sys.exit(1)


def need(name):
    value = env.get(name)
    if value is None or value == "":
        broken("$%s is not set" % name)
    return value


def need_dir(name):
    path = need(name)
    if not os.path.isdir(path):
        broken("$%s=%s is not a folder on %s" % (name, path, socket.gethostname()))
    return path


# -- who am I: rank, world size and the task's file name, as this toolkit tells them --------
checks = []
if toolkit in MPI_TOOLKITS:
    rank, world = int(need("OMPI_COMM_WORLD_RANK")), int(need("OMPI_COMM_WORLD_SIZE"))
    task = str(rank)
    checks.append("OMPI_COMM_WORLD_RANK/SIZE")
elif toolkit == "pyTorch":
    rank, world = int(need("RANK")), int(need("WORLD_SIZE"))
    task = str(rank)
    if need("AZ_BATCHAI_TASK_INDEX") != str(rank):
        broken("AZ_BATCHAI_TASK_INDEX %s is not RANK %d" % (env["AZ_BATCHAI_TASK_INDEX"], rank))
    need("LOCAL_RANK")
    if need("AZ_BATCHAI_PYTORCH_BACKEND") != "gloo":
        broken("AZ_BATCHAI_PYTORCH_BACKEND is %s, not gloo" % env["AZ_BATCHAI_PYTORCH_BACKEND"])
    init = "tcp://%s:%s" % (need("MASTER_ADDR"), need("MASTER_PORT"))
    if need("AZ_BATCHAI_PYTORCH_INIT_METHOD") != init:
        broken("AZ_BATCHAI_PYTORCH_INIT_METHOD %s is not %s" % (env["AZ_BATCHAI_PYTORCH_INIT_METHOD"], init))
    checks.append("RANK/WORLD_SIZE/LOCAL_RANK, AZ_BATCHAI_PYTORCH_BACKEND/INIT_METHOD = MASTER_ADDR:MASTER_PORT")
    # Across nodes gloo needs its interface (the nodes' names need not resolve): one that is
    # up on this rank's node with an IPv4 address, on every cluster kind (Slurm's too).
    if len(set(need("AZ_BATCHAI_WORKER_HOSTS").split(","))) > 1:
        ifname = need("GLOO_SOCKET_IFNAME")
        import subprocess
        shown = subprocess.run(["ip", "-o", "-4", "addr", "show", "dev", ifname], capture_output=True, text=True)
        if " inet " not in shown.stdout:
            broken("GLOO_SOCKET_IFNAME %s has no IPv4 address on %s: %s%s"
                   % (ifname, socket.gethostname(), shown.stdout, shown.stderr))
        checks.append("GLOO_SOCKET_IFNAME an interface with an address on the rank's node")
elif toolkit == "tensorFlow":
    config = json.loads(need("TF_CONFIG"))
    kind, index = config["task"]["type"], int(config["task"]["index"])
    cluster = config["cluster"]
    if need("AZ_BATCHAI_TASK_INDEX") != str(index):
        broken("AZ_BATCHAI_TASK_INDEX %s is not TF_CONFIG's index %d" % (env["AZ_BATCHAI_TASK_INDEX"], index))
    if need("AZ_BATCHAI_PS_HOSTS") != ",".join(cluster.get("ps", [])):
        broken("AZ_BATCHAI_PS_HOSTS %s is not TF_CONFIG's ps %s" % (env["AZ_BATCHAI_PS_HOSTS"], cluster.get("ps")))
    if need("AZ_BATCHAI_WORKER_HOSTS") != ",".join(cluster["worker"]):
        broken("AZ_BATCHAI_WORKER_HOSTS %s is not TF_CONFIG's worker %s" % (env["AZ_BATCHAI_WORKER_HOSTS"], cluster["worker"]))
    addresses = ["ps:%d" % i for i in range(len(cluster.get("ps", [])))] + \
                ["worker:%d" % i for i in range(len(cluster["worker"]))]
    world = len(addresses)
    rank = addresses.index("%s:%d" % (kind, index))
    task = ("ps-%d" if kind == "ps" else "wk-%d") % index
    checks.append("TF_CONFIG = AZ_BATCHAI_PS_HOSTS/WORKER_HOSTS, AZ_BATCHAI_TASK_INDEX")
elif toolkit == "caffe2":
    rank = int(need("AZ_BATCHAI_TASK_INDEX"))
    world = len(need("AZ_BATCHAI_WORKER_HOSTS").split(","))
    task = str(rank)
    checks.append("AZ_BATCHAI_TASK_INDEX (shard) of AZ_BATCHAI_WORKER_HOSTS")
elif toolkit == "customToolkit":
    rank, world, task = 0, 1, "head"
    hosts = [line.split()[0] for line in open(need("AZ_BATCHAI_MPI_HOST_FILE")) if line.strip()]
    if len(hosts) != len(need("AZ_BATCHAI_WORKER_HOSTS").split(",")):
        broken("the hostfile names %s, AZ_BATCHAI_WORKER_HOSTS %s" % (hosts, env["AZ_BATCHAI_WORKER_HOSTS"]))
    checks.append("hostfile lists every node")
else:
    broken("unknown toolkit")

# -- the variables every job has -------------------------------------------------------------
for name in ("AZ_BATCHAI_JOB_TEMP", "AZ_BATCHAI_SHARED_JOB_TEMP", "AZ_BATCHAI_STDOUTERR_DIR", "AZ_BATCHAI_OUTPUT_CELL"):
    need_dir(name)
if not os.path.isfile(need("AZ_BATCHAI_MPI_HOST_FILE")):
    broken("$AZ_BATCHAI_MPI_HOST_FILE %s is no file on %s" % (env["AZ_BATCHAI_MPI_HOST_FILE"], socket.gethostname()))
if need("AZ_BATCHAI_NUM_GPUS") != "0":
    broken("AZ_BATCHAI_NUM_GPUS is %s on a node without GPUs" % env["AZ_BATCHAI_NUM_GPUS"])
checks.append("AZ_BATCHAI_JOB_TEMP/SHARED_JOB_TEMP/STDOUTERR_DIR/OUTPUT_CELL folders, MPI_HOST_FILE, NUM_GPUS=0")
out = env["AZ_BATCHAI_OUTPUT_CELL"]
print("cell %s rank %d of %d task %s on %s" % (toolkit, rank, world, task, socket.gethostname()), flush=True)

# -- the mode ------------------------------------------------------------------------------
attempt = int(need("TRAINDESK_ATTEMPT"))
if mode == "retried":
    if attempt == 1:
        if rank == world - 1:
            # A file for the next attempt, then this rank is killed as by the OOM killer.
            open(os.path.join(out, "killed"), "w").write("rank %d of attempt 1\n" % rank)
            os.kill(os.getpid(), 9)
        time.sleep(120)  # the others wait to be ended with the job
        broken("attempt 1 was not ended after rank %d was killed" % (world - 1))
    prev = need_dir("AZ_BATCHAI_PREV_OUTPUT_CELL")
    if not os.path.exists(os.path.join(prev, "killed")):
        broken("attempt %d: $AZ_BATCHAI_PREV_OUTPUT_CELL=%s has no file 'killed' from attempt 1" % (attempt, prev))
    checks.append("TRAINDESK_ATTEMPT=2, AZ_BATCHAI_PREV_OUTPUT_CELL holds attempt 1's file")
elif mode == "trial":
    if trial != "t1":
        broken("the trial's PARAM_CELL reached the script as %r" % trial)
    checks.append("PARAM_CELL substituted")
elif attempt != 1:
    broken("a plain job in attempt %d" % attempt)

# -- the cores this rank may use -----------------------------------------------------------
cpus = sorted(os.sched_getaffinity(0))
# The head node's command is no rank: it gets the job's CPUs, and no thread count. A rank's
# OMP_NUM_THREADS is its share: of its node's cores (binding none), or in a Slurm allocation
# the CPUs Slurm gave each task (Open MPI's binding kept).
if toolkit == "customToolkit":
    threads = int(env.get("OMP_NUM_THREADS", len(cpus)))
else:
    threads = int(need("OMP_NUM_THREADS"))
if not 1 <= threads <= len(cpus):
    broken("OMP_NUM_THREADS %d, but the rank may use %d CPU(s) %s" % (threads, len(cpus), cpus))
checks.append("OMP_NUM_THREADS within the rank's CPUs")

# -- rendezvous: the toolkit's address resolves and connects from every rank -----------------
def serve(host, port, expected, publish=None):
    """Listens at host:port (0: any port, written to `publish`), until `expected` ranks said hello."""
    try:
        infos = socket.getaddrinfo(host, port, socket.AF_INET, socket.SOCK_STREAM)
    except OSError as e:
        broken("the rendezvous host %s does not resolve on %s: %s" % (host, socket.gethostname(), e))
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        s.bind(infos[0][4])
    except OSError as e:
        broken("rank %d cannot listen at the rendezvous %s:%d on %s: %s" % (rank, host, port, socket.gethostname(), e))
    s.listen(64)
    if publish:
        tmp = publish + ".tmp"
        open(tmp, "w").write(str(s.getsockname()[1]))
        os.rename(tmp, publish)
    s.settimeout(90)
    met = []
    for _ in range(expected):
        try:
            c, _ = s.accept()
        except socket.timeout:
            broken("rank %d at %s:%d met only %s" % (rank, host, port, met))
        c.settimeout(30)
        met.append(c.recv(64).decode())
        c.close()
    return met


def hello(host, port):
    deadline = time.time() + 90
    while True:
        try:
            c = socket.create_connection((host, port), timeout=10)
            c.sendall(("%s@%s" % (task, socket.gethostname())).encode())
            c.close()
            return
        except OSError as e:
            if time.time() > deadline:
                broken("rank %d on %s cannot connect to the rendezvous %s:%d: %s" % (rank, socket.gethostname(), host, port, e))
            time.sleep(0.1)


met = []
if toolkit == "tensorFlow":
    # Every task listens at its own TF_CONFIG address; every task says hello to every other.
    import threading
    hosts = cluster.get("ps", []) + cluster["worker"]
    mine = hosts[rank]
    got = []
    server = threading.Thread(target=lambda: got.extend(serve(mine.rsplit(":", 1)[0], int(mine.rsplit(":", 1)[1]), world - 1)))
    server.start()
    for i, address in enumerate(hosts):
        if i != rank:
            hello(address.rsplit(":", 1)[0], int(address.rsplit(":", 1)[1]))
    server.join()
    met = got
    rendezvous = mine
elif world > 1:
    if toolkit == "pyTorch":
        host, port, publish = env["MASTER_ADDR"], int(env["MASTER_PORT"]), None
    else:
        # MPI ranks and Caffe2 shards: rank 0's node is the hostfile's first, whose address is
        # AZ_BATCHAI_WORKER_HOSTS' first; the port is published through the shared job temp.
        host, port = need("AZ_BATCHAI_WORKER_HOSTS").split(",")[0], 0
        publish = os.path.join(env["AZ_BATCHAI_SHARED_JOB_TEMP"], "rendezvous-port")
    if rank == 0:
        met = serve(host, port, world - 1, publish)
    else:
        while publish and not os.path.exists(publish):
            time.sleep(0.05)
        hello(host, int(open(publish).read()) if publish else port)
    rendezvous = "%s:%d" % (host, port)
else:
    rendezvous = None
if rendezvous:
    checks.append("rendezvous %s resolves, listens and connects from every rank" % ("at each TF_CONFIG address" if toolkit == "tensorFlow" else "on rank 0's node"))

# -- a metric line the agent stores as a series of this task -----------------------------------
print("step=1 cell_rank=%d cell_world=%d" % (rank, world), flush=True)
json.dump({"toolkit": toolkit, "mode": mode, "rank": rank, "world": world, "task": task,
           "host": socket.gethostname(), "cpus": cpus, "threads": threads, "attempt": attempt,
           "cpu_count": os.cpu_count(), "rendezvous": rendezvous, "met": met, "checks": checks},
          open(os.path.join(out, "%s.json" % task), "w"))
