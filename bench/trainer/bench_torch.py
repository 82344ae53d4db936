#!/usr/bin/env python3
"""PyTorch reference for the trainer benchmark: the same model (tutorial CNN with dropout),
batch, loss and optimizer (RMSprop rho 0.9, eps 1e-7, time-based lr decay) and thread count,
on in-memory random batches. Prints images/s of the timed steps."""
import argparse
import time

import torch
import torch.nn as nn

p = argparse.ArgumentParser()
p.add_argument("--threads", type=int, default=2)
p.add_argument("--batch", type=int, default=32)
p.add_argument("--steps", type=int, default=200)
p.add_argument("--warmup", type=int, default=20)
p.add_argument("--channels-last", action="store_true")
a = p.parse_args()

torch.set_num_threads(a.threads)
torch.manual_seed(0)
model = nn.Sequential(
    nn.Conv2d(3, 32, 3, padding=1), nn.ReLU(), nn.Conv2d(32, 32, 3), nn.ReLU(), nn.MaxPool2d(2), nn.Dropout(0.25),
    nn.Conv2d(32, 64, 3, padding=1), nn.ReLU(), nn.Conv2d(64, 64, 3), nn.ReLU(), nn.MaxPool2d(2), nn.Dropout(0.25),
    nn.Flatten(), nn.Linear(6 * 6 * 64, 512), nn.ReLU(), nn.Dropout(0.5), nn.Linear(512, 10))
fmt = torch.channels_last if a.channels_last else torch.contiguous_format
model = model.to(memory_format=fmt)
lr0, decay = 1e-4, 1e-6
opt = torch.optim.RMSprop(model.parameters(), lr=lr0, alpha=0.9, eps=1e-7)
loss_fn = nn.CrossEntropyLoss()
batches = [(torch.rand(a.batch, 3, 32, 32).contiguous(memory_format=fmt), torch.randint(0, 10, (a.batch,)))
           for _ in range(8)]
model.train()
it = 0


def step():
    global it
    x, y = batches[it % len(batches)]
    for g in opt.param_groups:
        g["lr"] = lr0 / (1 + decay * it)
    opt.zero_grad(set_to_none=True)
    loss = loss_fn(model(x), y)
    loss.backward()
    opt.step()
    it += 1
    return loss


for _ in range(a.warmup):
    step()
t0, c0 = time.perf_counter(), time.process_time()
for _ in range(a.steps):
    step()
secs = time.perf_counter() - t0
cpu = time.process_time() - c0  # all threads' CPU time: the load-independent cost of a step
print(f"torch {torch.__version__} threads={a.threads} batch={a.batch} "
      f"{'channels_last' if a.channels_last else 'NCHW'}: {a.steps * a.batch / secs:.1f} img/s "
      f"(cpu {cpu / a.steps * 1e3:.2f} ms/step)")
