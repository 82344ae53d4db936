"""Bad flags and malformed data files give clear errors and the documented exit codes."""
import gzip
import os
import shutil
import struct

import tdtest as t

a = t.parse_args()
T = a.trainer


def expect(args, rc, *needles):
    r = t.run([T] + args, expect_rc=rc)
    for n in needles:
        t.check(n in r.stderr, f"{args}: stderr lacks {n!r}: {r.stderr!r}")
    return r


# --help
r = t.run([T, "--help"], expect_rc=0)
t.check("Usage:" in r.stdout and "--batch-size" in r.stdout, "--help prints no usage")

# Command-line errors: exit code 2, the flag named.
expect(["--bogus"], 2, "unknown flag '--bogus'")
expect(["--epochs", "zero"], 2, "--epochs", "'zero'")
expect(["--epochs", "0"], 2, "--epochs", "out of range")
expect(["--batch-size"], 2, "--batch-size", "missing value")
expect(["--lr", "-1"], 2, "--lr")
expect(["--format", "png"], 2, "--format", "cifar10|cifar100|idx|synthetic", "'png'")
expect(["--device", "tpu"], 2, "--device")
expect(["--gpu-kernels", "fast"], 2, "--gpu-kernels", "library|fused", "'fast'")
# --device cuda: a usage error in a build without the CUDA backend, a run-time error (1)
# naming the reason where the backend is built but no GPU is usable.
gpus, info = t.gpu_info(T)
if "this build has no CUDA backend" in info:
    expect(["--device", "cuda"], 2, "--device cuda: this build has no CUDA backend")
    r = t.run([T, "--synthetic-train", "64", "--synthetic-test", "16", "--epochs", "1", "--no-save",
               "--dir", a.work + "/auto"])
    t.check("device: auto -> cpu (this build has no CUDA backend" in r.stdout, "auto does not say it fell back")
elif gpus == 0:
    expect(["--device", "cuda", "--synthetic-train", "64", "--dir", a.work + "/o"], 1,
           "--device cuda: no usable NVIDIA GPU: ")
    r = t.run([T, "--synthetic-train", "64", "--synthetic-test", "16", "--epochs", "1", "--no-save",
               "--dir", a.work + "/auto"])
    t.check("device: auto -> cpu (" in r.stdout, "auto does not say it fell back to the CPU")
    print("--device cuda without a GPU: " + info)
else:
    print("a GPU is usable here: the no-GPU error paths are not exercised (" + info.splitlines()[0] + ")")
expect(["--synthetic-shape", "32x32"], 2, "--synthetic-shape")
expect(["--format", "idx"], 2, "--format idx needs --data")
expect(["--no-augment=1"], 2, "--no-augment", "takes no value")
expect(["--data", a.work + "/nothing-here"], 2, "--data")


# IDX files: write a small valid set, then break it in several ways.
def idx_images(n, h=12, w=12):
    return struct.pack(">IIII", 0x803, n, h, w) + bytes((i * 7) % 256 for i in range(n * h * w))


def idx_labels(n, bad_at=None):
    lab = bytearray(i % 10 for i in range(n))
    if bad_at is not None:
        lab[bad_at] = 17
    return struct.pack(">II", 0x801, n) + bytes(lab)


def make_set(d, train_img=None, train_lab=None, gz=False):
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    files = {
        "train-images-idx3-ubyte": train_img if train_img is not None else idx_images(64),
        "train-labels-idx1-ubyte": train_lab if train_lab is not None else idx_labels(64),
        "t10k-images-idx3-ubyte": idx_images(16),
        "t10k-labels-idx1-ubyte": idx_labels(16),
    }
    for name, data in files.items():
        if gz:
            with gzip.open(os.path.join(d, name + ".gz"), "wb") as f:
                f.write(data)
        else:
            with open(os.path.join(d, name), "wb") as f:
                f.write(data)
    return d


base = ["--format", "idx", "--epochs", "1", "--batch-size", "8", "--no-save", "--seed", "3"]
d = os.path.join(a.work, "idx")

# A valid set trains (sanity check that the errors below come from the damage).
make_set(d, gz=True)
t.run([T] + base + ["--data", d, "--dir", a.work + "/out-ok"], expect_rc=0)

# Truncated image file (plain): names the file and the offset where data ended.
full = idx_images(64)
make_set(d, train_img=full[: 16 + 1000])
expect(base + ["--data", d, "--dir", a.work + "/o"], 1, "train-images-idx3-ubyte", "truncated at offset 1016")

# Truncated gzip stream.
make_set(d, gz=True)
p = os.path.join(d, "train-images-idx3-ubyte.gz")
blob = open(p, "rb").read()
open(p, "wb").write(blob[: len(blob) // 2])
expect(base + ["--data", d, "--dir", a.work + "/o"], 1, "train-images-idx3-ubyte.gz", "offset")

# Bad magic number.
make_set(d, train_img=struct.pack(">I", 0x1234) + full[4:])
expect(base + ["--data", d, "--dir", a.work + "/o"], 1, "train-images-idx3-ubyte", "bad magic")

# Label out of range, at a known offset (8-byte header + index 5).
make_set(d, train_lab=idx_labels(64, bad_at=5))
expect(base + ["--data", d, "--dir", a.work + "/o"], 1, "train-labels-idx1-ubyte", "label 17 at offset 13")

# Label count that disagrees with the image count.
make_set(d, train_lab=idx_labels(63))
expect(base + ["--data", d, "--dir", a.work + "/o"], 1, "train-labels-idx1-ubyte", "63 labels")

# Missing file.
make_set(d)
os.remove(os.path.join(d, "t10k-labels-idx1-ubyte"))
expect(base + ["--data", d, "--dir", a.work + "/o"], 1, "t10k-labels-idx1-ubyte")

# CIFAR-10: a truncated batch file names the file and record offset.
c = os.path.join(a.work, "cifar")
shutil.rmtree(c, ignore_errors=True)
os.makedirs(c)
rec = bytes([3]) + bytes(3072)
for i in range(1, 6):
    open(os.path.join(c, f"data_batch_{i}.bin"), "wb").write(rec * 10000)
open(os.path.join(c, "test_batch.bin"), "wb").write(rec * 10000)
open(os.path.join(c, "data_batch_3.bin"), "wb").write(rec * 500 + rec[:100])
expect(["--format", "cifar10", "--data", c, "--epochs", "1", "--dir", a.work + "/o"], 1, "data_batch_3.bin",
       "truncated at offset 1536600", "from offset 1536500")

# Batch larger than the data set.
expect(["--synthetic-train", "16", "--batch-size", "32", "--dir", a.work + "/o"], 2, "--batch-size")
print("ok")
