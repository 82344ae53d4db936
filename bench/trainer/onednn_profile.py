#!/usr/bin/env python3
"""Per-primitive profile of the trainer's step from oneDNN 2.x's verbose log (ONEDNN_VERBOSE=1:
one `onednn_verbose,exec,...,time_ms` line per primitive execution).

The log is cut into steps at each execution of the first convolution's forward (ic3); a step
is a training step when it also ran a backward primitive (the evaluation's forward passes are
not). The first `--skip` training steps are warm-up and dropped. For every distinct primitive
(kind, implementation, propagation, layouts, problem) it reports executions per step, the
minimum and median time of one execution, its FLOPs and the GFLOP/s and percent of the given
peak at the minimum time. The minimum is the estimate that survives a machine shared with other
work: a 0.1-5 ms primitive often runs once without being descheduled, a 15 ms step rarely does.

Usage: onednn_profile.py LOG [--skip 2] [--peak GFLOPS] [--json OUT]
As a module: parse(lines) -> list of steps; summarise(steps, peak) -> dict.
"""
import argparse
import json
import re
import statistics
import sys

_CONV = re.compile(r"mb(\d+)_(?:g\d+)?ic(\d+)oc(\d+)_ih(\d+)oh(\d+)kh(\d+)\w*?_iw(\d+)ow(\d+)kw(\d+)")
_IP = re.compile(r"mb(\d+)ic(\d+)oc(\d+)")


def flops(kind, prop, problem):
    """FLOPs of one execution (2 per multiply-add; forward, backward-data and backward-weights
    of a convolution or inner product each do the same number of multiply-adds)."""
    if kind == "convolution":
        m = _CONV.search(problem)
        if not m:
            return 0.0
        mb, ic, oc, _ih, oh, kh, _iw, ow, kw = map(int, m.groups())
        return 2.0 * mb * ic * oc * oh * ow * kh * kw
    if kind == "inner_product":
        m = _IP.search(problem)
        if not m:
            return 0.0
        mb, ic, oc = map(int, m.groups())
        # ic may be the flattened c*h*w: "mb32ic64ih6iw6oc512" in some versions.
        hw = re.search(r"ih(\d+)iw(\d+)", problem)
        if hw:
            ic *= int(hw.group(1)) * int(hw.group(2))
        return 2.0 * mb * ic * oc
    return 0.0


def parse(lines):
    """Returns the training steps: each a list of (key, ms) with key = (kind, impl, prop, mds, problem)."""
    steps, cur = [], None
    for line in lines:
        if not line.startswith("onednn_verbose,exec,"):
            continue
        f = line.rstrip("\n").split(",")
        # exec,cpu,kind,impl,prop,mds,attrs,aux,problem,time
        if len(f) < 11:
            continue
        kind, impl, prop, mds, attrs, problem = f[3], f[4], f[5], f[6], f[7], f[9]
        try:
            ms = float(f[10])
        except ValueError:
            continue
        if kind == "convolution" and prop.startswith("forward") and re.search(r"_ic3oc|ic3oc", problem):
            cur = []
            steps.append(cur)
        if cur is None:
            continue  # initial weight reorders before the first step
        cur.append(((kind, impl, prop, mds + (" " + attrs if attrs else ""), problem), ms))
    return [s for s in steps if any(k[2].startswith("backward") for k, _ in s)]


def summarise(steps, peak_gflops=0.0, skip=2):
    steps = steps[skip:] if len(steps) > skip else steps
    n = len(steps)
    if n == 0:
        raise SystemExit("onednn_profile: no training step found in the log (was ONEDNN_VERBOSE=1 set?)")
    times, order = {}, []
    for s in steps:
        for key, ms in s:
            if key not in times:
                times[key] = []
                order.append(key)
            times[key].append(ms)
    rows = []
    for key in order:
        kind, impl, prop, mds, problem = key
        t = times[key]
        f = flops(kind, prop, problem)
        best = min(t)
        gf = f / (best * 1e-3) / 1e9 if best > 0 and f else 0.0
        rows.append({
            "kind": kind, "impl": impl, "prop": prop, "layouts": mds, "problem": problem,
            "per_step": len(t) / n, "min_ms": best, "median_ms": statistics.median(t),
            "gflop": f / 1e9, "gflops_at_min": gf,
            "pct_peak_at_min": 100.0 * gf / peak_gflops if peak_gflops and gf else 0.0,
            "ref": impl.startswith("ref") or "ref:" in impl,
        })
    sum_min = sum(r["min_ms"] * r["per_step"] for r in rows)
    sum_med = sum(r["median_ms"] * r["per_step"] for r in rows)
    step_flops = sum(r["gflop"] * r["per_step"] for r in rows)
    reorders = [r for r in rows if r["kind"] == "reorder"]
    return {
        "steps": n, "rows": rows,
        "sum_min_ms": sum_min, "sum_median_ms": sum_med, "step_gflop": step_flops,
        "reorders_per_step": sum(r["per_step"] for r in reorders),
        "reorder_min_ms": sum(r["min_ms"] * r["per_step"] for r in reorders),
        "ref_impls": sorted({r["impl"] for r in rows if r["ref"]}),
    }


def short_layouts(mds):
    """'src_f32::blocked:aBcd8b:f0 wei_f32::blocked:ABcd8b8a:f0 ...' -> 'src aBcd8b wei ABcd8b8a ...'"""
    out = []
    for tok in mds.split():
        m = re.match(r"(\w+?)_\w+?:p?:?\w*:(\w+):", tok)
        if m:
            out.append(f"{m.group(1)}:{m.group(2)}")
        elif tok.startswith("attr-post-ops:"):
            out.append("+" + tok.split(":", 1)[1].replace("eltwise_", ""))
    return " ".join(out)


def print_table(s, title="", out=sys.stdout):
    if title:
        print(title, file=out)
    print(f"  {s['steps']} steps; per step: sum of minimum primitive times {s['sum_min_ms']:.3f} ms, of medians "
          f"{s['sum_median_ms']:.3f} ms; {s['reorders_per_step']:.0f} reorders ({s['reorder_min_ms']:.3f} ms at "
          f"their minimum); oneDNN work {s['step_gflop']:.3f} GFLOP", file=out)
    if s["ref_impls"]:
        print(f"  FINDING: reference (unoptimised) implementations ran: {', '.join(s['ref_impls'])}", file=out)
    print(f"  {'primitive':<14} {'prop':<17} {'implementation':<24} {'n/step':>6} {'min ms':>8} {'med ms':>8} "
          f"{'GFLOP/s':>8} {'%peak':>6}  problem / layouts", file=out)
    for r in s["rows"]:
        print(f"  {r['kind']:<14} {r['prop']:<17} {r['impl']:<24} {r['per_step']:>6.2f} {r['min_ms']:>8.3f} "
              f"{r['median_ms']:>8.3f} {r['gflops_at_min']:>8.1f} {r['pct_peak_at_min']:>6.1f}  "
              f"{r['problem']}  {short_layouts(r['layouts'])}", file=out)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("log")
    p.add_argument("--skip", type=int, default=2, help="warm-up training steps to drop")
    p.add_argument("--peak", type=float, default=0.0, help="FMA peak in GFLOP/s for the %%peak column")
    p.add_argument("--json", help="also write the summary as JSON here")
    a = p.parse_args()
    with open(a.log, errors="replace") as f:
        s = summarise(parse(f), a.peak, a.skip)
    print_table(s)
    if a.json:
        with open(a.json, "w") as f:
            json.dump(s, f, indent=1)


if __name__ == "__main__":
    main()
