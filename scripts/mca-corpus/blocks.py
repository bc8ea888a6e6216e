#!/usr/bin/env python3
"""Basic blocks of Debian binaries (BHive style), for the mca-real corpus.

  blocks.py DEBDIR WORK ARCH PKG...   candidate blocks as JSON lines on stdout

For each package PKG, DEBDIR/PKG_*_{amd64|arm64}.deb is unpacked into
WORK/debx/, every ELF file in it is disassembled with llvm-objdump (LLVM's
printing syntax; AT&T on x86) and cut into basic blocks: a block starts at
a function's start, at a direct branch target or after a branch, call or
return, and ends before the next branch, call, return or block start; it
has no control transfer inside. Blocks of 2 to 100 instructions are kept,
deduplicated; a seeded, length-stratified sample of each package is printed.
"""
import glob
import hashlib
import json
import os
import random
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mca_common import BAD_INSN, branch_info, clean_operands, disassemble, elf_files  # noqa: E402

DEB_ARCH = {"x86-64": "amd64", "aarch64": "arm64"}
PER_PACKAGE = int(os.environ.get("BLOCKS_PER_PACKAGE", "70"))
BINS = [(2, 4), (5, 9), (10, 19), (20, 49), (50, 100)]
BIN_WEIGHT = [0.25, 0.3, 0.25, 0.15, 0.05]
SEED = 20240611


def unpack(debdir, work, pkg, arch):
    debs = sorted(glob.glob(os.path.join(debdir, f"{pkg}_*_{DEB_ARCH[arch]}.deb")))
    if not debs:
        sys.exit(f"blocks: no {pkg} .deb for {arch} in {debdir}")
    dest = os.path.join(work, "debx", f"{pkg}_{DEB_ARCH[arch]}")
    if not os.path.isdir(dest):
        os.makedirs(dest)
        subprocess.run(["dpkg-deb", "-x", debs[0], dest], check=True)
    return dest, os.path.basename(debs[0])


def blocks_of(func, arch):
    """[(start index, [text])] basic blocks of one symbol's instructions."""
    insns = func
    addrs = {a: i for i, (a, _t) in enumerate(insns)}
    leaders = {0}
    ends = set()
    for i, (_a, t) in enumerate(insns):
        code = clean_operands(t, arch)
        kind, tgt = branch_info(code, arch)
        if kind:
            ends.add(i)
            leaders.add(i + 1)
            if tgt:
                try:
                    ta = int(tgt.split()[-1], 16)
                except ValueError:
                    ta = None
                if ta in addrs:
                    leaders.add(addrs[ta])
    out = []
    cur = []
    start = 0
    for i, (_a, t) in enumerate(insns):
        if i in leaders:
            if cur:
                out.append((start, cur))
            cur, start = [], i
        if i in ends:
            if cur:
                out.append((start, cur))
            cur, start = [], i + 1
            continue
        cur.append(t)
    if cur:
        out.append((start, cur))
    return out


def good(block, arch):
    if not 2 <= len(block) <= 100:
        return False
    nops = 0
    for t in block:
        if BAD_INSN.search(t):
            return False
        m = t.split()[0].lower()
        if m.startswith("nop") or m in ("int3", "hint"):
            nops += 1
    return nops < len(block) / 2


def sym_tag(name):
    name = re.sub(r"@.*$", "", name)
    name = re.sub(r"[^\w.]", "_", name)
    return name[:48] or "anon"


def main():
    debdir, work, arch = sys.argv[1:4]
    pkgs = sys.argv[4:]
    seen = set()
    for pkg in pkgs:
        dest, debname = unpack(debdir, work, pkg, arch)
        cands = []
        for elf in elf_files(dest):
            rel = os.path.relpath(elf, dest)
            for sym, insns in disassemble(elf):
                if sym.endswith("@plt") or sym.startswith(".plt"):
                    continue
                for k, (_start, blk) in enumerate(blocks_of(insns, arch)):
                    if not good(blk, arch):
                        continue
                    text = [clean_operands(t, arch) for t in blk]
                    key = hashlib.sha1("\n".join(text).encode()).hexdigest()
                    if key in seen:
                        continue
                    seen.add(key)
                    cands.append((rel, sym, k, text, key))
        rng = random.Random(f"{SEED}-{pkg}-{arch}")
        chosen = []
        for (lo, hi), w in zip(BINS, BIN_WEIGHT):
            pool = [c for c in cands if lo <= len(c[3]) <= hi]
            pool.sort(key=lambda c: c[4])
            rng.shuffle(pool)
            chosen += pool[: max(1, round(PER_PACKAGE * w))]
        short = re.sub(r"^lib", "", pkg)
        for rel, sym, k, text, _key in sorted(chosen, key=lambda c: (c[0], c[1], c[2])):
            print(json.dumps({
                "id": f"deb-{short}-{sym_tag(sym)}-B{k}", "kind": "block", "arch": arch,
                "group": f"deb-{pkg}", "source": f"{debname} {rel} {sym}",
                "compiler": "Debian bookworm binary (llvm-objdump-22 -d)",
                "ninsn": len(text), "lines": ["\t" + t for t in text],
            }))
        print(f"blocks: {pkg} {arch}: {len(cands)} distinct blocks, {len(chosen)} sampled", file=sys.stderr)


if __name__ == "__main__":
    main()
