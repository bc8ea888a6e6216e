#!/usr/bin/env python3
"""Runs `course mca` and the llvm-mca each built-in model names on the
regions of the real-code corpus (tests/data/mca-real) and compares them.

    compare.py [--course PATH] [--models a,b] [--sets loop,block] [--show N]

For each model, the regions its llvm-mca accepts (index.tsv) are run by both
tools with `-iterations=100 -timeline -timeline-max-iterations=3` in one
file, and each region's output is compared byte for byte. A region `course`
refuses is counted as refused and left out of a second run. Prints, per
model and set, how many regions were accepted and how many came out equal,
and the first lines of up to N differences.
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MODELS = {
    "skylake": ("x86-64", "x86_64-unknown-linux-gnu", "llvm-mca-22", "skylake"),
    "znver4": ("x86-64", "x86_64-unknown-linux-gnu", "llvm-mca-22", "znver4"),
    "skylake-llvm14": ("x86-64", "x86_64-unknown-linux-gnu", "llvm-mca-14", "skylake"),
    "neoverse-v2": ("aarch64", "aarch64-unknown-linux-gnu", "llvm-mca-22", "neoverse-v2"),
    "apple-m1": ("aarch64", "aarch64-unknown-linux-gnu", "llvm-mca-22", "apple-m1"),
    "cortex-a57": ("aarch64", "aarch64-unknown-linux-gnu", "llvm-mca-14", "cortex-a57"),
}
FLAGS = ["-iterations=100", "-timeline", "-timeline-max-iterations=3"]


def regions(path, comment):
    """{id: text of the region, markers included}, in file order."""
    out, cur, name = {}, None, None
    begin = re.compile(rf"^\s*{re.escape(comment)}\s*LLVM-MCA-BEGIN\s+(\S+)")
    end = re.compile(rf"^\s*{re.escape(comment)}\s*LLVM-MCA-END")
    with open(path) as f:
        for line in f:
            m = begin.match(line)
            if m:
                name, cur = m.group(1), [line]
                continue
            if cur is not None:
                cur.append(line)
                if end.match(line):
                    out[name] = "".join(cur)
                    cur = None
    return out


def accepted(index_path):
    acc = {}
    with open(index_path) as f:
        next(f)
        for line in f:
            p = line.rstrip("\n").split("\t")
            acc[p[0]] = set(p[4].split(",")) if len(p) > 4 else set()
    return acc


def split_output(text):
    """{region id: its report} from a whole-file report."""
    parts = re.split(r"^\n?\[\d+\] Code Region - (\S+)\n", text, flags=re.M)
    out = {}
    for k in range(1, len(parts), 2):
        out[parts[k]] = parts[k + 1]
    return out


def run(cmd, path):
    p = subprocess.run(cmd + [path], capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def compare_model(args, model, kind):
    arch, triple, mca, cpu = MODELS[model]
    comment = "#" if arch == "x86-64" else "//"
    base = os.path.join(ROOT, "tests/data/mca-real", arch)
    regs = regions(os.path.join(base, f"{kind}s.s"), comment)
    acc = accepted(os.path.join(base, "index.tsv"))
    ids = [r for r in regs if model in acc.get(r, ())]
    # llvm-mca-14 sees no region marker in an AArch64 `//` comment: use `#`.
    regs = {r: t.replace("// LLVM-MCA", "# LLVM-MCA") for r, t in regs.items()}
    course = [args.course, "mca", f"-mtriple={triple}", f"-mcpu={model}"] + FLAGS
    llvm = [mca, f"-mtriple={triple}", f"-mcpu={cpu}"] + FLAGS
    refused = {}
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "k.s")
        todo = list(ids)
        for _ in range(20):
            text = "".join(regs[r] for r in todo)
            with open(path, "w") as f:
                f.write(text)
            rc, out, err = run(course, path)
            if rc == 0:
                break
            # Refused lines: find their regions and leave them out.
            starts, line = [], 1
            for r in todo:
                starts.append((line, r))
                line += regs[r].count("\n")
            bad = set()
            for m in re.finditer(r":(\d+):(\d+): (.*)", err):
                ln = int(m.group(1))
                owner = max((s for s in starts if s[0] <= ln), default=None)
                if owner:
                    bad.add(owner[1])
                    refused.setdefault(owner[1], m.group(3))
            if not bad:
                sys.stderr.write(err[:2000])
                return None
            todo = [r for r in todo if r not in bad]
        text = "".join(regs[r] for r in todo)
        with open(path, "w") as f:
            f.write(text)
        _, out, _ = run(course, path)
        rc2, ref, err2 = run(llvm, path)
        if rc2 != 0:
            sys.stderr.write(f"{model}: {mca} failed: {err2[:500]}\n")
            return None
    mine, theirs = split_output(out), split_output(ref)
    equal, diffs = 0, []
    for r in todo:
        if mine.get(r) == theirs.get(r):
            equal += 1
        else:
            diffs.append(r)
    return ids, refused, todo, equal, diffs, mine, theirs


def first_diff(a, b):
    al, bl = (a or "").splitlines(), (b or "").splitlines()
    for k in range(max(len(al), len(bl))):
        x = al[k] if k < len(al) else "<end>"
        y = bl[k] if k < len(bl) else "<end>"
        if x != y:
            return k + 1, x, y
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--course", default=os.path.join(ROOT, "target/release/course"))
    ap.add_argument("--models", default=",".join(MODELS))
    ap.add_argument("--sets", default="loop,block")
    ap.add_argument("--show", type=int, default=3)
    args = ap.parse_args()
    for model in args.models.split(","):
        for kind in args.sets.split(","):
            res = compare_model(args, model, kind)
            if res is None:
                print(f"{model} {kind}s: could not run")
                continue
            ids, refused, todo, equal, diffs, mine, theirs = res
            n = len(ids)
            print(f"{model} {kind}s: {n} regions, {len(todo)} accepted ({100 * len(todo) / max(n, 1):.1f} %), "
                  f"{equal} equal ({100 * equal / max(len(todo), 1):.1f} % of accepted)")
            for r, why in list(refused.items())[:args.show]:
                print(f"   refused {r}: {why}")
            for r in diffs[:args.show]:
                d = first_diff(mine.get(r), theirs.get(r))
                print(f"   differs {r}: line {d[0]}:\n      course: {d[1]!r}\n      llvm:   {d[2]!r}" if d else f"   differs {r}")


if __name__ == "__main__":
    main()
