#!/usr/bin/env python3
"""Writes the man pages from the programs' own --help texts, so they never drift.

make_manpages.py TRAINDESK TRAINER VERSION OUTDIR

One page for traindesk, one per command group (traindesk-job.1 lists every `job ...`
command with its options) and one for traindesk-trainer. Pages are gzipped with a fixed
mtime (reproducible, as Debian policy asks).
"""
import gzip
import os
import re
import subprocess
import sys
import tempfile

DATE = "2026-11-23"
OPTION = re.compile(r"^ {2,4}(-\S.*?)(?: {2,}(\S.*))?$")


def help_text(argv):
    # A throw-away data directory: --help must never touch the user's state.
    env = dict(os.environ, TRAINDESK_HOME=tempfile.mkdtemp(prefix="td-man-"), QT_QPA_PLATFORM="offscreen")
    out = subprocess.run(argv + ["--help"], capture_output=True, text=True, env=env)
    if out.returncode != 0:
        sys.exit(f"make_manpages: '{' '.join(argv)} --help' exited {out.returncode}: {out.stderr.strip()}")
    return out.stdout


def esc(text):
    text = text.replace("\\", "\\e")
    return re.sub(r"^([.'])", r"\\&\1", text).replace("-", "\\-")


def options_to_roff(lines):
    """Turns an option block ('  -n, --name <NAME>   What it is.') into .TP entries."""
    roff, pending = [], None
    for line in lines:
        m = OPTION.match(line)
        if m:
            if pending:
                roff += pending
            pending = [".TP", "\\fB" + esc(m.group(1).strip()) + "\\fR", esc(m.group(2) or "")]
        elif line.strip() and pending:
            pending[-1] = (pending[-1] + " " + esc(line.strip())).strip()
        elif line.strip():
            roff.append(".PP")
            roff.append(esc(line.strip()))
    if pending:
        roff += pending
    return roff


def sections(text):
    """Splits a help text at its unindented 'Heading:' lines."""
    out, name = [("", [])], ""
    for line in text.splitlines():
        if re.match(r"^[A-Z][A-Za-z ]*:$", line):
            out.append((line[:-1], []))
        else:
            out[-1][1].append(line)
    return out


def commands(top_help):
    """The 'Commands:' table of traindesk --help as (command, description) pairs."""
    result, inside = [], False
    for line in top_help.splitlines():
        if line.startswith("Commands:"):
            inside = True
            continue
        if inside:
            m = re.match(r"^  (\S+(?: \S+)*?)  +(\S.*)$", line)
            if m:
                result.append((m.group(1), m.group(2)))
            elif not line.strip():
                inside = False
    return result


def header(name, summary, version):
    return [f'.TH {name.upper()} 1 "{DATE}" "TrainDesk {version}" "TrainDesk Manual"',
            ".SH NAME", f"{esc(name)} \\- {esc(summary)}"]


def write(outdir, name, lines):
    data = ("\n".join(lines) + "\n").encode()
    with open(os.path.join(outdir, name + ".1.gz"), "wb") as f:
        with gzip.GzipFile(filename="", mode="wb", fileobj=f, mtime=0, compresslevel=9) as gz:
            gz.write(data)


def group_page(traindesk, group, cmds, version):
    page = header(f"traindesk-{group}", f"the traindesk {group} commands", version)
    page += [".SH SYNOPSIS"]
    for cmd, _ in cmds:
        page += [".PP", f"\\fBtraindesk {esc(cmd)}\\fR [\\fIOPTIONS\\fR]"]
    page += [".SH COMMANDS"]
    for cmd, summary in cmds:
        page += [".SS " + esc("traindesk " + cmd), esc(summary)]
        for title, body in sections(help_text([traindesk] + cmd.split())):
            if title == "Options" or title == "Arguments":
                page += options_to_roff(body)
    page += [".SH SEE ALSO", "\\fBtraindesk\\fR(1)"]
    return page


def main():
    traindesk, trainer, version, outdir = sys.argv[1:5]
    os.makedirs(outdir, exist_ok=True)
    top = help_text([traindesk])
    cmds = commands(top)
    groups = []
    for cmd, _ in cmds:
        g = cmd.split()[0]
        if g not in groups:
            groups.append(g)

    page = header("traindesk", "train deep-learning models on machines you own", version)
    page += [".SH SYNOPSIS", ".B traindesk", ".br", "\\fBtraindesk\\fR \\fICOMMAND\\fR [\\fIOPTIONS\\fR] [\\fB\\-o\\fR table|json]",
             ".SH DESCRIPTION",
             "Started bare, \\fBtraindesk\\fR opens the desktop app. Given a command, it is the command line,"
             " which mirrors \\fBaz batchai\\fR: workspaces, experiments, clusters, shares and jobs.",
             ".SH COMMANDS"]
    for cmd, summary in cmds:
        page += [".TP", "\\fB" + esc(cmd) + "\\fR", esc(summary)]
    page += [".SH ENVIRONMENT", ".TP", ".B TRAINDESK_HOME",
             "The data directory (database, keys, local shares). Without it, the platform's data folder.",
             ".SH SEE ALSO", ", ".join(f"\\fBtraindesk\\-{g}\\fR(1)" for g in groups) + ", \\fBtraindesk\\-trainer\\fR(1)"]
    write(outdir, "traindesk", page)
    for g in groups:
        write(outdir, f"traindesk-{g}", group_page(traindesk, g, [c for c in cmds if c[0].split()[0] == g], version))

    trainer_help = help_text([trainer])
    page = header("traindesk-trainer", "the bundled data-parallel trainer of TrainDesk", version)
    usage = sections(trainer_help)[0][1]
    page += [".SH SYNOPSIS"] + [".PP\n" + esc(l.replace("Usage:", "").strip()) for l in usage if l.strip().startswith(("Usage", "mpirun"))]
    page += [".SH DESCRIPTION"] + [esc(l.strip()) for l in usage if l.strip() and not l.strip().startswith(("Usage", "mpirun"))]
    page += [".SH OPTIONS"]
    for title, body in sections(trainer_help)[1:]:
        page += [".SS " + esc(title)] + options_to_roff(body)
    page += [".SH SEE ALSO", "\\fBtraindesk\\fR(1), \\fBmpirun\\fR(1)"]
    write(outdir, "traindesk-trainer", page)


if __name__ == "__main__":
    main()
