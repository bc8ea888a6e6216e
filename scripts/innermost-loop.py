#!/usr/bin/env python3
"""The innermost loop of a clang -S file, for scripts/clang-corpus.sh.

Usage: innermost-loop.py FILE.s NAME SOURCE.c OPT FLAGS

Prints the largest labelled block that ends with a branch back to its own
label and has no other label or branch inside, wrapped in
`# LLVM-MCA-BEGIN NAME` / `# LLVM-MCA-END`. Exits 1 when there is none.
"""
import re
import sys

path, name, source, opt, flags = sys.argv[1:6]
lines = open(path).read().splitlines()
att = any("%" in l.split("#")[0].split("//")[0] for l in lines)
comment = "#" if att else "//"
label_re = re.compile(r"^([.\w$]+):")


def code(line):
    if att:
        line = line.split("#")[0]
    else:
        line = line.split("//")[0]
    return line.strip()


def is_branch(c):
    m = c.split()[0] if c else ""
    if att:
        return m.startswith("j")
    return m in ("b", "cbz", "cbnz", "tbz", "tbnz") or m.startswith("b.")


best = None
for i, l in enumerate(lines):
    m = label_re.match(l)
    if not m:
        continue
    label = m.group(1)
    body = []
    for l2 in lines[i + 1 :]:
        if label_re.match(l2):
            body = None
            break
        c = code(l2)
        if not c or c.startswith("."):
            continue
        body.append(c)
        if is_branch(c):
            ops = c.split(None, 1)[1] if " " in c or "\t" in c else ""
            if not ops.split(",")[-1].strip() == label:
                body = None
            break
    if body and is_branch(body[-1]) and (best is None or len(body) > len(best[1])):
        best = (label, body)

if best is None:
    sys.exit(1)
label, body = best
print(f"{comment} {name}: the innermost loop of clang-14 -{opt} {flags} {source}")
print(f"{comment} LLVM-MCA-BEGIN {name}")
print(f"{label}:")
for c in body:
    mnem, _, rest = c.replace("\t", " ", 1).partition(" ")
    print(f"\t{mnem}\t{rest.strip()}" if rest else f"\t{mnem}")
print(f"{comment} LLVM-MCA-END")
