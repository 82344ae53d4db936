"""The GPU backend's agreement and abort logic under 2-4 real MPI ranks without a GPU
(trainer_gpu_agreement: the CPU backend trains, a stand-in makes the GPU's decisions with
the backend's own code): one rank fails at set-up, cannot capture, fails in a step, or
goes silent; every rank must take the same course, or end within seconds with the right
message. (A rank failing at its checkpoint: trainer_mpi_abort.)"""
import time

import tdtest as t

a = t.parse_args({"--agreement": {"required": True}})


def run(np, scenario, rank, expect_rc, timeout=60, env=None):
    start = time.monotonic()
    r = t.run(t.mpi_cmd(a, np) + [a.agreement, scenario, str(rank)], expect_rc=expect_rc, timeout=timeout, env=env)
    took = time.monotonic() - start
    print(f"  {np} ranks, {scenario} on rank {rank}: rc {r.returncode} in {took:.1f}s")
    return r, took


def trained(r, np, layout, graph):
    for k in range(np):
        line = f"rank {k}: layout {layout}, graph {graph}, 3 steps, {np * 3 * 8} images"
        t.check(line in r.stdout, f"missing '{line}':\n{r.stdout}\n{r.stderr}")


for np in (2, 3, 4):
    last = np - 1
    r, _ = run(np, "ok", -1, 0)
    trained(r, np, "NHWC", "yes")

    r, _ = run(np, "setup-unsupported", last, 0)
    trained(r, np, "NCHW", "yes")
    t.check(f"NHWC convolutions unsupported on rank {last} of {np}" in r.stdout and "NOT_SUPPORTED_LAYOUT" in r.stdout,
            f"rank 0 does not say which rank could not use NHWC:\n{r.stdout}")

    r, took = run(np, "setup-memory", last, 1)
    t.check("layout" not in r.stdout, f"a rank trained although rank {last} failed at set-up:\n{r.stdout}")
    t.check(f"GPU set-up failed on rank {last} of {np}: cudaMalloc of 1073741824 bytes" in r.stderr
            and "GPU 0 (stand-in GPU" in r.stderr, f"the failing rank's error (size, GPU) is not reported:\n{r.stderr}")
    t.check(r.stderr.count("error:") == 1, f"only rank 0 should report the agreed error:\n{r.stderr}")
    t.check(took < 30, f"took {took:.1f}s")

    r, _ = run(np, "capture", 0, 0)
    trained(r, np, "NHWC", "no")
    t.check(f"CUDA graph capture failed on rank 0 of {np}" in r.stdout, f"no word of the failed capture:\n{r.stdout}")

    r, took = run(np, "step", last, None)
    t.check(r.returncode != 0, "exit 0 although a rank failed in its step")
    t.check(f"[rank {last}]: error: CUDA call failed: cudaGraphLaunch" in r.stderr, f"the failing rank's message is missing:\n{r.stderr}")
    t.check("layout" not in r.stdout, f"a rank finished training:\n{r.stdout}")
    t.check(took < 30, f"took {took:.1f}s to end after one rank failed")

    r, took = run(np, "silent", last, None, env={"TRAINDESK_PEER_TIMEOUT": "2"})
    t.check(r.returncode != 0, "exit 0 although a rank went silent")
    t.check(f"silent rank(s): {last} " in r.stderr and "no progress for 2 s" in r.stderr,
            f"the waiting ranks do not name rank {last}:\n{r.stderr}")
    t.check(took < 40, f"took {took:.1f}s to end after one rank went silent")
print("ok")
