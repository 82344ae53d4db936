"""2 ranks x batch 32 and 1 rank x batch 64 see the same 64 images (same augmentation and
dropout masks, keyed by position in the epoch), so the first step's all-reduced, averaged
gradient must agree; 1 rank x batch 32 (half the images) must not."""
import os

import numpy as np

import tdtest as t

a = t.parse_args()
common = ["--synthetic-train", "512", "--synthetic-test", "64", "--epochs", "1", "--max-steps", "1", "--seed", "11",
          "--no-save", "--threads", "1"]


def grads(tag, launcher, batch):
    path = os.path.join(a.work, f"grads-{tag}.bin")
    if os.path.exists(path):
        os.remove(path)
    t.run(launcher + [a.trainer] + common + ["--batch-size", str(batch), "--dump-grads", path,
                                             "--dir", os.path.join(a.work, tag)])
    g = t.read_f32(path)
    t.check(g.size > 1000000 and np.isfinite(g).all() and np.abs(g).max() > 0, f"{tag}: implausible gradient dump")
    return g


g2 = grads("np2-b32", t.mpi_cmd(a, 2), 32)
g1 = grads("np1-b64", [], 64)
half = grads("np1-b32", [], 32)
scale = np.abs(g1).max()
err = np.abs(g2 - g1).max() / scale
other = np.abs(half - g1).max() / scale
print(f"2x32 vs 1x64: max diff / max |g| = {err:.2e}; 1x32 vs 1x64: {other:.2e}")
t.check(err < 5e-5, f"2-rank averaged gradient differs from the 1-rank one: {err}")
t.check(other > 1e-2, "a gradient over half the batch should differ clearly (is the check blind?)")
print("ok")
