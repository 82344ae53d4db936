#!/usr/bin/env python3
"""PyTorch peer of the trainer's GPU benchmark (bench/trainer/run_gpu_bench.sh).

The same model (the tutorial CNN with its three dropouts), batch 32, cross-entropy, RMSprop
(rho 0.9, eps 1e-7, lr 1e-4 decayed per step as Keras does), the training set resident on
the GPU as uint8 (50,000 random 32x32x3 images): each step draws a random batch and converts
it to float on the GPU, without augmentation (less work per step than the trainer does).
cudnn.benchmark is on; TF32 is off unless --tf32. Prints one line: images/s and us/step of
the timed steps (CUDA-synchronised wall clock after warm-up)."""
import argparse
import time

import torch
import torch.nn as nn

p = argparse.ArgumentParser()
p.add_argument("--batch", type=int, default=32)
p.add_argument("--steps", type=int, default=3000)
p.add_argument("--warmup", type=int, default=300)
p.add_argument("--images", type=int, default=50000)
p.add_argument("--tf32", action="store_true")
p.add_argument("--channels-last", action="store_true")
p.add_argument("--compile", action="store_true", help="torch.compile(mode='reduce-overhead'): CUDA graphs")
a = p.parse_args()

if not torch.cuda.is_available():
    raise SystemExit("SKIPPED: PyTorch sees no CUDA GPU")
dev = torch.device("cuda")
torch.backends.cudnn.benchmark = True
torch.backends.cudnn.allow_tf32 = a.tf32
torch.backends.cuda.matmul.allow_tf32 = a.tf32
torch.manual_seed(0)
model = nn.Sequential(
    nn.Conv2d(3, 32, 3, padding=1), nn.ReLU(), nn.Conv2d(32, 32, 3), nn.ReLU(), nn.MaxPool2d(2), nn.Dropout(0.25),
    nn.Conv2d(32, 64, 3, padding=1), nn.ReLU(), nn.Conv2d(64, 64, 3), nn.ReLU(), nn.MaxPool2d(2), nn.Dropout(0.25),
    nn.Flatten(), nn.Linear(6 * 6 * 64, 512), nn.ReLU(), nn.Dropout(0.5), nn.Linear(512, 10)).to(dev)
fmt = torch.channels_last if a.channels_last else torch.contiguous_format
model = model.to(memory_format=fmt)
lr0, decay = 1e-4, 1e-6
opt = torch.optim.RMSprop(model.parameters(), lr=lr0, alpha=0.9, eps=1e-7)
loss_fn = nn.CrossEntropyLoss()
data = torch.randint(0, 256, (a.images, 32, 32, 3), dtype=torch.uint8, device=dev)
labels = torch.randint(0, 10, (a.images,), device=dev)


def fwd_loss(x, y):
    return loss_fn(model(x), y)


step_fn = torch.compile(fwd_loss, mode="reduce-overhead") if a.compile else fwd_loss
model.train()
it = 0


def step():
    global it
    idx = torch.randint(0, a.images, (a.batch,), device=dev)
    x = data[idx].permute(0, 3, 1, 2).float().div_(255.0).contiguous(memory_format=fmt)
    y = labels[idx]
    for g in opt.param_groups:
        g["lr"] = lr0 / (1 + decay * it)
    opt.zero_grad(set_to_none=True)
    loss = step_fn(x, y)
    loss.backward()
    opt.step()
    it += 1


for _ in range(a.warmup):
    step()
torch.cuda.synchronize()
t0 = time.perf_counter()
for _ in range(a.steps):
    step()
torch.cuda.synchronize()
secs = time.perf_counter() - t0
mode = ("compiled " if a.compile else "eager ") + ("TF32" if a.tf32 else "FP32") + (" channels_last" if a.channels_last else "")
print(f"torch {torch.__version__} {torch.cuda.get_device_name()} {mode}: {a.steps * a.batch / secs:.1f} img/s, "
      f"{secs / a.steps * 1e6:.1f} us/step")
