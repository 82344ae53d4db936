"""NCCL all-reduce of the GPU backend (skipped without a GPU).

- One rank under mpirun with --force-nccl: the NCCL path (unique id from rank 0 over MPI,
  ncclSum and the 1/ranks scale inside the CUDA graph, overlapped or not with the backward pass) gives exactly the
  weights of a run without NCCL. (NCCL refuses two ranks on one GPU, so one rank is what a
  one-GPU machine can test.)
- With two or more GPUs: 2 ranks x batch 32 and 1 rank x batch 64 see the same images (same
  augmentation and dropout, keyed by position) and give the same averaged step-1 gradient."""
import os

import numpy as np

import tdtest as t

a = t.parse_args()
gpus = t.require_gpus(a.trainer)
common = ["--device", "cuda", "--synthetic-train", "1024", "--synthetic-test", "64", "--epochs", "1",
          "--max-steps", "20", "--seed", "13", "--deterministic", "--no-save"]


def weights(tag, launcher, extra):
    d = os.path.join(a.work, tag)
    r = t.run(launcher + [a.trainer] + common + extra + ["--dir", d, "--dump-weights", d + "/w.bin",
                                                         "--dump-grads", d + "/g.bin"], timeout=600)
    return r, t.read_f32(d + "/w.bin"), t.read_f32(d + "/g.bin")


_, w_plain, g_plain = weights("plain", [], [])
r, w_nccl, g_nccl = weights("nccl", t.mpi_cmd(a, 1), ["--force-nccl"])
t.check("NCCL all-reduce over 1 rank(s) (overlapped)" in r.stdout, "the NCCL path was not taken:\n" + r.stdout[:2000])
r2, w_nccl2, _ = weights("nccl-no-overlap", t.mpi_cmd(a, 1), ["--force-nccl", "--no-overlap"])
t.check("NCCL all-reduce over 1 rank(s)," in r2.stdout, "the non-overlapped NCCL path was not taken")
print(f"1-rank NCCL vs no NCCL: max |dw| {np.abs(w_nccl - w_plain).max():.3e}, "
      f"max |dg| {np.abs(g_nccl - g_plain).max():.3e}; not overlapped: {np.abs(w_nccl2 - w_plain).max():.3e}")
t.check(np.array_equal(g_nccl, g_plain), "the NCCL average over one rank changed the gradient")
t.check(np.array_equal(w_nccl, w_plain) and np.array_equal(w_nccl2, w_plain),
        "a run through NCCL ends with other weights than one without")

if gpus < 2:
    print(f"SKIPPED (part): 2-rank NCCL needs 2 GPUs, found {gpus} (NCCL refuses two ranks on one GPU)")
    print("ok")
    raise SystemExit(0)

grad_args = ["--max-steps", "1"]
_, _, g2 = weights("np2-b32", t.mpi_cmd(a, 2), grad_args + ["--batch-size", "32"])
_, _, g1 = weights("np1-b64", [], grad_args + ["--batch-size", "64"])
err = np.abs(g2 - g1).max() / np.abs(g1).max()
print(f"2 ranks x 32 vs 1 rank x 64 on the GPU: max diff / max |g| = {err:.2e}")
t.check(err < 5e-5, f"2-rank NCCL-averaged gradient differs from the 1-rank one: {err}")

# Per-rank records: each rank's own sums (added by the loss kernel before the all-reduce)
# average to the train record's values.
mfile = os.path.join(a.work, "ranks", "metrics.jsonl")
t.run(t.mpi_cmd(a, 2) + [a.trainer] + common + ["--log-every", "5", "--dir", os.path.join(a.work, "ranks"),
                                                 "--metrics-file", mfile], timeout=600)
recs = t.read_metrics(mfile)
train = [r for r in recs if r["kind"] == "train"]
ranks = [r for r in recs if r["kind"] == "rank"]
t.check(train and len(ranks) == 2 * len(train), f"{len(ranks)} rank records for {len(train)} train records")
for tr in train:
    mine = [r for r in ranks if r["global_step"] == tr["global_step"]]
    t.check(sorted(r["rank"] for r in mine) == [0, 1], f"ranks at step {tr['global_step']}: {mine}")
    t.check(abs(sum(r["loss"] for r in mine) / 2 - tr["loss"]) <= 1e-3 * max(1.0, abs(tr["loss"])),
            f"rank losses {mine} vs {tr}")
    t.check(abs(sum(r["acc"] for r in mine) / 2 - tr["acc"]) <= 1e-5, f"rank accuracies {mine} vs {tr}")
print("ok")
