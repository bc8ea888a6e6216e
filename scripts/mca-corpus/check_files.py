#!/usr/bin/env python3
"""Whole-file checks of the mca-real corpus.

  check_files.py DIR     (DIR = tests/data/mca-real)

1. llvm-mca-22 and llvm-mca-14 each read every file whole (llvm-mca-14 on
   AArch64 a copy whose `//` region markers are rewritten `#`: it ignores `//` ones) (x86-64: -mcpu=znver4
   for 22, skylake for 14; aarch64: neoverse-v2 for 22, apple-m1 for 14) and
   must report every region ("[N] Code Region - ID").
2. For each model, the regions index.tsv says it accepts, put in one file,
   must all be reported by that model's llvm-mca.
Prints a count table; exits 1 on any mismatch.
"""
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mca_common import MODELS, TRIPLE  # noqa: E402

WHOLE = {"x86-64": [("llvm-mca-22", "znver4"), ("llvm-mca-14", "skylake")],
         "aarch64": [("llvm-mca-22", "neoverse-v2"), ("llvm-mca-14", "apple-m1")]}


def regions(path):
    text = open(path).read()
    out = re.findall(r"^(?:#|//) LLVM-MCA-BEGIN (\S+)\n(.*?)^(?:#|//) LLVM-MCA-END \1\n", text, re.S | re.M)
    return text, out


def reported(mca, arch, cpu, path):
    if arch == "aarch64" and mca == "llvm-mca-14":
        # llvm-mca-14 ignores `// LLVM-MCA-BEGIN` on AArch64 (it reads the
        # whole file as one region); it honours `# LLVM-MCA-BEGIN`, so it
        # reads a copy with the markers rewritten.
        text = re.sub(r"^// (LLVM-MCA-(?:BEGIN|END) )", r"# \1", open(path).read(), flags=re.M)
        with tempfile.NamedTemporaryFile("w", suffix=".s", delete=False) as t:
            t.write(text)
        try:
            return _reported(mca, arch, cpu, t.name)
        finally:
            os.unlink(t.name)
    return _reported(mca, arch, cpu, path)


def _reported(mca, arch, cpu, path):
    p = subprocess.run([mca, "-mtriple=" + TRIPLE[arch], "-mcpu=" + cpu, "-iterations=1", path],
                       capture_output=True, text=True)
    rc = p.returncode if p.returncode or "error:" not in p.stderr else -1
    return rc, re.findall(r"^\[\d+\] Code Region - (\S+)$", p.stdout, re.M), p.stderr.strip()[:300]


def main():
    d = sys.argv[1]
    bad = 0
    for arch in ("x86-64", "aarch64"):
        index = {}
        for line in open(os.path.join(d, arch, "index.tsv")).read().splitlines()[1:]:
            f = line.split("\t")
            index[f[0]] = (f[1], f[4].split(","))
        for kind in ("loops", "blocks"):
            path = os.path.join(d, arch, f"{kind}.s")
            text, regs = regions(path)
            ids = [r[0] for r in regs]
            if text.count("LLVM-MCA-BEGIN") != len(ids) or len(set(ids)) != len(ids):
                print(f"{path}: BEGIN/END markers do not pair up or ids repeat")
                bad += 1
            for mca, cpu in WHOLE[arch]:
                rc, rep, err = reported(mca, arch, cpu, path)
                ok = rc == 0 and rep == ids
                print(f"{arch}/{kind}.s whole file, {mca} -mcpu={cpu}: {len(rep)}/{len(ids)} regions reported"
                      + ("" if ok else f"  MISMATCH rc={rc} {err}"))
                bad += not ok
            c = "#" if arch == "x86-64" else "//"
            for model, mca, cpu in MODELS[arch]:
                mine = [(i, body) for i, body in regs if model in index[i][1]]
                with tempfile.NamedTemporaryFile("w", suffix=".s", delete=False) as t:
                    for i, body in mine:
                        t.write(f"{c} LLVM-MCA-BEGIN {i}\n{body}{c} LLVM-MCA-END {i}\n")
                rc, rep, err = reported(mca, arch, cpu, t.name)
                os.unlink(t.name)
                ok = rc == 0 and rep == [i for i, _ in mine]
                print(f"{arch}/{kind}.s model {model} ({mca} -mcpu={cpu}): {len(mine)} regions accepted per index, "
                      f"{len(rep)} reported" + ("" if ok else f"  MISMATCH rc={rc} {err}"))
                bad += not ok
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
