"""Small CIFAR-10 and CIFAR-100 sets written in each published form: the binary version's
records, the python version's pickles (protocol 2, as Python 2's cPickle wrote CIFAR's own,
or as Python 3's pickle writes protocol 2), unpacked in folders or packed as .tar.gz."""
import io
import os
import pickle
import pickletools
import struct
import tarfile

import numpy as np


class CifarSet:
    """Images as in the files (N, 3, 32, 32 uint8) and labels; `fine` and `coarse` for CIFAR-100."""

    def __init__(self, rng, hundred, train_files, per_file, n_test):
        self.hundred = hundred
        self.train_files = train_files
        self.per_file = per_file
        n = train_files * per_file
        self.train = rng.integers(0, 256, size=(n, 3, 32, 32), dtype=np.uint8)
        self.test = rng.integers(0, 256, size=(n_test, 3, 32, 32), dtype=np.uint8)
        classes = 100 if hundred else 10
        self.train_labels = rng.integers(0, classes, size=n, dtype=np.uint8)
        self.test_labels = rng.integers(0, classes, size=n_test, dtype=np.uint8)
        if hundred:  # CIFAR-100's 20 superclasses: any fixed map of the 100 classes
            self.coarse_of = rng.integers(0, 20, size=100, dtype=np.uint8)

    @classmethod
    def from_arrays(cls, train_hwc, train_labels, test_hwc, test_labels, train_files=5):
        """A CIFAR-10 set of given images (N, 32, 32, 3) and labels, split into train_files batches."""
        s = cls.__new__(cls)
        s.hundred = False
        s.train_files = train_files
        s.per_file = len(train_hwc) // train_files
        assert s.per_file * train_files == len(train_hwc)
        s.train = np.ascontiguousarray(train_hwc.transpose(0, 3, 1, 2))
        s.test = np.ascontiguousarray(test_hwc.transpose(0, 3, 1, 2))
        s.train_labels, s.test_labels = train_labels, test_labels
        return s

    def labels(self, split, coarse=False):
        lab = self.train_labels if split == "train" else self.test_labels
        return self.coarse_of[lab] if coarse else lab

    def images_hwc(self, split):
        return (self.train if split == "train" else self.test).transpose(0, 2, 3, 1)

    def files(self, python):
        """(file name, split, first image, image count) per published file."""
        ext = "" if python else ".bin"
        if self.hundred:
            return [("train" + ext, "train", 0, len(self.train)), ("test" + ext, "test", 0, len(self.test))]
        out = [(f"data_batch_{i + 1}{ext}", "train", i * self.per_file, self.per_file) for i in range(self.train_files)]
        return out + [("test_batch" + ext, "test", 0, len(self.test))]


class Py2StylePickler(pickle._Pickler):
    """Writes bytes and str as Python 2's cPickle wrote its str (SHORT_BINSTRING / BINSTRING),
    the opcodes of CIFAR's published python batches."""
    dispatch = dict(pickle._Pickler.dispatch)

    def save_py2_str(self, obj):
        b = obj.encode("ascii") if isinstance(obj, str) else obj
        if len(b) < 256:
            self.write(pickle.SHORT_BINSTRING + bytes([len(b)]) + b)
        else:
            self.write(pickle.BINSTRING + struct.pack("<i", len(b)) + b)
        self.memoize(obj)

    dispatch[bytes] = save_py2_str
    dispatch[str] = save_py2_str


PY2_OPCODES = {"BINSTRING", "SHORT_BINSTRING"}
PY3_OPCODES = {"BINUNICODE"}  # bytes as _codecs.encode(text, 'latin1')


def batch_pickle(s, name, split, first, count, style):
    imgs = (s.train if split == "train" else s.test)[first:first + count]
    d = {b"batch_label": f"{split} batch {name}".encode(), b"data": imgs.reshape(count, 3072),
         b"filenames": [f"img_{first + i}.png".encode() for i in range(count)]}
    if s.hundred:
        d[b"fine_labels"] = s.labels(split)[first:first + count].tolist()
        d[b"coarse_labels"] = s.labels(split, coarse=True)[first:first + count].tolist()
    else:
        d[b"labels"] = s.labels(split)[first:first + count].tolist()
    if style == "py2":
        buf = io.BytesIO()
        Py2StylePickler(buf, protocol=2).dump(d)
        data = buf.getvalue()
    else:
        data = pickle.dumps(d, protocol=2)
    # The file must be what it claims: protocol 2, the style's string opcodes, and it loads
    # back in Python (as CIFAR's readme says) to the same dict.
    ops = {op.name for op, _, _ in pickletools.genops(data)}
    assert data[:2] == b"\x80\x02", "not protocol 2"
    assert (PY2_OPCODES if style == "py2" else PY3_OPCODES) & ops and not \
        (PY3_OPCODES if style == "py2" else PY2_OPCODES) & ops, f"{style} pickle with opcodes {sorted(ops)}"
    back = pickle.loads(data, encoding="bytes")
    assert (back[b"data"] == d[b"data"]).all() and back[b"data"].dtype == np.uint8
    assert all(back[k] == d[k] for k in d if k != b"data")
    return data


def batch_binary(s, split, first, count):
    imgs = (s.train if split == "train" else s.test)[first:first + count].reshape(count, 3072)
    if s.hundred:
        labels = np.stack([s.labels(split, coarse=True), s.labels(split)], axis=1)[first:first + count]
    else:
        labels = s.labels(split)[first:first + count, None]
    return np.concatenate([labels, imgs], axis=1).tobytes()


def write_folder(s, folder, python, style="py2"):
    """The set's files in folder, as the archive unpacks them, plus the side files it has."""
    os.makedirs(folder, exist_ok=True)
    for name, split, first, count in s.files(python):
        data = batch_pickle(s, name, split, first, count, style) if python else batch_binary(s, split, first, count)
        with open(os.path.join(folder, name), "wb") as f:
            f.write(data)
    side = ("meta" if python else "fine_label_names.txt") if s.hundred else \
        ("batches.meta" if python else "batches.meta.txt")
    with open(os.path.join(folder, side), "wb") as f:
        f.write(b"side file the reader passes over\n")
    return folder


FOLDERS = {(False, False): "cifar-10-batches-bin", (False, True): "cifar-10-batches-py",
           (True, False): "cifar-100-binary", (True, True): "cifar-100-python"}
ARCHIVES = {(False, False): "cifar-10-binary.tar.gz", (False, True): "cifar-10-python.tar.gz",
            (True, False): "cifar-100-binary.tar.gz", (True, True): "cifar-100-python.tar.gz"}


def write_archive(s, path, python, scratch, style="py2", mode="w:gz", top=None, **tar_args):
    """The published archive: one top folder holding the files (and a folder entry)."""
    top = top or FOLDERS[(s.hundred, python)]
    src = write_folder(s, os.path.join(scratch, "folder"), python, style)
    with tarfile.open(path, mode, **tar_args) as tar:
        tar.add(src, arcname=top)
    return path
