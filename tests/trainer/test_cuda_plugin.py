"""The CUDA backend plugin loads and every symbol it needs (cuDNN, cuBLAS, NCCL, CUDA runtime)
resolves. Without an NVIDIA driver the trainer never loads it, so the test points the loader
at the toolkit's driver stub (libcuda.so from .../stubs, named libcuda.so.1): the plugin then
loads and reports the stub, which proves it is usable. Also: --device cuda without a GPU exits
1 naming the reason, --device auto falls back to the CPU and says so."""
import os

import tdtest as t

a = t.parse_args({"--cuda-stub": {"default": ""}})
T = a.trainer
count, info = t.gpu_info(T)
print("--gpu-info: " + info)
if count > 0:
    print("a GPU is usable: the plugin loaded")
    print("ok")
    raise SystemExit(0)
t.check("this build has no CUDA backend" not in info, "the plugin was built but the trainer says it was not")
env = None
if "no NVIDIA driver" in info:
    if not a.cuda_stub or not os.path.exists(a.cuda_stub):
        t.skip(f"no NVIDIA driver and no driver stub to load the plugin against ({a.cuda_stub or 'none found'})")
    stubdir = os.path.join(a.work, "stub")
    os.makedirs(stubdir, exist_ok=True)
    link = os.path.join(stubdir, "libcuda.so.1")
    if os.path.lexists(link):
        os.remove(link)
    os.symlink(a.cuda_stub, link)
    env = {"LD_LIBRARY_PATH": stubdir + ":" + os.environ.get("LD_LIBRARY_PATH", "")}
r = t.run([T, "--gpu-info"], expect_rc=1, env=env)
out = r.stdout.strip()
print("with the driver stub: " + out)
t.check("cannot load the CUDA backend" not in out and "was not found" not in out and "lacks" not in out,
        "the plugin did not load: " + out)
t.check("cudaGetDeviceCount" in out or "compute capability" in out, "no answer from the plugin: " + out)
r = t.run([T, "--device", "cuda", "--synthetic-train", "64", "--dir", a.work + "/o"], expect_rc=1, env=env)
t.check("--device cuda: no usable NVIDIA GPU: " in r.stderr, "unclear --device cuda error: " + r.stderr)
r = t.run([T, "--synthetic-train", "64", "--synthetic-test", "16", "--epochs", "1", "--no-save",
           "--dir", a.work + "/auto"], env=env)
t.check("device: auto -> cpu (" in r.stdout, "auto did not report the CPU fallback")
print("ok")
