#!/usr/bin/env python3
"""Fails on a function in core/ longer than 100 lines (a lambda counts with the function it is in).

A long function hides its steps; split it into pieces whose names read top down
(docs/ARCHITECTURE.md, shared/STYLE.md "small functions"). The scan matches braces in the
C++ text (comments, strings, raw strings and character literals skipped): a brace block at
namespace or class level whose header holds a '(' is a function; its length runs from the
first line of its header to its closing brace.

    function_length.py SOURCE_DIR                 the check: core/, limit 100, ALLOWED below
    function_length.py SOURCE_DIR --list [N] [PATH...]  every function over N lines (80) in
                                                  the folders or files (core ui), longest first
"""
import pathlib
import re
import sys

LIMIT = 100

# Functions still over the limit (by name, so a move between files keeps its entry), each with
# why it waits. Name one here only on the way to splitting it; the check fails when a listed one
# is gone or short, so the list cannot go stale.
# name -> why it may stay long for now (none: every core function is at most 100 lines).
ALLOWED = {}

DECLARATION_KEYWORDS = re.compile(r"\b(namespace|class|struct|union|enum)\b")


def strip_code(text):
    """The text with comments, string and character literals blanked (newlines kept)."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c == "R" and text.startswith('"', i + 1) and not (i and (text[i - 1].isalnum()
                                                                        or text[i - 1] == "_")):
            open_paren = text.find("(", i + 2)
            delimiter = text[i + 2:open_paren]
            j = text.find(")" + delimiter + '"', open_paren)
            j = n if j < 0 else j + len(delimiter) + 2
            out.append('R"' + re.sub(r"[^\n]", " ", text[i + 2:j - 1]) + '"')
            i = j
        elif c == '"' or (c == "'" and not (i and text[i - 1].isalnum())):
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            j = min(j + 1, n)
            out.append(c + " " * max(0, j - i - 2) + (c if j - i >= 2 else ""))
            i = j
        elif c == "#" and (i == 0 or text[text.rfind("\n", 0, i) + 1:i].strip() == ""):
            # A preprocessor line (with its continuations) is no code to match braces in.
            j = i
            while True:
                k = text.find("\n", j)
                if k < 0:
                    j = n
                    break
                if text[k - 1] != "\\":
                    j = k
                    break
                j = k + 1
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        else:
            out.append(c)
            i += 1
    return "".join(out)


def function_name(header):
    """The qualified name before the header's first parameter list ('ns::Class::name')."""
    head = header[:header.find("(")]
    words = re.findall(r"[~\w:]+|operator\s*\S+", head)
    if not words:
        return "(lambda)"
    name = words[-1]
    if "=" in head or name in ("return", "auto"):
        # A lambda at namespace level: `const auto name = [..](..) {`.
        before = head.split("=")[0].split()
        return (before[-1] if before else "(lambda)") + " (lambda)"
    return name


def functions(path):
    """(name, first line, last line) of each function defined in the file."""
    code = strip_code(path.read_text(encoding="utf-8", errors="replace"))
    found = []
    # Each open scope: "decl" (namespace, class, extern block) where definitions stand,
    # or "body" (a function's braces, an initialiser's, and all braces within them).
    scopes = []
    header_start = 0
    # While inside a function: [name, first line, depth of its braces, between braces of a
    # constructor's member list (`: a{1}, b{2} {`)].
    current = None
    classes = []  # (depth, name) of each class scope open
    for i, c in enumerate(code):
        at_declaration_level = not scopes or scopes[-1] == "decl"
        if c == "{":
            header = code[header_start:i]
            stripped = header.strip()
            before_paren = stripped.split("(")[0]
            if not at_declaration_level:
                scopes.append("body")
            elif current is not None and current[3]:
                current[3] = False
                scopes.append("body")
            elif "(" in stripped and not DECLARATION_KEYWORDS.search(before_paren):
                first = code.count("\n", 0, i - len(header.lstrip())) + 1
                name = function_name(stripped)
                owner = [c for depth, c in classes if c and depth <= len(scopes)]
                if owner and "::" not in name:
                    name = "::".join(owner) + "::" + name
                current = [name, first, len(scopes), False]
                scopes.append("body")
            elif DECLARATION_KEYWORDS.search(stripped) or stripped.startswith("extern"):
                scopes.append("decl")
                kind_and_name = re.search(r"\b(class|struct|union)\s+(?:\w+\s+)*?(\w+)\s*(?:final\s*)?(?::[^:]|$)",
                                          stripped)
                classes.append((len(scopes), kind_and_name.group(2) if kind_and_name else None))
            else:
                scopes.append("body")
            header_start = i + 1
        elif c == "}":
            if scopes:
                if classes and classes[-1][0] == len(scopes):
                    classes.pop()
                scopes.pop()
            if current is not None and len(scopes) == current[2]:
                rest = code[i + 1:i + 200].lstrip()
                if rest[:1] in (",", "{"):
                    current[3] = True  # a member initialiser closed; the body is to come
                else:
                    found.append((current[0], current[1], code.count("\n", 0, i) + 1))
                    current = None
            header_start = i + 1
        elif c == ";" and at_declaration_level:
            header_start = i + 1
        elif c == ":" and at_declaration_level and re.search(
                r"\b(public|private|protected|signals|slots)\s*$", code[header_start:i]):
            header_start = i + 1  # an access label is no part of the next header
    return found


def long_functions(root, folders, limit):
    rows = []
    for folder in folders:
        place = root / folder
        for source in [place] if place.is_file() else sorted(place.rglob("*")):
            if source.suffix not in (".cpp", ".h"):
                continue
            for name, first, last in functions(source):
                length = last - first + 1
                if length > limit:
                    rows.append((length, str(source.relative_to(root)), first, name))
    return sorted(rows, key=lambda row: (-row[0], row[1]))


def main(argv):
    root = pathlib.Path(argv[1])
    if len(argv) > 2 and argv[2] == "--list":
        rest = argv[3:]
        limit = int(rest.pop(0)) if rest and rest[0].isdigit() else 80
        for length, path, first, name in long_functions(root, rest or ["core", "ui"], limit):
            print(f"{length:4d}  {path}:{first}  {name}")
        return 0
    problems = []
    seen = set()
    for length, path, first, name in long_functions(root, ["core"], LIMIT):
        seen.add(name)
        if name not in ALLOWED:
            problems.append(f"{path}:{first}: {name} is {length} lines (at most {LIMIT}); "
                            f"split it into named steps")
    for name in sorted(set(ALLOWED) - seen):
        problems.append(f"{name}: allowed to be long but no longer is; take it off ALLOWED in "
                        f"tests/meta/function_length.py")
    for problem in problems:
        print("FAIL:", problem)
    print(f"{'FAIL' if problems else 'PASS'}: {len(problems)} function(s) over {LIMIT} lines "
          f"in core/ ({len(ALLOWED)} allowed while their split is under way)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
