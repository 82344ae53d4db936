"""CIFAR-10 and CIFAR-100 read alike from every published form: the binary and the python
version (pickles as CIFAR's own, written like Python 2's cPickle, and as Python 3 writes
protocol 2), unpacked in --data, in the folder the archive unpacks into, as the .tar.gz in
--data, or the archive given as --data. Each run's loaded sets (--dump-data) must equal the
images and labels the files were written from, the log must name the form found, and one
training step must give the same gradient from every form of the same set."""
import os
import shutil
import tarfile

import numpy as np

import cifar_sets as cs
import tdtest as t

a = t.parse_args()
rng = np.random.default_rng(20)
work = os.path.join(a.work, "forms")
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)
n_run = 0


def read_dump(path):
    """Both sets from --dump-data: per set int64 n, int32 h, w, c, classes, pixels, labels."""
    raw = open(path, "rb").read()
    out, at = [], 0
    for _ in range(2):
        n = int(np.frombuffer(raw, np.int64, 1, at)[0])
        h, w, c, k = (int(x) for x in np.frombuffer(raw, np.int32, 4, at + 8))
        at += 24
        px = np.frombuffer(raw, np.uint8, n * h * w * c, at).reshape(n, h, w, c)
        at += px.size
        lab = np.frombuffer(raw, np.uint8, n, at)
        at += n
        out.append((px, lab, k))
    t.check(at == len(raw), f"{path}: {len(raw) - at} bytes after the two sets")
    return out


def train_once(data, extra=()):
    """One deterministic step; returns (stdout, the loaded sets, the step's gradient)."""
    global n_run
    n_run += 1
    out = os.path.join(work, f"run{n_run}")
    r = t.run([a.trainer, "--data", data, *extra, "--epochs", "1", "--max-steps", "1", "--batch-size", "10",
               "--no-augment", "--no-dropout", "--deterministic", "--threads", "1", "--seed", "5", "--no-save",
               "--dir", out, "--dump-data", out + ".data", "--dump-grads", out + ".grads"])
    return r.stdout, read_dump(out + ".data"), open(out + ".grads", "rb").read()


def check_sets(what, loaded, s, coarse=False):
    classes = (20 if coarse else 100) if s.hundred else 10
    for (px, lab, k), split in zip(loaded, ("train", "test")):
        t.check(k == classes, f"{what}: {split} has {k} classes, expected {classes}")
        want = s.images_hwc(split)
        t.check(px.shape == want.shape, f"{what}: {split} images {px.shape}, expected {want.shape}")
        t.check((px == want).all(), f"{what}: {split} images differ from the files' (CHW -> HWC, order)")
        t.check((lab == s.labels(split, coarse)).all(), f"{what}: {split} labels differ from the files'")


def check_forms(s, forms, extra=(), coarse=False):
    grads = None
    for what, data, log_says in forms:
        out, loaded, g = train_once(data, extra)
        check_sets(what, loaded, s, coarse)
        t.check(log_says in out, f"{what}: the log does not say {log_says!r}:\n{out}")
        if grads is None:
            grads = g
        t.check(g == grads, f"{what}: the step-1 gradient differs from {forms[0][0]}'s")
        print(f"ok: {what}", flush=True)


# CIFAR-10: five training batches and a test batch, as published (smaller).
ten = cs.CifarSet(rng, hundred=False, train_files=5, per_file=8, n_test=12)
d = os.path.join(work, "c10")
flat_bin = cs.write_folder(ten, os.path.join(d, "flat-bin"), python=False)
flat_py3 = cs.write_folder(ten, os.path.join(d, "flat-py3"), python=True, style="py3")
in_sub = os.path.join(d, "unpacked")
cs.write_folder(ten, os.path.join(in_sub, "cifar-10-batches-py"), python=True, style="py2")
bin_sub = os.path.join(d, "unpacked-bin")
cs.write_folder(ten, os.path.join(bin_sub, "cifar-10-batches-bin"), python=False)
arch_dir = os.path.join(d, "archives")
os.makedirs(arch_dir)
py_tgz = cs.write_archive(ten, os.path.join(arch_dir, "cifar-10-python.tar.gz"), True, os.path.join(d, "s1"))
bin_dir = os.path.join(d, "bin-archive")
os.makedirs(bin_dir)
cs.write_archive(ten, os.path.join(bin_dir, "cifar-10-binary.tar.gz"), False, os.path.join(d, "s2"))
py3_tar = cs.write_archive(ten, os.path.join(d, "py3.tar"), True, os.path.join(d, "s3"), style="py3", mode="w")
# Names past ustar's 100 characters: a pax header (Python's default) or a GNU long-name entry.
long_top = "a-folder-name-long-enough-that-the-member-names-need-more-than-the-100-bytes-of-a-ustar-header"
pax_tgz = cs.write_archive(ten, os.path.join(d, "pax.tgz"), True, os.path.join(d, "s4"), top=long_top)
gnu_tgz = cs.write_archive(ten, os.path.join(d, "gnu.tgz"), False, os.path.join(d, "s5"), top="./" + long_top,
                           format=tarfile.GNU_FORMAT)
check_forms(ten, [
    ("binary, flat", flat_bin, f"CIFAR-10 binary version from folder {flat_bin}:"),
    ("python (Python 3 protocol 2), flat", flat_py3, f"CIFAR-10 python version from folder {flat_py3}:"),
    ("python (cPickle style), unpacked", in_sub, f"python version from folder {in_sub}/cifar-10-batches-py:"),
    ("binary, unpacked", bin_sub, f"binary version from folder {bin_sub}/cifar-10-batches-bin:"),
    ("python .tar.gz in --data", arch_dir, f"python version from archive {py_tgz}:"),
    ("python .tar.gz as --data", py_tgz, f"python version from archive {py_tgz}:"),
    ("binary .tar.gz in --data", bin_dir, f"binary version from archive {bin_dir}/cifar-10-binary.tar.gz:"),
    ("python plain .tar as --data", py3_tar, f"python version from archive {py3_tar}:"),
    ("python .tgz with pax long names", pax_tgz, f"python version from archive {pax_tgz}:"),
    ("binary .tgz with GNU long names, ./ paths", gnu_tgz, f"binary version from archive {gnu_tgz}:"),
])

# CIFAR-100: train and test files, fine and coarse labels.
hundred = cs.CifarSet(rng, hundred=True, train_files=1, per_file=50, n_test=15)
d = os.path.join(work, "c100")
c100_bin = os.path.join(d, "bin")
cs.write_folder(hundred, os.path.join(c100_bin, "cifar-100-binary"), python=False)
c100_py = cs.write_folder(hundred, os.path.join(d, "py"), python=True, style="py2")
c100_arch = os.path.join(d, "archives")
os.makedirs(c100_arch)
c100_tgz = cs.write_archive(hundred, os.path.join(c100_arch, "cifar-100-python.tar.gz"), True,
                            os.path.join(d, "s1"), style="py3")
c100_btgz = cs.write_archive(hundred, os.path.join(d, "cifar-100-binary.tar.gz"), False, os.path.join(d, "s2"))
for coarse in (False, True):
    check_forms(hundred, [
        ("CIFAR-100 binary, unpacked", c100_bin, f"CIFAR-100 binary version from folder {c100_bin}/cifar-100-binary:"),
        ("CIFAR-100 python, flat", c100_py, f"CIFAR-100 python version from folder {c100_py}:"),
        ("CIFAR-100 python .tar.gz in --data", c100_arch, f"from archive {c100_tgz}:"),
        ("CIFAR-100 binary .tar.gz as --data", c100_btgz, f"binary version from archive {c100_btgz}:"),
    ], extra=["--label", "coarse"] if coarse else [], coarse=coarse)
info = t.read_metrics(os.path.join(work, f"run{n_run}", "metrics.jsonl"))[0]
t.check(info["dataset"] == "cifar100-coarse" and info["train_size"] == 50, f"info: {info}")

# Several forms in one --data: unpacked before archives, CIFAR-10 before CIFAR-100 unless
# --format says otherwise, and the log names the others.
both = os.path.join(work, "both")
cs.write_folder(ten, os.path.join(both, "cifar-10-batches-py"), python=True)
shutil.copy(py_tgz, both)
shutil.copytree(os.path.join(c100_bin, "cifar-100-binary"), os.path.join(both, "cifar-100-binary"))
out, loaded, _ = train_once(both)
check_sets("mixed folder", loaded, ten)
t.check(f"CIFAR-10 python version from folder {both}/cifar-10-batches-py:" in out, out)
t.check(f"also found CIFAR-10 python version at {both}/cifar-10-python.tar.gz (not used)" in out, out)
t.check(f"also found CIFAR-100 binary version at {both}/cifar-100-binary (not used; --format cifar100" in out, out)
out, loaded, _ = train_once(both, ["--format", "cifar100", "--label", "fine"])
check_sets("mixed folder, --format cifar100", loaded, hundred)
t.check("CIFAR-100 binary version from folder" in out and "(fine labels)" in out, out)
print("ok")
