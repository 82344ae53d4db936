"""The trainer learns from CIFAR-10 files: a learnable set (the trainer's own synthetic
images, taken with --dump-data) written as the python version's .tar.gz, the binary version
and the python version unpacked; one epoch from each: the loss falls, and all three runs
log the same losses."""
import os
import shutil

import numpy as np

import cifar_sets as cs
import tdtest as t

a = t.parse_args()
work = os.path.join(a.work, "trains")
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)

# The learnable set, as the trainer makes it.
dump = os.path.join(work, "synthetic.data")
t.run([a.trainer, "--format", "synthetic", "--synthetic-train", "2000", "--synthetic-test", "250", "--max-steps", "1",
       "--epochs", "1", "--no-save", "--dir", os.path.join(work, "synth"), "--dump-data", dump])
raw = open(dump, "rb").read()
sets, at = [], 0
for _ in range(2):
    n = int(np.frombuffer(raw, np.int64, 1, at)[0])
    h, w, c, k = (int(x) for x in np.frombuffer(raw, np.int32, 4, at + 8))
    t.check((h, w, c, k) == (32, 32, 3, 10), f"synthetic set of shape {(h, w, c)}, {k} classes")
    px = np.frombuffer(raw, np.uint8, n * 3072, at + 24).reshape(n, 32, 32, 3)
    sets += [px, np.frombuffer(raw, np.uint8, n, at + 24 + n * 3072)]
    at += 24 + n * 3073
s = cs.CifarSet.from_arrays(*sets)

tgz = cs.write_archive(s, os.path.join(work, "cifar-10-python.tar.gz"), True, os.path.join(work, "scratch"))
binary = cs.write_folder(s, os.path.join(work, "bin"), python=False)
python = cs.write_folder(s, os.path.join(work, "py"), python=True, style="py3")
losses = {}
for name, data in (("python .tar.gz", tgz), ("binary", binary), ("python", python)):
    out = os.path.join(work, name.replace(" ", "-"))
    t.run([a.trainer, "--data", data, "--epochs", "1", "--seed", "7", "--deterministic", "--threads", "2",
           "--log-every", "4", "--no-save", "--dir", out])
    recs = t.read_metrics(os.path.join(out, "metrics.jsonl"))
    t.check(recs[0]["dataset"] == "cifar10" and recs[0]["train_size"] == 2000, f"{name}: info {recs[0]}")
    train = [r["loss"] for r in recs if r["kind"] == "train"]
    val = [r for r in recs if r["kind"] == "val"][-1]
    print(f"{name}: loss {train[0]:.4f} -> {train[-1]:.4f}, val_acc {val['val_acc']:.3f}", flush=True)
    t.check(len(train) >= 10, f"{name}: only {len(train)} train records")
    t.check(train[0] > 2.0 and train[-1] < 0.85 * train[0], f"{name}: the loss did not fall: {train}")
    t.check(val["val_acc"] > 0.5, f"{name}: val_acc {val['val_acc']} (chance: 0.1)")
    losses[name] = train
t.check(losses["binary"] == losses["python .tar.gz"] == losses["python"], f"the forms trained differently: {losses}")
print("ok")
