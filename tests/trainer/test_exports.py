"""saved_models/: the Keras HDF5 file has the layout Keras loads and, read with h5py into
the equivalent PyTorch model, predicts what the trainer predicts; model.onnx passes
onnx.checker and, evaluated op by op, predicts the same."""
import json
import os
import shutil
import struct

import h5py
import numpy as np
import onnx
import onnx.numpy_helper
import torch
import torch.nn.functional as F

import tdtest as t
from torch_model import TutorialCNN

a = t.parse_args()
torch.set_num_threads(2)


def write_idx(d, rng):
    os.makedirs(d, exist_ok=True)
    for prefix, n in (("train", 320), ("t10k", 100)):
        imgs = rng.integers(0, 256, size=(n, 28, 28), dtype=np.uint8)
        labels = rng.integers(0, 10, size=n, dtype=np.uint8)
        open(f"{d}/{prefix}-images-idx3-ubyte", "wb").write(struct.pack(">IIII", 0x803, n, 28, 28) + imgs.tobytes())
        open(f"{d}/{prefix}-labels-idx1-ubyte", "wb").write(struct.pack(">II", 0x801, n) + labels.tobytes())


def check_h5(path, shape):
    f = h5py.File(path, "r")
    as_str = lambda v: v.decode() if isinstance(v, bytes) else str(v)
    t.check(as_str(f.attrs["keras_version"]).startswith("2."), "keras_version attr")
    t.check(as_str(f.attrs["backend"]) == "tensorflow", "backend attr")
    cfg = json.loads(as_str(f.attrs["model_config"]))
    t.check(cfg["class_name"] == "Sequential", "model_config is not a Sequential model")
    layers = cfg["config"]
    t.check([l["class_name"] for l in layers] == ["Conv2D", "Activation", "Conv2D", "Activation", "MaxPooling2D",
            "Dropout", "Conv2D", "Activation", "Conv2D", "Activation", "MaxPooling2D", "Dropout", "Flatten", "Dense",
            "Activation", "Dropout", "Dense", "Activation"], "layer classes")
    t.check(layers[0]["config"]["batch_input_shape"] == [None] + list(shape), "batch_input_shape")
    json.loads(as_str(f.attrs["training_config"]))
    mw = f["model_weights"]
    names = [as_str(n) for n in mw.attrs["layer_names"]]
    t.check(names == [l["config"]["name"] for l in layers], "layer_names differ from model_config")
    weights = {}
    for ln in names:
        wn = [as_str(n) for n in mw[ln].attrs["weight_names"]]
        for n in wn:
            weights[n] = np.array(mw[ln][n])
        t.check((len(wn) == 2) == (ln.startswith("conv2d") or ln.startswith("dense")), f"{ln}: weight_names {wn}")
    h, w, c = shape
    t.check(weights["conv2d_1/kernel:0"].shape == (3, 3, c, 32), "conv2d_1 kernel shape (HWIO)")
    t.check(weights["conv2d_4/kernel:0"].shape == (3, 3, 64, 64), "conv2d_4 kernel shape")
    ph, pw = ((h - 2) // 2 - 2) // 2, ((w - 2) // 2 - 2) // 2
    t.check(weights["dense_1/kernel:0"].shape == (ph * pw * 64, 512), "dense_1 kernel shape (in, out)")
    t.check(weights["dense_2/bias:0"].shape == (10,), "dense_2 bias shape")
    return weights


class OnnxRunner:
    """Evaluates the exported graph op by op with torch (the ops the exporter uses)."""

    def __init__(self, model):
        self.g = model.graph
        self.env = {i.name: torch.from_numpy(onnx.numpy_helper.to_array(i).copy()) for i in self.g.initializer}

    def __call__(self, x):
        env = dict(self.env)
        env[self.g.input[0].name] = x
        for n in self.g.node:
            at = {a.name: onnx.helper.get_attribute_value(a) for a in n.attribute}
            i = [env[k] for k in n.input]
            if n.op_type == "Transpose":
                y = i[0].permute(*at["perm"])
            elif n.op_type == "Conv":
                p = at["pads"]
                t.check(p[0] == p[2] and p[1] == p[3], "asymmetric pads")
                y = F.conv2d(i[0], i[1], i[2], stride=at["strides"], padding=(p[0], p[1]))
            elif n.op_type == "Relu":
                y = F.relu(i[0])
            elif n.op_type == "MaxPool":
                y = F.max_pool2d(i[0], at["kernel_shape"], at["strides"])
            elif n.op_type == "Flatten":
                y = i[0].reshape(i[0].shape[0], -1)
            elif n.op_type == "Gemm":
                y = i[0] @ i[1] + i[2]
            elif n.op_type == "Softmax":
                y = F.softmax(i[0], dim=at["axis"])
            else:
                t.fail(f"unexpected op {n.op_type}")
            env[n.output[0]] = y
        return env[self.g.output[0].name]


rng = np.random.default_rng(4)
idx_dir = os.path.join(a.work, "idx-data")
write_idx(idx_dir, rng)
# The Keras file is named after the set: CIFAR-10's recipe name for the synthetic set of its
# shape, the folder's for an IDX set ("idx-data" -> idx_data_trained_model.h5).
cases = [
    ("synthetic-32x32x3", ["--synthetic-train", "320", "--synthetic-test", "100"], (32, 32, 3),
     "keras_cifar10_trained_model.h5"),
    ("idx-28x28x1", ["--format", "idx", "--data", idx_dir], (28, 28, 1), "idx_data_trained_model.h5"),
]
for name, args, shape, h5_name in cases:
    out = os.path.join(a.work, name)
    shutil.rmtree(out, ignore_errors=True)
    t.run([a.trainer] + args + ["--epochs", "1", "--seed", "9", "--dir", out, "--dump-predictions",
                                out + "/pred.bin", "--dump-test-set", out + "/x.bin"])
    pred = t.read_f32(out + "/pred.bin").reshape(-1, 10)
    x = torch.from_numpy(t.read_f32(out + "/x.bin").reshape((-1,) + shape))
    t.check(np.allclose(pred.sum(1), 1, atol=1e-5) and pred.shape[0] == x.shape[0], "predictions are not softmax")

    weights = check_h5(out + "/saved_models/" + h5_name, shape)
    model = TutorialCNN(*shape)
    model.load_keras(lambda layer, n: weights[f"{layer}/{n}:0"])
    model.eval()
    with torch.no_grad():
        ref = F.softmax(model(x), dim=1).numpy()
    d_h5 = np.abs(ref - pred).max()

    om = onnx.load(out + "/saved_models/model.onnx")
    onnx.checker.check_model(om, full_check=True)
    inferred = onnx.shape_inference.infer_shapes(om, strict_mode=True)
    t.check(inferred.graph.output[0].type.tensor_type.shape.dim[1].dim_value == 10, "ONNX output shape")
    with torch.no_grad():
        d_onnx = np.abs(OnnxRunner(om)(x).numpy() - pred).max()
    print(f"{name}: max |h5 model - trainer| {d_h5:.2e}, max |onnx model - trainer| {d_onnx:.2e}")
    t.check(d_h5 < 1e-4, f"{name}: h5 predictions differ by {d_h5}")
    t.check(d_onnx < 1e-4, f"{name}: onnx predictions differ by {d_onnx}")
    t.check(np.abs(pred - 0.1).max() > 1e-3, "predictions are uniform: the check would be blind")
print("ok")
