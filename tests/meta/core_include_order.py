#!/usr/bin/env python3
"""Fails on an include between core's folders that points against the folder order.

docs/ARCHITECTURE.md sets the order (a folder may include from folders below it, never
from one above or beside it unless listed here). core_include_order.py SOURCE_DIR
"""
import pathlib
import re
import sys

# Each folder with the folders it may include from (besides itself). The order, bottom up:
# common; store, transport; metrics; cluster; shares; datasets; jobspec; launch; jobs;
# sweeps; agent, defaults; session.
ALLOWED = {
    "common": set(),
    "store": {"common"},
    "transport": {"common"},
    "metrics": {"common", "store", "transport"},
    "cluster": {"common", "store", "transport", "metrics"},
    "shares": {"common", "store", "transport", "metrics", "cluster"},
    "datasets": {"common", "store", "transport", "metrics", "cluster", "shares"},
    "jobspec": {"common", "store"},
    "launch": {"common", "store", "transport", "metrics", "cluster", "shares", "jobspec"},
    "jobs": {"common", "store", "transport", "metrics", "cluster", "shares", "datasets",
             "jobspec", "launch"},
}
ALLOWED["sweeps"] = ALLOWED["jobs"] | {"jobs"}
ALLOWED["agent"] = ALLOWED["sweeps"] | {"sweeps"}
ALLOWED["defaults"] = ALLOWED["jobs"] | {"jobs"}
ALLOWED["session"] = ALLOWED["agent"] | {"agent", "defaults"}

INCLUDE = re.compile(r'^\s*#\s*include\s+"([a-z]+)/[^"]+"', re.MULTILINE)


def main():
    core = pathlib.Path(sys.argv[1]) / "core"
    problems = []
    folders = sorted(p.name for p in core.iterdir() if p.is_dir())
    for folder in folders:
        if folder not in ALLOWED:
            problems.append(f"core/{folder}: a folder the order does not know; add it to "
                            f"tests/meta/core_include_order.py and docs/ARCHITECTURE.md")
            continue
        for source in sorted((core / folder).rglob("*")):
            if source.suffix not in (".h", ".cpp"):
                continue
            text = source.read_text(encoding="utf-8", errors="replace")
            for match in INCLUDE.finditer(text):
                target = match.group(1)
                if target == folder or target not in folders:
                    continue
                if target not in ALLOWED[folder]:
                    line = text.count("\n", 0, match.start()) + 1
                    problems.append(f"{source.relative_to(core.parent)}:{line}: includes "
                                    f"{target}/, which is not below {folder}/")
    for problem in problems:
        print("FAIL:", problem)
    print(f"{'FAIL' if problems else 'PASS'}: {len(problems)} include(s) against the order")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
