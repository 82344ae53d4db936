#!/usr/bin/env python3
"""Prints the submit-to-first-record comparison of run_bench.sh and run_ssh_bench.sh.
   summary.py RUNS_LABEL HAND_LABEL "ms ms ..." "ms ms ..." (by hand, through the agent)"""
import statistics
import sys

runs_label, hand_label = sys.argv[1], sys.argv[2]
hand = [float(x) / 1000 for x in sys.argv[3].split()]
agent = [float(x) / 1000 for x in sys.argv[4].split()]
mh, ma = statistics.median(hand), statistics.median(agent)
print(f"runs: {len(hand)}{runs_label}")
print(f"{hand_label}: median {mh*1000:.0f} ms (min {min(hand)*1000:.0f}, max {max(hand)*1000:.0f})")
print(f"traindesk job create to first record in the store: median {ma*1000:.0f} ms (min {min(agent)*1000:.0f}, max {max(agent)*1000:.0f})")
print(f"overhead: {(ma-mh)*1000:.0f} ms; ratio {ma/mh:.2f}x")
