"""GPU backend against the CPU backend on whole training runs (skipped without a GPU).

- The first 50 training steps (same seed, same augmented batches: the GPU assembles them
  bit for bit like the CPU batcher; dropout off, since the two backends' masks differ):
  step 1's loss within 1e-4 (relative), every step within 0.01 + 1% in FP32; with --tf32
  within 0.05 + 5%. The step-1 gradient within 1e-4 of the largest entry (FP32).
- Every GPU run starts with the self-check against the CPU backend (train/self_check.h):
  it must pass and cost under 2 s; --skip-gpu-check skips it.
- --gpu-kernels fused (its start-up self-check included) the same way, and within 1e-5 of the
  library path's step-1 gradient (only dense_2's products sum in another order); its losses
  within 0.01 + 1% of the library path's (a rounding difference of the size of the GPU-CPU
  one, 9.4e-7 on the step-1 gradient, grew to 5.8e-3 in the loss over 50 steps on an H100).
- The GPU run reports a CUDA graph and its kernels per step, writes the usual outputs,
  and in --deterministic mode a resumed run ends with exactly the uninterrupted weights."""
import os
import re
import shutil

import numpy as np

import tdtest as t

a = t.parse_args()
t.require_gpus(a.trainer)
T = a.trainer


def run(name, device, extra=()):
    d = os.path.join(a.work, name)
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    args = [T, "--device", device, "--synthetic-train", "2048", "--synthetic-test", "256", "--epochs", "1",
            "--max-steps", "50", "--log-every", "1", "--seed", "5", "--deterministic", "--no-dropout",
            "--threads", "2", "--no-save", "--dir", d, "--dump-grads", d + "/g1.bin"] + list(extra)
    r = t.run(args, timeout=600)
    recs = t.read_metrics(d + "/metrics.jsonl")
    losses = [x["loss"] for x in recs if x["kind"] == "train"]
    t.check(len(losses) == 50, f"{name}: {len(losses)} train records, expected 50")
    return r, recs, np.array(losses), t.read_f32(d + "/g1.bin")


_, _, cpu, g_cpu = run("cpu", "cpu")
r, recs, gpu, g_gpu = run("cuda", "cuda")
_, _, tf32, _ = run("cuda-tf32", "cuda", ["--tf32"])
r_fused, recs_fused, fused, g_fused = run("cuda-fused", "cuda", ["--gpu-kernels", "fused"])

info = recs[0]
t.check(info["device"] == "cuda" and "gpu" in info and info["tf32"] is False, f"info record: {info}")
t.check("CUDA graph: " in r.stdout and "kernels per step" in r.stdout, "no CUDA graph reported")
t.check("us/step" in r.stdout, "no GPU summary line")
print([l for l in r.stdout.splitlines() if "CUDA graph" in l or "us/step" in l])
m = re.search(r"GPU self-check passed: .* \(([0-9.]+) s\)", r.stdout)
t.check(m is not None, f"no passed GPU self-check in the log:\n{r.stdout[:2000]}")
t.check(float(m.group(1)) < 2.0, f"the GPU self-check took {m.group(1)} s, over its 2 s budget")
print(m.group(0))
t.check("device: auto -> cpu" not in r.stdout, "the GPU run fell back to the CPU")
skipped = t.run([T, "--device", "cuda", "--synthetic-train", "64", "--synthetic-test", "32", "--epochs", "1",
                 "--max-steps", "2", "--no-save", "--dir", os.path.join(a.work, "skip"), "--skip-gpu-check"], timeout=600)
t.check("GPU self-check skipped (--skip-gpu-check)" in skipped.stdout, "--skip-gpu-check not reported")

print("step  cpu loss   gpu loss   gpu-tf32 loss")
for i in (0, 1, 2, 9, 19, 29, 39, 49):
    print(f"{i + 1:4d}  {cpu[i]:.6f}  {gpu[i]:.6f}  {tf32[i]:.6f}")
d_fp32 = np.abs(gpu - cpu)
d_tf32 = np.abs(tf32 - cpu)
print(f"max |gpu - cpu| over 50 steps: FP32 {d_fp32.max():.2e}, TF32 {d_tf32.max():.2e}")
t.check(d_fp32[0] <= 1e-4 * cpu[0], f"step 1 loss: gpu {gpu[0]} vs cpu {cpu[0]}")
t.check((d_fp32 <= 0.01 + 0.01 * cpu).all(), f"FP32 losses diverge from the CPU's: {d_fp32.max()}")
t.check((d_tf32 <= 0.05 + 0.05 * cpu).all(), f"TF32 losses diverge from the CPU's: {d_tf32.max()}")
t.check(cpu[-10:].mean() < cpu[:10].mean(), "the CPU loss did not fall (is the comparison meaningful?)")

err = np.abs(g_gpu - g_cpu).max() / np.abs(g_cpu).max()
print(f"step-1 gradient: max |gpu - cpu| / max |cpu| = {err:.2e}")
t.check(err < 1e-4, f"step-1 gradient differs: {err}")

# --gpu-kernels fused: against the CPU as the library path, and against the library path.
t.check(recs_fused[0].get("gpu_kernels") == "fused" and info.get("gpu_kernels") == "library",
        f"info records name the kernel paths: {recs_fused[0].get('gpu_kernels')}, {info.get('gpu_kernels')}")
t.check(re.search(r"GPU self-check passed", r_fused.stdout) is not None, "fused: no passed GPU self-check")
print([l for l in r_fused.stdout.splitlines() if "CUDA graph" in l or "us/step" in l])
d_fused = np.abs(fused - cpu)
d_paths = np.abs(fused - gpu)
print(f"fused: max |fused - cpu| over 50 steps {d_fused.max():.2e}, max |fused - library| {d_paths.max():.2e}")
t.check((d_fused <= 0.01 + 0.01 * cpu).all(), f"fused losses diverge from the CPU's: {d_fused.max()}")
t.check((d_paths <= 0.01 + 0.01 * gpu).all(), f"fused losses diverge from the library path's: {d_paths.max()}")
err_fc = np.abs(g_fused - g_cpu).max() / np.abs(g_cpu).max()
err_fl = np.abs(g_fused - g_gpu).max() / np.abs(g_gpu).max()
print(f"fused step-1 gradient: vs cpu {err_fc:.2e}, vs library path {err_fl:.2e}")
t.check(err_fc < 1e-4 and err_fl < 1e-5, f"fused step-1 gradient differs: {err_fc} (cpu), {err_fl} (library)")

# Outputs and exact resume on the GPU (deterministic algorithms, deterministic kernels).
common = [T, "--device", "cuda", "--synthetic-train", "256", "--synthetic-test", "64", "--deterministic", "--seed",
          "21", "--log-every", "4"]
full = os.path.join(a.work, "full")
part = os.path.join(a.work, "part")
for d in (full, part):
    shutil.rmtree(d, ignore_errors=True)
t.run(common + ["--epochs", "2", "--dir", full, "--dump-weights", full + "/w.bin"], timeout=600)
for f in ("saved_models/keras_cifar10_trained_model.h5", "saved_models/model.onnx", "checkpoints/epoch-0002.ckpt"):
    t.check(os.path.exists(os.path.join(full, f)), f"GPU run: missing {f}")
t.run(common + ["--epochs", "1", "--dir", part], timeout=600)
r = t.run(common + ["--epochs", "2", "--resume", "--dir", part, "--dump-weights", part + "/w.bin"], timeout=600)
t.check("resuming from" in r.stdout, "GPU resume not reported")
d = np.abs(t.read_f32(full + "/w.bin") - t.read_f32(part + "/w.bin")).max()
print(f"max |resumed - uninterrupted| on the GPU: {d:.3e}")
t.check(d == 0.0, "a resumed GPU run does not reproduce the uninterrupted one")
print("ok")
