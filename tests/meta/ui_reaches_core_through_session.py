#!/usr/bin/env python3
"""Fails where ui/ reaches core other than through session/ and core's value types.

docs/ARCHITECTURE.md: the GUI asks core for everything through session/ (Backend and its
workers, which own the database and the transports); from the other folders it may include
only headers that declare values and pure functions (no Store, no transport, no SQL, no
file or network I/O). Such headers are listed here by name: adding one is a decision, taken
with a look at what it declares. ui_reaches_core_through_session.py SOURCE_DIR
"""
import pathlib
import re
import sys

# Core headers outside session/ that the ui may include: values and pure functions.
VALUE_HEADERS = {
    "cluster/CreateClusterRequest.h",  # a cluster as asked for, before any check
    "cluster/NodeAddress.h",           # parses and prints user@host:port
    "cluster/NodeProbeResult.h",       # what a probe found, as values
    "common/CsvField.h",               # one CSV cell as text (quoting, formula guard)
    "common/DataPaths.h",              # where the data directory is
    "common/Result.h",                 # a value or an error
    "datasets/DataSetCatalogue.h",     # the published data sets, compiled in
    "datasets/DataSetMirror.h",        # a data set's mirror from the environment's variables
    "datasets/DataSetPresence.h",      # what a share holds of a data set, as a value
    "defaults/EmbeddedDefaults.h",     # the embedded templates' texts
    "jobspec/JobSpec.h",               # the job.json language: model, reader, writer
    "jobspec/JobSpecFields.h",         # the table of job.json fields
    "jobspec/JobSpecValidator.h",
    "jobspec/JsonLocator.h",
    "jobspec/RunParameters.h",
    "launch/JobSpecContext.h",         # what a spec is checked against, from a snapshot
    "metrics/MetricCsv.h",             # a metric record as a CSV row (text only)
    "metrics/MetricRecord.h",
    "metrics/ResumedAttempt.h",        # which records a retried job's next attempt replaces
    "metrics/RunSummary.h",
    "metrics/ScalarSeriesIndex.h",     # a job's named series among its records, as values
    "metrics/SystemSample.h",
    "metrics/TfEventsReader.h",        # decodes event-file bytes; names what an event file is
    "store/Entities.h",                # rows as values
    "store/Names.h",                   # the naming rule
    "store/RunNote.h",                 # a run's tags, note and colour, as a value
    "store/ReliabilityRecords.h",
    "sweeps/SweepRequest.h",
    "sweeps/SweepSummary.h",
    "sweeps/SweepTemplate.h",
    "transport/RemoteFileInfo.h",
    "transport/SshParameters.h",       # host, port, user, key file: what a login needs
}

INCLUDE = re.compile(r'^[ \t]*#[ \t]*include\s+"([^"]+)"', re.MULTILINE)


def main():
    root = pathlib.Path(sys.argv[1])
    ui, core = root / "ui", root / "core"
    problems = []
    for source in sorted(ui.rglob("*")):
        if source.suffix not in (".h", ".cpp"):
            continue
        text = source.read_text(encoding="utf-8", errors="replace")
        for match in INCLUDE.finditer(text):
            header = match.group(1)
            # The ui's own headers win (ui/common, ui/cluster, ... share names with core's).
            if (source.parent / header).exists() or (ui / header).exists() or not (core / header).exists():
                continue
            if header.startswith("session/") or header in VALUE_HEADERS:
                continue
            line = text.count("\n", 0, match.start()) + 1
            problems.append(f"{source.relative_to(root)}:{line}: includes core's {header}: ask "
                            f"session/ for it, or move the values it needs into a header of their own")
    for problem in problems:
        print("FAIL:", problem)
    print(f"{'FAIL' if problems else 'PASS'}: {len(problems)} ui include(s) of core past session/")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
