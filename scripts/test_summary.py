#!/usr/bin/env python3
"""Prints which tests ctest skipped and why, from its JUnit report, and fails where CI
must not skip: on CI (CI=true) only the GPU tests (CI machines have no GPU) may skip, and the
container tests only where the fixture said the docker engine cannot start there (a CI
container without the privileges dockerd needs).
Also names the cases that Qt Test suites skipped inside a test ctest counts as passed
(an ordinary user's run of the SSH suites skips the cases that need root), and ends with what
each failed test said last: its failure lines and, where Qt's watchdog dumped the stacks of a
hung test function, each thread's frames, the main thread last (a CI log is often read from
its end, and a hang otherwise leaves only "Timeout").

test_summary.py JUNIT_XML
"""
import os
import re
import sys
import xml.etree.ElementTree as ET

# Tests CI may skip, and why that is fine there.
MAY_SKIP_IN_CI = {
    "trainer_gpu_train": "needs an NVIDIA GPU",
    "trainer_gpu_nccl": "needs an NVIDIA GPU",
    "trainer_gpu_nccl_2ranks": "needs two NVIDIA GPUs",
    "trainer_gpu_layers": "needs an NVIDIA GPU",
}
# Tests that need the tests' private docker engine (tests/container): a skip is fine only with
# the reason the fixture gives when dockerd cannot start on the machine.
ENGINE_CANNOT_START = "the docker engine cannot start"


def may_skip_in_ci(name, why):
    if name in MAY_SKIP_IN_CI:
        return True
    return ("docker" in name or "container" in name) and ENGINE_CANNOT_START in why
# "SKIP: why" (the shell tests), "SKIPPED: why", "SKIP   : Class::case() why" (Qt Test);
# a reason that starts with SKIP: again is read past it.
REASON = re.compile(r"(?:SKIP\s+:\s+\S+\(\)|SKIP(?:PED)?\s*(?:\(part\))?\s*:)(?:\s*SKIP:)*\s*(.*)")


def reason_of(case):
    text = "".join(e.text or "" for e in case.iter() if e.tag in ("system-out", "skipped"))
    for el in case.iter("skipped"):
        text += " " + (el.get("message") or "")
    for line in text.splitlines():
        m = REASON.search(line)
        if m and m.group(1).strip():
            return m.group(1).strip()
    return "no reason printed"


CASE_SKIP = re.compile(r"^SKIP   : \w+::(\w+)\(\)\s*(.*)$", re.M)


QT_FAILURE = re.compile(r"^(FAIL!|   Loc:|QFATAL|QWARN|Totals:|=== Received signal|.*Test function timed out)")
GDB_THREAD = re.compile(r"^Thread \d+ .*")
GDB_FRAME = re.compile(r"^#(\d+)\s+(?:0x[0-9a-f]+ in )?(.+?) \(.*?\)(?: (?:at|from) (\S+))?\s*$")
FRAMES_PER_THREAD = 14


def stack_summary(out):
    """Each dumped thread's header and first frames, as `#N function at file:line`, from the
    first dump only (Qt dumps again when its watchdog's abort raises SIGABRT)."""
    threads = []
    for line in out.split("=== End of stack trace ===")[0].splitlines():
        if GDB_THREAD.match(line) and "QtTest Watchdog" in line:
            threads.append([])  # the watchdog itself, dumping
        elif GDB_THREAD.match(line):
            threads.append([line[:120]])
        elif threads and threads[-1] and (m := GDB_FRAME.match(line)) and len(threads[-1]) <= FRAMES_PER_THREAD:
            threads[-1].append(f"  #{m.group(1)} {m.group(2)[:90]}" + (f" at {m.group(3)}" if m.group(3) else ""))
    # gdb lists the newest thread first; the main thread (Thread 1) goes last, nearest the log's end.
    threads = sorted((t for t in threads if t), key=lambda t: t[0].startswith("Thread 1 "))
    return [line for t in threads for line in t]


def failure_report(name, out):
    lines = out.splitlines()
    said = [line for line in lines if QT_FAILURE.match(line)][-20:] or lines[-15:]
    return [f"test summary: {name} failed; it said last:"] + ["  " + line[:200] for line in said + stack_summary(out)]


def failed_tests(tree):
    for case in tree.iter("testcase"):
        if case.get("status") == "fail" or case.find("failure") is not None:
            yield case.get("name"), "".join(e.text or "" for e in case.iter("system-out"))


def main():
    tree = ET.parse(sys.argv[1])
    skipped = []
    partly = []
    for case in tree.iter("testcase"):
        if case.get("status") == "notrun" or case.find("skipped") is not None:
            skipped.append((case.get("name"), reason_of(case)))
        elif case.get("status") == "run":
            out = "".join(e.text or "" for e in case.iter("system-out"))
            partly += [(case.get("name"), fn, why) for fn, why in CASE_SKIP.findall(out)]
    if partly:
        print(f"test summary: {len(partly)} case(s) skipped inside tests that passed:")
        for name, fn, why in partly:
            print(f"  {name} {fn}: {why or 'no reason printed'}")
    rc = 0
    if not skipped:
        print("test summary: no test was skipped")
    else:
        rc = report_skips(skipped)
    for name, out in failed_tests(tree):
        print("\n".join(failure_report(name, out)))
    return rc


def report_skips(skipped):
    print(f"test summary: {len(skipped)} skipped:")
    for name, why in skipped:
        print(f"  {name}: {why}")
    if os.environ.get("CI") == "true":
        bad = [name for name, why in skipped if not may_skip_in_ci(name, why)]
        if bad:
            print("test summary: CI must run these, but they were skipped: " + ", ".join(bad))
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
