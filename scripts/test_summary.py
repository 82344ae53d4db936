#!/usr/bin/env python3
"""Prints which tests ctest skipped and why, from its JUnit report, and fails where CI
must not skip: on CI (CI=true) only the GPU tests (CI machines have no GPU) may skip, and the
container tests only where the fixture said the docker engine cannot start there (a CI
container without the privileges dockerd needs).
Also names the cases that Qt Test suites skipped inside a test ctest counts as passed
(an ordinary user's run of the SSH suites skips the cases that need root).

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
    if not skipped:
        print("test summary: no test was skipped")
        return 0
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
