"""Two training steps of the trainer against PyTorch from the same weights and batch:
loss, gradients and RMSprop-updated weights agree within float32 tolerance."""
import json
import os
import subprocess

import numpy as np
import torch
import torch.nn.functional as F

import tdtest as t
from torch_model import TutorialCNN, flat_get

a = t.parse_args({"--step-dump": {"required": True}})
torch.set_num_threads(2)
torch.manual_seed(0)
for shape in ((32, 32, 3, 16), (28, 28, 1, 8)):
    out = os.path.join(a.work, "x".join(map(str, shape)))
    t.run([a.step_dump, out] + [str(v) for v in shape])
    meta = json.load(open(os.path.join(out, "meta.json")))
    B, H, W, C = meta["batch"], meta["h"], meta["w"], meta["c"]
    w0 = t.read_f32(os.path.join(out, "w0.bin"))
    x = torch.from_numpy(t.read_f32(os.path.join(out, "x.bin")).reshape(B, H, W, C))
    y = torch.from_numpy(np.fromfile(os.path.join(out, "y.bin"), dtype=np.int32).astype(np.int64))
    model = TutorialCNN(H, W, C, meta["classes"])
    model.load_keras(flat_get(w0, meta["params"]))
    # Keras RMSprop == torch RMSprop(alpha=rho, eps outside the sqrt), with lr decayed by hand.
    opt = torch.optim.RMSprop(model.parameters(), lr=meta["lr"], alpha=meta["rho"], eps=meta["epsilon"])
    for step in (1, 2):
        it = meta["iterations"] + step - 1
        lr = meta["lr"] / (1.0 + meta["decay"] * it)
        t.check(abs(lr - meta["lr_used"][step - 1]) < 1e-9 * lr, f"lr of step {step}: {meta['lr_used'][step-1]} vs {lr}")
        for g in opt.param_groups:
            g["lr"] = lr
        if step > 1:
            # Each step from the trainer's own weights: ill-conditioned entries of the previous
            # step (see below) must not leak into this comparison. Optimizer state is kept.
            model.load_keras(flat_get(t.read_f32(os.path.join(out, f"w{step-1}.bin")), meta["params"]))
        opt.zero_grad()
        loss = F.cross_entropy(model(x), y)
        loss.backward()
        t.check(abs(loss.item() - meta["loss"][step - 1]) < 2e-5 * max(1.0, loss.item()),
                f"{shape} step {step}: loss {meta['loss'][step-1]} vs torch {loss.item()}")
        if step == 1:
            g1 = flat_get(t.read_f32(os.path.join(out, "grad1.bin")), meta["params"])
            for layer, name, tg in model.keras_tensors("grad"):
                ours = g1(layer, name)
                err = np.abs(ours - tg).max() / max(np.abs(tg).max(), 1e-12)
                print(f"  {shape} grad {layer}/{name}: max rel err {err:.2e}")
                t.check(err < 1e-4, f"{shape} gradient of {layer}/{name} differs: {err}")
        grads_torch = {(l, n): g.copy() for l, n, g in model.keras_tensors("grad")}
        opt.step()
        wk = flat_get(t.read_f32(os.path.join(out, f"w{step}.bin")), meta["params"])
        for layer, name, tw in model.keras_tensors("param"):
            ours = wk(layer, name)
            diff = np.abs(ours - tw)
            g = np.abs(grads_torch[(layer, name)])
            # RMSprop's first steps move a weight by lr*g/(sqrt(a)+eps) ~ 3.2 lr whatever |g|,
            # so for |g| near eps the update amplifies float rounding of g enormously. Entries
            # with well-conditioned gradients must agree tightly; all must stay within the
            # largest possible step difference.
            well = g > 1e-3 * g.max()
            tight = diff[well].max() if well.any() else 0.0
            print(f"  {shape} step {step} {layer}/{name}: max abs diff {tight:.2e} (well-conditioned), "
                  f"{diff.max():.2e} (all)")
            t.check(tight <= 1e-3 * 3.2 * lr + 1e-6, f"{shape} step {step}: {layer}/{name} differs by {tight}")
            t.check(diff.max() <= 2 * 3.2 * lr * 1.01 + 1e-6, f"{shape} step {step}: {layer}/{name} far off")
            t.check(well.sum() >= 0.2 * max(1, (g > 0).sum()), f"{layer}/{name}: too few well-conditioned entries")
print("ok")
