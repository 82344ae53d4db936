#!/usr/bin/env python3
"""Per-kernel durations from Nsight Compute's CSV (`ncu --csv --print-units base --metrics
gpu__time_duration.sum ...`), as a table for the GPU checks' log (issue #46).

Groups the profiled kernels by name (the CUDA graph's nodes with `--graph-profiling node`, each
step's copy of a node under the same name) and prints, longest first: launches, launches per
step (with --steps), median, minimum and total microseconds, and each kernel's share of the
total. The columns are found by their header names, so the CSV of any ncu version that has
"Kernel Name", "Metric Name" and "Metric Value" reads.

Usage: ncu_table.py CSV [--steps N] [--top 40]
"""
import argparse
import csv
import io
import statistics
import sys

METRIC = "gpu__time_duration.sum"
UNIT_TO_US = {"nsecond": 1e-3, "ns": 1e-3, "usecond": 1.0, "us": 1.0, "msecond": 1e3, "ms": 1e3, "second": 1e6,
              "s": 1e6}


def read_durations(text):
    """Returns [(kernel name, microseconds)] in launch order; raises ValueError on a CSV without the columns."""
    # ncu prints "==PROF==" lines and the application's own output before the CSV header.
    lines = text.splitlines()
    start = next((i for i, l in enumerate(lines) if l.startswith('"ID"') or l.startswith("ID,")), None)
    if start is None:
        raise ValueError("no ncu CSV header (a line starting with \"ID\") in the input")
    rows = list(csv.DictReader(io.StringIO("\n".join(lines[start:]))))
    need = {"Kernel Name", "Metric Name", "Metric Value"}
    if not rows or not need <= set(rows[0]):
        raise ValueError(f"ncu CSV lacks the columns {sorted(need)}")
    out = []
    for r in rows:
        if r["Metric Name"] != METRIC:
            continue
        try:
            v = float(r["Metric Value"].replace(",", ""))
        except ValueError:
            continue
        scale = UNIT_TO_US.get(r.get("Metric Unit", "nsecond").strip(), 1e-3)
        out.append((r["Kernel Name"], v * scale))
    return out


def table(durations, steps=0, top=40):
    by = {}
    for name, us in durations:
        by.setdefault(name, []).append(us)
    total = sum(us for _, us in durations)
    rows = sorted(by.items(), key=lambda kv: -sum(kv[1]))
    lines = [f"{len(durations)} kernel launches, {len(by)} distinct kernels, {total:.1f} us in all"
             + (f" ({total / steps:.1f} us and {len(durations) / steps:.1f} launches per step over {steps} steps)"
                if steps else "")]
    lines.append(f"  {'launches':>8} {'per step':>8} {'median us':>10} {'min us':>8} {'total us':>9} {'share':>6}  kernel")
    for name, t in rows[:top]:
        per = f"{len(t) / steps:.2f}" if steps else "-"
        lines.append(f"  {len(t):>8} {per:>8} {statistics.median(t):>10.2f} {min(t):>8.2f} {sum(t):>9.1f} "
                     f"{100 * sum(t) / total if total else 0:>5.1f}%  {name[:110]}")
    if len(rows) > top:
        rest = sum(sum(t) for _, t in rows[top:])
        lines.append(f"  ... {len(rows) - top} more kernels, {rest:.1f} us")
    return "\n".join(lines)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("csv")
    p.add_argument("--steps", type=int, default=0, help="training steps the profile covered (per-step columns)")
    p.add_argument("--top", type=int, default=40)
    a = p.parse_args()
    try:
        with open(a.csv, errors="replace") as f:
            d = read_durations(f.read())
    except (OSError, ValueError) as e:
        sys.exit(f"ncu_table: {a.csv}: {e}")
    if not d:
        sys.exit(f"ncu_table: {a.csv}: no {METRIC} values (did ncu profile any kernel?)")
    print(table(d, a.steps, a.top))


if __name__ == "__main__":
    main()
