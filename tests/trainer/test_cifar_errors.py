"""Bad CIFAR inputs end the trainer with a clear error (exit 1 for bad data, 2 for a --data
or flag that finds nothing) naming the file and what is wrong, never a crash: missing files,
truncated and corrupt archives, pickles with opcodes, callables or contents the reader does
not take, and labels out of range."""
import gzip
import io
import os
import pickle
import pickletools
import shutil
import tarfile

import numpy as np

import cifar_sets as cs
import tdtest as t

a = t.parse_args()
T = a.trainer
rng = np.random.default_rng(7)
work = os.path.join(a.work, "errors")
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)
ten = cs.CifarSet(rng, hundred=False, train_files=5, per_file=4, n_test=4)
n_case = 0


def expect(data, rc, *needles, extra=()):
    global n_case
    n_case += 1
    r = t.run([T, "--data", data, *extra, "--epochs", "1", "--batch-size", "4", "--no-save",
               "--dir", os.path.join(work, f"out{n_case}")], expect_rc=rc)
    for n in needles:
        t.check(n in r.stderr, f"--data {data}: stderr lacks {n!r}:\n{r.stderr}")
    print(f"ok: {needles[0] if needles else data}", flush=True)


def fresh(name, python=True, style="py2"):
    d = os.path.join(work, name)
    shutil.rmtree(d, ignore_errors=True)
    return cs.write_folder(ten, d, python, style)


def op_offset(data, name):
    return next(pos for op, _, pos in pickletools.genops(data) if op.name == name)


# Nothing there: the error lists every place and name it looked for.
empty = os.path.join(work, "empty")
os.makedirs(empty)
expect(empty, 2, f"--data {empty}: no data set found; looked for:", f"{empty}/data_batch_1.bin[.gz]",
       f"{empty}/cifar-10-batches-py/data_batch_1[.gz]", f"{empty}/cifar-100-python.tar.gz",
       f"{empty}/cifar-100-binary/train.bin[.gz]", f"{empty}/train-images-idx3-ubyte[.gz]")
expect(os.path.join(work, "nowhere"), 2, "nowhere: no such file or folder")
py = fresh("py")
expect(py, 2, f"--data {py}: no CIFAR-100 data set found", f"{py}/cifar-100-python/train[.gz]",
       extra=["--format", "cifar100"])

# Flags that do not fit the data.
expect(py, 2, "--label coarse: only CIFAR-100 has fine and coarse labels", "CIFAR-10 python version",
       extra=["--label", "coarse"])
r = t.run([T, "--label", "fine", "--epochs", "1", "--no-save", "--dir", os.path.join(work, "synth")], expect_rc=2)
t.check("--label fine: only CIFAR-100 has fine and coarse labels, not the synthetic data" in r.stderr, r.stderr)
r = t.run([T, "--label", "medium"], expect_rc=2)
t.check("--label: expected fine|coarse, got 'medium'" in r.stderr, r.stderr)

# A batch missing from a folder.
os.remove(os.path.join(py, "data_batch_4"))
expect(py, 1, f"{py}/data_batch_4: missing (the CIFAR-10 python version has data_batch_1..5 and test_batch")

# Pickles the reader refuses, each named with the opcode or call and its offset.
def batch(**change):
    d = {b"batch_label": b"training batch 2 of 5", b"data": ten.train[:4].reshape(4, 3072).copy(),
         b"labels": ten.labels("train")[:4].tolist(), b"filenames": [b"a.png"] * 4}
    d.update({k.encode(): v for k, v in change.items()})
    buf = io.BytesIO()
    cs.Py2StylePickler(buf, protocol=2).dump(d)
    return buf.getvalue()


def with_batch2(name, data):
    d = fresh(name)
    with open(os.path.join(d, "data_batch_2"), "wb") as f:
        f.write(data)
    return d, f"{d}/data_batch_2"


raw = batch(mean=0.5)  # a float: BINFLOAT, an opcode CIFAR's batches do not use
d, f = with_batch2("binfloat", raw)
expect(d, 1, f"{f}: pickle opcode 0x47 (BINFLOAT) is not one this reader takes",
       f"at offset {op_offset(raw, 'BINFLOAT')}")
raw = pickle.dumps({b"data": 1}, protocol=4)
d, f = with_batch2("protocol4", raw)
expect(d, 1, f"{f}: pickle protocol 4; CIFAR's batches are protocol 2", "at offset 0")
raw = batch()
stop = op_offset(raw, "STOP")
d, f = with_batch2("frame", raw[:stop] + b"\x95" + (1).to_bytes(8, "little") + raw[stop:])  # protocol 4's FRAME
expect(d, 1, f"{f}: pickle opcode 0x95 (FRAME) is not one", f"at offset {stop}")
raw = batch()
d, f = with_batch2("notanop", raw[:2] + b"\xff" + raw[2:])
expect(d, 1, f"{f}: pickle opcode 0xff (not an opcode)", "at offset 2")

marker = os.path.join(work, "reduce-ran")


class RunsACommand:
    def __reduce__(self):
        return (os.system, (f"touch {marker}",))


buf = io.BytesIO()
cs.Py2StylePickler(buf, protocol=2).dump({b"data": RunsACommand()})
raw = buf.getvalue()
d, f = with_batch2("reduce", raw)
expect(d, 1, f"{f}: REDUCE of posix system; the reader builds only numpy arrays", f"at offset {op_offset(raw, 'REDUCE')}")
t.check(not os.path.exists(marker), "the pickle's os.system call ran")

raw = batch()
cut = op_offset(raw, "BINSTRING") + 1000  # inside the pixel bytes
d, f = with_batch2("truncated", raw[:cut])
expect(d, 1, f"{f}: the pickle is truncated: BINSTRING needs 12288 bytes, {cut - op_offset(raw, 'BINSTRING') - 5} are left",
       f"at offset {op_offset(raw, 'BINSTRING')}")
d, f = with_batch2("trailing", batch() + b"\0")
expect(d, 1, f"{f}: 1 bytes of trailing data after STOP")
d, f = with_batch2("label10", batch(labels=[1, 2, 3, 10]))
expect(d, 1, f"{f}: b'labels'[3]", "is 10, not a label in [0, 10)")
d, f = with_batch2("fewlabels", batch(labels=[1, 2, 3]))
expect(d, 1, f"{f}: b'labels'", "is not a list of 4 labels, one per image")
d, f = with_batch2("shape", batch(data=ten.train[:4].reshape(4, 3, 1024)))
expect(d, 1, f"{f}: b'data'", "is not a uint8 array of shape (N, 3072)")
d, f = with_batch2("float", batch(data=ten.train[:4].reshape(4, 3072).astype(np.float32)))
expect(d, 1, f"{f}: a numpy dtype other than uint8")
raw = batch()
d, f = with_batch2("nolabels", raw.replace(b"\x06labels", b"\x06LABELS"))
expect(d, 1, f"{f}: the pickle's dict has no b'labels' (its keys: b'batch_label', b'data', b'LABELS', b'filenames')")
d, f = with_batch2("list", pickle.dumps([1, 2], protocol=2))
expect(d, 1, f"{f}: the pickle holds a list, not a dict")

# Binary records: a partial record, a label out of range (CIFAR-100's fine label).
b = fresh("bin", python=False)
with open(os.path.join(b, "test_batch.bin"), "ab") as fh:
    fh.write(b"\x01" * 10)
expect(b, 1, f"{b}/test_batch.bin: truncated at offset {4 * 3073 + 10}: the record from offset {4 * 3073} has 10 of 3073 bytes")
hundred = cs.CifarSet(rng, hundred=True, train_files=1, per_file=8, n_test=4)
hb = os.path.join(work, "c100", "cifar-100-binary")
cs.write_folder(hundred, hb, python=False)
recs = bytearray(open(os.path.join(hb, "train.bin"), "rb").read())
recs[3074 * 2 + 1] = 100
open(os.path.join(hb, "train.bin"), "wb").write(bytes(recs))
expect(os.path.dirname(hb), 1, f"{hb}/train.bin: fine label 100 at offset {3074 * 2 + 1} is not in [0, 100)")

# Archives: truncated, corrupt, not a tar, a member missing, no CIFAR inside.
arch = os.path.join(work, "arch")
os.makedirs(arch)
good = cs.write_archive(ten, os.path.join(arch, "good.tar.gz"), True, os.path.join(work, "s1"))
blob = open(good, "rb").read()
cut = os.path.join(arch, "cifar-10-python.tar.gz")
open(cut, "wb").write(blob[:len(blob) * 6 // 10])
expect(cut, 1, f"{cut}: truncated at offset", "while reading tar member cifar-10-batches-py/")
corrupt = os.path.join(arch, "corrupt.tar.gz")
bad = bytearray(blob)
bad[len(bad) // 2] ^= 0xff
open(corrupt, "wb").write(bytes(bad))
r = t.run([T, "--data", corrupt, "--epochs", "1", "--no-save", "--dir", os.path.join(work, "oc")], expect_rc=1)
t.check(f"{corrupt}: corrupt or truncated data" in r.stderr or f"{corrupt}: bad tar header checksum" in r.stderr,
        r.stderr)
nottar = os.path.join(arch, "nottar.tar.gz")
with gzip.open(nottar, "wb") as g:
    g.write(rng.integers(0, 256, 4096, dtype=np.uint8).tobytes())
expect(nottar, 1, f"{nottar}: bad tar header checksum at offset 0")
src = fresh("partial")
os.remove(os.path.join(src, "data_batch_3"))
partial = os.path.join(arch, "partial.tar.gz")
with tarfile.open(partial, "w:gz") as tar:
    tar.add(src, arcname="cifar-10-batches-py")
expect(partial, 1, f"{partial}: no member data_batch_3 (the CIFAR-10 python version has data_batch_1..5 and test_batch)")
other = os.path.join(arch, "other.tar.gz")
with tarfile.open(other, "w:gz") as tar:
    tar.add(__file__, arcname="scripts/test.py")
expect(other, 1, f"{other}: no CIFAR batch files in this archive", "its first members: scripts/test.py")
print("ok")
