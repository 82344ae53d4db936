"""CIFAR-10 binary and gzipped IDX sets load with the right pixel order (CHW records to
NHWC), scaling and labels; --train-limit/--test-limit apply; --format is detected."""
import gzip
import os
import shutil
import struct

import numpy as np

import tdtest as t

a = t.parse_args()
rng = np.random.default_rng(1)

# CIFAR-10: 5 training batches and a test batch of 10000 records (label, R, G, B planes).
c = os.path.join(a.work, "cifar")
shutil.rmtree(c, ignore_errors=True)
os.makedirs(c)
test_imgs = rng.integers(0, 256, size=(10000, 3, 32, 32), dtype=np.uint8)  # CHW, as in the files
test_labels = rng.integers(0, 10, size=10000, dtype=np.uint8)
for i in range(1, 6):
    recs = np.zeros((10000, 3073), dtype=np.uint8)
    recs[:, 0] = (np.arange(10000) + i) % 10
    recs[:, 1:] = rng.integers(0, 256, size=(10000, 3072), dtype=np.uint8)
    recs.tofile(os.path.join(c, f"data_batch_{i}.bin"))
recs = np.concatenate([test_labels[:, None], test_imgs.reshape(10000, 3072)], axis=1)
recs.tofile(os.path.join(c, "test_batch.bin"))
out = os.path.join(a.work, "cifar-out")
r = t.run([a.trainer, "--data", c, "--epochs", "1", "--train-limit", "96", "--test-limit", "40", "--no-save",
           "--dir", out, "--dump-test-set", out + "/x.bin", "--dump-predictions", out + "/p.bin"])
x = t.read_f32(out + "/x.bin").reshape(40, 32, 32, 3)
want = test_imgs[:40].transpose(0, 2, 3, 1).astype(np.float32) / 255
t.check(np.abs(x - want).max() < 1e-6, "CIFAR-10 images not converted CHW -> HWC / 255")
info = t.read_metrics(out + "/metrics.jsonl")[0]
t.check(info["dataset"] == "cifar10" and info["train_size"] == 96 and info["test_size"] == 40, f"info: {info}")
t.check(info["input_shape"] == [32, 32, 3], "input shape")

# Gzipped IDX (Fashion-MNIST layout), format detected from the files.
d = os.path.join(a.work, "idx")
shutil.rmtree(d, ignore_errors=True)
os.makedirs(d)
imgs = {p: rng.integers(0, 256, size=(n, 28, 28), dtype=np.uint8) for p, n in (("train", 200), ("t10k", 50))}
labs = {p: rng.integers(0, 10, size=len(imgs[p]), dtype=np.uint8) for p in imgs}
for p in imgs:
    with gzip.open(f"{d}/{p}-images-idx3-ubyte.gz", "wb") as f:
        f.write(struct.pack(">IIII", 0x803, len(imgs[p]), 28, 28) + imgs[p].tobytes())
    with gzip.open(f"{d}/{p}-labels-idx1-ubyte.gz", "wb") as f:
        f.write(struct.pack(">II", 0x801, len(labs[p])) + labs[p].tobytes())
out = os.path.join(a.work, "idx-out")
t.run([a.trainer, "--data", d, "--epochs", "1", "--batch-size", "16", "--no-save", "--dir", out,
       "--dump-test-set", out + "/x.bin"])
x = t.read_f32(out + "/x.bin").reshape(50, 28, 28, 1)
t.check(np.abs(x[..., 0] - imgs["t10k"] / 255).max() < 1e-6, "IDX images not read in order / scaled")
info = t.read_metrics(out + "/metrics.jsonl")[0]
t.check(info["dataset"] == "idx" and info["train_size"] == 200 and info["input_shape"] == [28, 28, 1], f"{info}")

# Debian's Fashion-MNIST, when installed: a quick load-and-train smoke test.
fm = "/usr/share/datasets/fashion-mnist"
if os.path.exists(fm + "/train-images-idx3-ubyte.gz"):
    out = os.path.join(a.work, "fm-out")
    t.run([a.trainer, "--format", "idx", "--data", fm, "--epochs", "1", "--train-limit", "512", "--test-limit",
           "256", "--no-save", "--dir", out])
    info = t.read_metrics(out + "/metrics.jsonl")[0]
    t.check(info["train_size"] == 512 and info["test_size"] == 256, f"fashion-mnist info: {info}")
print("ok")
