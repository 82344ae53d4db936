#!/usr/bin/env python3
"""The trainer's CPU step under each instruction set, against the FMA peak of that instruction
set and PyTorch, all in one run (issue #45).

oneDNN is limited with ONEDNN_MAX_CPU_ISA (AVX2, AVX512_CORE, ...), so one AVX-512 host measures
both; PyTorch 1.13 (Debian) gets the same limit for its bundled oneDNN. For each ISA and thread
count, interleaved over --reps rounds:
  * the FMA peak of that ISA and thread count (peak_flops.cpp, built here per ISA): the best
    wall-clock rate and the rate per CPU-second;
  * the trainer, 1 epoch of --steps steps (synthetic 32x32x3, batch 32, no augmentation, the
    PyTorch loop's work): images/s of the epoch; and its CPU time, from the difference of two
    runs (--steps and --short-steps), so start-up and evaluation cancel out;
  * PyTorch (bench_torch.py, NCHW), the same steps: images/s and CPU time of the timed steps.
Once per ISA and thread count, a run with ONEDNN_VERBOSE=1: per-primitive minimum/median times,
the implementation oneDNN chose, reorders per step (onednn_profile.py), and the trainer's own
--profile table (which also times what is not oneDNN: dropout, ReLU backward, RMSprop, ...).

On a machine shared with other work the wall-clock figures fall with the share of the cores the
run gets; the best of the rounds is reported and the figures per CPU-second (FLOPs / CPU time,
OMP_WAIT_POLICY=PASSIVE so a waiting thread sleeps instead of spinning) are the load-independent
comparison. With more than one thread, per-CPU-second figures do not see load imbalance
(a thread idle at a barrier costs no CPU time): at 1 thread they are exact.

A/B of the trainer in the same run: --variant NAME:VAR=VALUE[,VAR=VALUE...] (repeatable) adds a
trainer configuration measured in every round beside the default one, e.g.
  --variant onednn-bwdw:TRAINDESK_CONV_BWD_WEIGHTS=onednn   (oneDNN's backward-weights, not the own)
  --variant pinned:OMP_PROC_BIND=close,OMP_PLACES=cores      (OpenMP threads pinned to cores)

Usage: isa_bench.py --build DIR [--isa AVX2,AVX512_CORE] [--threads 1,2] [--reps 3] [--steps 100]
                    [--variant NAME:VAR=VALUE,...]
"""
import argparse
import json
import os
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import onednn_profile  # noqa: E402

PY = "/usr/bin/python3" if os.path.exists("/usr/bin/python3") else sys.executable
PEAK_FLAGS = {"AVX2": ["-mavx2", "-mfma"], "AVX2_VNNI": ["-mavx2", "-mfma"],
              "AVX512_CORE": ["-mavx512f", "-mfma"], "AVX512_CORE_VNNI": ["-mavx512f", "-mfma"],
              "AVX512_CORE_BF16": ["-mavx512f", "-mfma"]}
FLOPS_PER_IMAGE = 122.7e6  # training FLOPs of one 32x32x3 image (the trainer's flopsPerTrainStep / batch)


def env_for(isa, threads):
    e = dict(os.environ)
    e.update({"ONEDNN_MAX_CPU_ISA": isa, "DNNL_MAX_CPU_ISA": isa, "OMP_NUM_THREADS": str(threads),
              "OMP_WAIT_POLICY": "PASSIVE", "OMP_PROC_BIND": "false"})
    if isa.startswith("AVX2"):
        # PyTorch's dense layers go through BLAS (OpenBLAS on Debian): keep it to AVX2 as well.
        e["OPENBLAS_CORETYPE"] = "Haswell"
        e["ATEN_CPU_CAPABILITY"] = "avx2"
    e.pop("ONEDNN_VERBOSE", None)
    e.pop("DNNL_VERBOSE", None)
    return e


def run_timed(cmd, env):
    """Runs cmd; returns (stdout+stderr, CPU seconds of the child: user + system)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    p = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if p.returncode != 0:
        sys.exit(f"isa_bench: {' '.join(cmd)} failed (exit {p.returncode}):\n{p.stdout[-3000:]}")
    return p.stdout, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def build_peak(isa, work):
    exe = os.path.join(work, f"peak_{isa}")
    if not os.path.exists(exe):
        subprocess.run(["g++", "-O2", "-fopenmp", *PEAK_FLAGS[isa], os.path.join(HERE, "peak_flops.cpp"), "-o", exe],
                       check=True)
    return exe


def peak(isa, threads, work):
    out, _ = run_timed([build_peak(isa, work), "40000000", "3"], env_for(isa, threads))
    m = re.search(r": ([\d.]+) GFLOP/s on \d+ thread\(s\); ([\d.]+) GFLOP/s", out)
    return float(m.group(1)), float(m.group(2))


def trainer_cmd(a, threads, steps, work, extra=()):
    return [a.trainer, "--device", "cpu", "--synthetic-train", str(32 * steps), "--synthetic-test", "32",
            "--epochs", "1", "--no-augment", "--no-save", "--log-every", "1000000", "--seed", "1",
            "--dir", os.path.join(work, "out"), "--threads", str(threads),
            "--metrics-file", os.path.join(work, "m.jsonl"), *extra]


def trainer_run(a, isa, threads, work, extra_env=None):
    env = env_for(isa, threads)
    env.update(extra_env or {})
    _, cpu_short = run_timed(trainer_cmd(a, threads, a.short_steps, work), env)
    os.remove(os.path.join(work, "m.jsonl"))
    _, cpu_long = run_timed(trainer_cmd(a, threads, a.steps, work), env)
    recs = [json.loads(l) for l in open(os.path.join(work, "m.jsonl"))]
    os.remove(os.path.join(work, "m.jsonl"))
    ips = [r for r in recs if "images_per_sec" in r][-1]["images_per_sec"]
    cpu_per_step = (cpu_long - cpu_short) / (a.steps - a.short_steps)
    return ips, cpu_per_step


def torch_run(a, isa, threads):
    out, _ = run_timed([PY, os.path.join(HERE, "bench_torch.py"), "--threads", str(threads), "--steps",
                        str(a.steps), "--warmup", "10"], env_for(isa, threads))
    m = re.search(r": ([\d.]+) img/s", out)
    c = re.search(r"cpu ([\d.]+) ms/step", out)
    return float(m.group(1)), (float(c.group(1)) / 1e3 if c else 0.0)


def profile_run(a, isa, threads, work, peak_per_cpu, extra_env=None):
    env = env_for(isa, threads)
    env.update(extra_env or {})
    env["ONEDNN_VERBOSE"] = "1"
    out, _ = run_timed(trainer_cmd(a, threads, a.profile_steps, work, ["--profile"]), env)
    s = onednn_profile.summarise(onednn_profile.parse(out.splitlines()), peak_per_cpu, skip=2)
    prof = "\n".join(l for l in out.splitlines() if not l.startswith("onednn_verbose") and
                     l.startswith(("Per", "Least", "Whole", "  ")))
    return s, prof


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--build", default=os.path.join(HERE, "..", "..", "build"))
    p.add_argument("--isa", default="AVX2,AVX512_CORE")
    p.add_argument("--threads", default="1,2")
    p.add_argument("--reps", type=int, default=3)
    p.add_argument("--steps", type=int, default=100)
    p.add_argument("--short-steps", type=int, default=20)
    p.add_argument("--profile-steps", type=int, default=25)
    p.add_argument("--json", help="write all figures here")
    p.add_argument("--variant", action="append", default=[], metavar="NAME:VAR=VALUE,...",
                   help="another trainer configuration (environment) measured beside the default one")
    a = p.parse_args()
    variants = {"default": {}}
    for v in a.variant:
        name, _, assigns = v.partition(":")
        if not name or not assigns or any("=" not in x for x in assigns.split(",")):
            sys.exit(f"isa_bench: --variant {v!r}: expected NAME:VAR=VALUE[,VAR=VALUE...]")
        variants[name] = dict(x.split("=", 1) for x in assigns.split(","))
    a.trainer = next((c for c in (os.path.join(a.build, "bin", "traindesk-trainer"),
                                  os.path.join(a.build, "traindesk-trainer")) if os.access(c, os.X_OK)), None)
    if not a.trainer:
        sys.exit(f"isa_bench: no traindesk-trainer in {a.build}/bin or {a.build}")
    isas = a.isa.split(",")
    unknown = [i for i in isas if i not in PEAK_FLAGS]
    if unknown:
        sys.exit(f"isa_bench: --isa {','.join(unknown)}: not one of {', '.join(PEAK_FLAGS)}")
    threads = [int(t) for t in a.threads.split(",")]
    flags = set(open("/proc/cpuinfo").read().split())
    model = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), "?")
    print(f"== machine {time.strftime('%Y-%m-%dT%H:%MZ', time.gmtime())}: {model}, {os.cpu_count()} CPUs, "
          f"flags {' '.join(sorted(f for f in flags if f.startswith(('avx2', 'avx512f', 'avx512_vnni', 'avx_vnni', 'amx'))))}")
    print(f"   load average before: {open('/proc/loadavg').read().split()[:3]} (other work skews wall-clock figures)")
    work = tempfile.mkdtemp(prefix="isa_bench.")
    res = {}
    for isa in isas:
        for t in threads:
            for vname in variants:
                res[(isa, t, vname)] = {"peak_wall": [], "peak_cpu": [], "tr_ips": [], "tr_cpu": [], "pt_ips": [],
                                        "pt_cpu": []}
    for rep in range(a.reps):
        for isa in isas:
            for t in threads:
                # One peak and one PyTorch run per round, shared by the variants (same round, same load).
                pw, pc = peak(isa, t, work)
                pips, pcpu = torch_run(a, isa, t)
                # Alternate which variant goes first, so a load change within the round hits both.
                order = list(variants) if rep % 2 == 0 else list(reversed(variants))
                for vname in order:
                    r = res[(isa, t, vname)]
                    r["peak_wall"].append(pw)
                    r["peak_cpu"].append(pc)
                    r["pt_ips"].append(pips)
                    r["pt_cpu"].append(pcpu)
                    ips, cpu = trainer_run(a, isa, t, work, variants[vname])
                    r["tr_ips"].append(ips)
                    r["tr_cpu"].append(cpu)
                    print(f"   round {rep + 1} {isa} x{t} {vname}: peak {pw:.0f} (wall) / {pc:.0f} (per CPU-s) GFLOP/s; "
                          f"trainer {ips:.0f} img/s, {cpu * 1e3:.1f} CPU-ms/step; PyTorch {pips:.0f} img/s, "
                          f"{pcpu * 1e3:.1f} CPU-ms/step; load {open('/proc/loadavg').read().split()[0]}", flush=True)
    step_gflop = FLOPS_PER_IMAGE * 32 / 1e9
    summary = {}
    print(f"\n== summary (best of {a.reps} rounds; training work {step_gflop:.3f} GFLOP per step of 32 images)")
    # Wall-clock columns: what this run got of the machine (the peak's and the trainer's shares
    # differ under load, so no wall-clock percent of peak is printed). Per-CPU-second columns:
    # the comparison that holds on a shared machine.
    print(f"  {'ISA':<12} {'thr':>3} {'variant':<14} {'peak wall':>9} {'peak/CPU-s':>10} {'trainer img/s':>13} {'GFLOP/s':>8} "
          f"{'torch img/s':>11} {'ratio':>6} | {'tr GFLOP/CPU-s':>14} {'%peak':>6} {'torch':>6} {'ratio':>6}")
    for (isa, t, vname), r in res.items():
        pw, pc = max(r["peak_wall"]), max(r["peak_cpu"])
        tips, pips = max(r["tr_ips"]), max(r["pt_ips"])
        tgf = tips * FLOPS_PER_IMAGE / 1e9
        # Per CPU-second: FLOPs of a step / CPU seconds of a step, relative to the peak of t threads
        # per CPU-second of each (peak_cpu is already t x the per-thread rate).
        tcs = step_gflop / min(r["tr_cpu"]) if min(r["tr_cpu"]) > 0 else 0
        pcs = step_gflop / min(r["pt_cpu"]) if r["pt_cpu"] and min(r["pt_cpu"]) > 0 else 0
        per_thread_peak = pc / t
        row = {"peak_wall": pw, "peak_per_cpu": pc, "trainer_ips": tips, "trainer_gflops": tgf,
               "torch_ips": pips, "ratio": tips / pips,
               "trainer_gflop_per_cpu_s": tcs, "trainer_pct_peak_cpu": 100 * tcs / per_thread_peak,
               "torch_gflop_per_cpu_s": pcs, "ratio_cpu": tcs / pcs if pcs else 0, "raw": r}
        summary[f"{isa}x{t}:{vname}"] = row
        print(f"  {isa:<12} {t:>3} {vname:<14} {pw:>9.1f} {pc:>10.1f} {tips:>13.1f} {tgf:>8.1f} "
              f"{pips:>11.1f} {row['ratio']:>5.2f}x | {tcs:>14.1f} {row['trainer_pct_peak_cpu']:>5.1f}% {pcs:>6.1f} "
              f"{row['ratio_cpu']:>5.2f}x")
    print("  (peak/CPU-s: t threads' peak if they owned t cores; tr GFLOP/CPU-s: FLOPs per CPU-second of the "
          "trainer, %peak of one thread's peak per CPU-second)")
    for isa in isas:
        for t, vname in ((t, v) for t in threads for v in variants):
            pc = max(res[(isa, t, vname)]["peak_cpu"]) / t
            s, prof = profile_run(a, isa, t, work, pc * t, variants[vname])
            key = f"{isa}x{t}:{vname}"
            summary[key]["profile"] = {k: v for k, v in s.items() if k != "rows"}
            summary[key]["primitives"] = s["rows"]
            print(f"\n== {isa}, {t} thread(s), {vname}: oneDNN primitives (ONEDNN_VERBOSE=1, least wall time of one execution; "
                  f"%peak of {pc * t:.0f} GFLOP/s)")
            onednn_profile.print_table(s)
            est = step_gflop / (s["sum_min_ms"] * 1e-3)
            print(f"  oneDNN work at the minimum times: {s['step_gflop']:.3f} GFLOP in {s['sum_min_ms']:.2f} ms = "
                  f"{est:.1f} GFLOP/s ({100 * est / (pc * t):.1f}% of peak; the step outside oneDNN is in the "
                  f"table below)")
            print(prof)
    print(f"\n   load average after: {open('/proc/loadavg').read().split()[:3]}")
    if a.json:
        with open(a.json, "w") as f:
            json.dump(summary, f, indent=1)


if __name__ == "__main__":
    main()
