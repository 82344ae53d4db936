"""--resume in --deterministic mode: a run interrupted after epoch 1 (cleanly, or killed in
the middle of epoch 2) and resumed ends with exactly the weights of an uninterrupted run."""
import os
import shutil

import numpy as np

import tdtest as t

a = t.parse_args()
common = [a.trainer, "--synthetic-train", "256", "--synthetic-test", "64", "--deterministic", "--seed", "21",
          "--threads", "2", "--log-every", "4"]
steps = 256 // 32


def fresh(name):
    d = os.path.join(a.work, name)
    shutil.rmtree(d, ignore_errors=True)
    return d


def weights(path):
    w = t.read_f32(path)
    t.check(w.size > 1000000 and np.isfinite(w).all(), f"{path}: implausible weights")
    return w


full = fresh("full")
t.run(common + ["--epochs", "3", "--dir", full, "--dump-weights", full + "/w.bin"])
w_full = weights(full + "/w.bin")

# Interrupted after epoch 1, resumed.
part = fresh("part")
t.run(common + ["--epochs", "1", "--dir", part])
t.check(os.path.exists(part + "/checkpoints/epoch-0001.ckpt"), "no checkpoint after epoch 1")
t.check(not [f for f in os.listdir(part + "/checkpoints") if ".tmp" in f], "temporary checkpoint file left behind")
r = t.run(common + ["--epochs", "3", "--resume", "--dir", part, "--dump-weights", part + "/w.bin"])
t.check("resuming from" in r.stdout and "epoch 1 done" in r.stdout, "resume not reported")
t.check("Epoch 1/3" not in r.stdout and "Epoch 2/3" in r.stdout, "resumed run did not start at epoch 2")
w_part = weights(part + "/w.bin")
d1 = np.abs(w_part - w_full).max()

# Stopped in the middle of epoch 2 (as if killed): resumes from the epoch-1 checkpoint.
mid = fresh("mid")
t.run(common + ["--epochs", "3", "--max-steps", str(steps + 3), "--dir", mid])
t.check(sorted(os.listdir(mid + "/checkpoints")) == ["epoch-0001.ckpt"], "unexpected checkpoints after a stop")
# Resumed without --seed: the checkpoint's seed must be picked up.
no_seed = [c for i, c in enumerate(common) if c != "--seed" and (i == 0 or common[i - 1] != "--seed")]
r = t.run(no_seed + ["--epochs", "3", "--resume", "--dir", mid, "--dump-weights", mid + "/w.bin"])
t.check("using the checkpoint's seed 21" in r.stdout, "checkpoint seed not adopted")
d2 = np.abs(weights(mid + "/w.bin") - w_full).max()

# Resume continues the metrics file; global steps carry on.
recs = t.read_metrics(part + "/metrics.jsonl")
gs = [r["global_step"] for r in recs if r["kind"] == "train"]
t.check(gs == sorted(gs) and gs[-1] == 3 * steps, f"global steps across the resume: {gs}")

# A different seed must give different weights (the comparison is not blind).
other = fresh("other")
t.run([c if c != "21" else "22" for c in common] + ["--epochs", "1", "--dir", other, "--dump-weights", other + "/w.bin"])
t.run(common + ["--epochs", "1", "--dir", fresh("one"), "--dump-weights", a.work + "/one/w.bin"])
d3 = np.abs(weights(other + "/w.bin") - weights(a.work + "/one/w.bin")).max()
print(f"max |resumed - uninterrupted|: after clean stop {d1:.3e}, after mid-epoch stop {d2:.3e}; other seed {d3:.3e}")
t.check(d1 == 0.0 and d2 == 0.0, "resumed run does not reproduce the uninterrupted one exactly")
t.check(d3 > 1e-4, "different seeds gave the same weights")

# A corrupt newest checkpoint (a disk that filled, a torn copy) is passed over, named with
# what is wrong, and the run resumes from the intact one before it (issue #38: it stopped).
ck = part + "/checkpoints/epoch-0003.ckpt"
blob = bytearray(open(ck, "rb").read())
blob[len(blob) // 2] ^= 0xFF
open(ck, "wb").write(bytes(blob))
r = t.run(common + ["--epochs", "4", "--resume", "--dir", part])
said = r.stdout + r.stderr
t.check("epoch-0003.ckpt" in said and "CRC" in said and "passed over" in said, f"damaged checkpoint not named: {said}")
t.check("resuming from" in said and "epoch-0002.ckpt" in said, f"not resumed from the intact older one: {said}")
# A TrainDesk job retried twice (#41): attempt 1 checkpoints epoch 1 and stops in epoch 2;
# attempt 2, in its own folder, resumes from attempt 1's (AZ_BATCHAI_PREV_OUTPUT_MODEL) and
# stops before it ends an epoch, having copied that checkpoint into its own folder
# (adoptCheckpoint); attempt 3 resumes from attempt 2's folder and ends with exactly the
# uninterrupted run's weights.
def attempt(n, out, prev, extra):
    env = {"TRAINDESK_ATTEMPT": str(n), "AZ_BATCHAI_OUTPUT_MODEL": out}
    if prev:
        env["AZ_BATCHAI_PREV_OUTPUT_MODEL"] = prev
    return t.run(common + ["--epochs", "3", "--dir", out] + extra, env=env)


a1, a2, a3 = fresh("attempt-1"), fresh("attempt-2"), fresh("attempt-3")
attempt(1, a1, None, ["--max-steps", str(steps + 3)])
t.check(sorted(os.listdir(a1 + "/checkpoints")) == ["epoch-0001.ckpt"], "attempt 1: unexpected checkpoints")
r = attempt(2, a2, a1, ["--max-steps", str(steps + 2)])
t.check("attempt 2 of a TrainDesk job: resuming from " + a1 + "/checkpoints" in r.stdout, f"attempt 2: {r.stdout}")
t.check(os.path.isdir(a2 + "/checkpoints") and sorted(os.listdir(a2 + "/checkpoints")) == ["epoch-0001.ckpt"],
        "attempt 2 ended before an epoch without adopting attempt 1's checkpoint")
r = attempt(3, a3, a2, ["--dump-weights", a3 + "/w.bin"])
t.check("attempt 3 of a TrainDesk job: resuming from " + a2 + "/checkpoints" in r.stdout, f"attempt 3: {r.stdout}")
d4 = np.abs(weights(a3 + "/w.bin") - w_full).max()
t.check(d4 == 0.0, f"three attempts do not reproduce the uninterrupted run: {d4:.3e}")
print("ok")
