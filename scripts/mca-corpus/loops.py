#!/usr/bin/env python3
"""Innermost loops of C files of Debian source packages, for the mca-real
test corpus.

  loops.py compile SRC WORK      compile the files of loop_sources.py (a
                                 seeded, evenly spread share of the (file,
                                 configuration) pairs of each package) to
                                 WORK/asm/ARCH/CFG/PKG__FILE.s (-S)
  loops.py extract WORK ARCH     every innermost loop of WORK/asm/ARCH as
                                 JSON lines on stdout

SRC holds the packages of loop_sources.py unpacked by `apt-get source PKG`
(PKG_VERSION.dsc and the tree PKG-UPSTREAMVERSION/). LOOPS_BUDGET (default
60) is the number of compilations per package and architecture.

A loop is the text from its header label through the conditional branch
back to that label, exactly as the compiler printed it, with no other
backward branch, no call and no return inside.
"""
import json
import os
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from loop_sources import SOURCES  # noqa: E402
from mca_common import (JOBS, LABEL_RE, branch_info, debian_tree, spec_files, spec_flags,  # noqa: E402
                        spread, strip_comment)

CLANG14 = os.environ.get("CLANG14", "clang-14")
CLANG22 = os.environ.get("CLANG22", "clang-22")
GCC12 = os.environ.get("GCC12", "gcc-12")
GCC12_A64 = os.environ.get("GCC12_A64", "aarch64-linux-gnu-gcc-12")

COMMON = ["-S", "-w", "-fno-asynchronous-unwind-tables", "-fno-unwind-tables", "-fno-stack-protector"]

OPTS = [
    ("O1", ["-O1"]),
    ("O2", ["-O2"]),
    ("O3", ["-O3"]),
    ("O3fm", ["-O3", "-ffast-math"]),
    ("O2ur", ["-O2", "-funroll-loops"]),
]

# (compiler tag, command, [(target tag, flags)])
COMPILERS = {
    "x86-64": [
        ("clang14", [CLANG14, "--target=x86_64-unknown-linux-gnu"],
         [("skylake", ["-march=skylake"]), ("znver3", ["-march=znver3"])]),
        ("clang22", [CLANG22, "--target=x86_64-unknown-linux-gnu"],
         [("skylake", ["-march=skylake"]), ("znver4", ["-march=znver4"])]),
        ("gcc12", [GCC12],
         [("skylake", ["-march=skylake"]), ("znver3", ["-march=znver3"])]),
    ],
    "aarch64": [
        ("clang14", [CLANG14, "--target=aarch64-linux-gnu"],
         [("a57", ["-mcpu=cortex-a57"]), ("m1", ["-mcpu=apple-m1"]), ("n1", ["-mcpu=neoverse-n1"])]),
        ("clang22", [CLANG22, "--target=aarch64-linux-gnu"],
         [("a57", ["-mcpu=cortex-a57"]), ("m1", ["-mcpu=apple-m1"]), ("v2", ["-mcpu=neoverse-v2"])]),
        ("gcc12", [GCC12_A64],
         [("a57", ["-mcpu=cortex-a57"]), ("n1", ["-mcpu=neoverse-n1"]), ("v1", ["-mcpu=neoverse-v1"])]),
    ],
}


BUDGET = int(os.environ.get("LOOPS_BUDGET", "60"))
SEED = 20240611


def configurations(arch):
    """{config name: (argv head, flags text)} of one arch."""
    out = {}
    for ctag, cmd, targets in COMPILERS[arch]:
        for ttag, tflags in targets:
            for otag, oflags in OPTS:
                out[f"{ctag}-{otag}-{ttag}"] = (cmd + COMMON + oflags + tflags, f"{ctag} {' '.join(oflags + tflags)}")
    return out


def do_compile(src, work):
    jobs = []
    gendir = os.path.join(work, "gen")
    for pkg in sorted(SOURCES):
        spec = SOURCES[pkg]
        root, version = debian_tree(src, pkg)
        files = spec_files(spec, root)
        if not files:
            sys.exit(f"loops: no files of {pkg} in {root}")
        for arch in COMPILERS:
            cfgs = configurations(arch)
            flags = spec_flags(pkg, spec, root, gendir, arch)
            for rel, cfg in spread(files, cfgs, BUDGET, f"{SEED}-{pkg}-{arch}"):
                argv, ftext = cfgs[cfg]
                out = os.path.join(work, "asm", arch, cfg, pkg + "__" + rel.replace("/", "__")[:-2] + ".s")
                meta = {"pkg": pkg, "version": version, "file": rel, "compiler": ftext}
                jobs.append((out, argv + flags + ["-o", out, os.path.join(root, rel)], meta))
    print(f"loops: {len(jobs)} compilations", file=sys.stderr)

    def run(job):
        out, argv, meta = job
        os.makedirs(os.path.dirname(out), exist_ok=True)
        if os.path.exists(out) and os.path.exists(out + ".json"):
            return None
        p = subprocess.run(argv, capture_output=True, text=True)
        if p.returncode != 0:
            if os.path.exists(out):
                os.unlink(out)
            return f"loops: FAILED {out}: {p.stderr.strip()[:300]}"
        with open(out + ".json", "w") as f:
            json.dump(meta, f)
        return None

    failed = 0
    with ThreadPoolExecutor(JOBS) as ex:
        for msg in ex.map(run, jobs):
            if msg:
                failed += 1
                print(msg, file=sys.stderr)
    print(f"loops: {failed} compilations failed", file=sys.stderr)


def functions(lines):
    """Split an -S file into (function name, [lines]) by `.type X,@function` + `X:`."""
    funcs = []
    cur, name = None, None
    pending = set()
    for line in lines:
        s = line.strip()
        m = re.match(r"\.type\s+([\w.$]+)\s*,\s*[@%]function", s)
        if m:
            pending.add(m.group(1))
        lm = LABEL_RE.match(line)
        if lm and lm.group(1) in pending:
            if cur is not None:
                funcs.append((name, cur))
            name, cur = lm.group(1), []
            pending.discard(name)
            continue
        if cur is not None:
            if s.startswith(".size") or s.startswith(".cfi_endproc"):
                funcs.append((name, cur))
                cur = None
                continue
            cur.append(line)
    if cur is not None:
        funcs.append((name, cur))
    return funcs


def loops_of(lines, arch):
    """Innermost loops of one function: lists of raw lines."""
    items = []  # (kind, value, raw line): kind 'label' | 'insn' | 'other'
    labels = {}
    for line in lines:
        lm = LABEL_RE.match(line)
        if lm:
            labels[lm.group(1)] = len(items)
            items.append(("label", lm.group(1), line))
            continue
        code = strip_comment(line, arch)
        if not code or code.startswith("."):
            items.append(("other", None, line))
        else:
            items.append(("insn", code, line))
    found = []
    for i, (k, code, _raw) in enumerate(items):
        if k != "insn":
            continue
        kind, tgt = branch_info(code, arch)
        if kind != "cond" or tgt not in labels or labels[tgt] >= i:
            continue
        h = labels[tgt]
        ok = True
        n = 0
        for j in range(h + 1, i):
            kj, cj, _ = items[j]
            if kj != "insn":
                continue
            n += 1
            bk, bt = branch_info(cj, arch)
            if bk in ("call", "ret", "indirect"):
                ok = False
                break
            if bk in ("cond", "uncond") and bt in labels and labels[bt] <= j:
                ok = False  # another backward branch: not innermost
                break
            if bk == "uncond" and not (bt in labels and h < labels[bt] < i):
                ok = False  # leaves the loop for good: not a single path back
                break
        if ok and 1 <= n + 1:
            found.append([r for _, _, r in items[h:i + 1]])
    return found


def do_extract(work, arch):
    base = os.path.join(work, "asm", arch)
    for cfg in sorted(os.listdir(base)):
        for f in sorted(os.listdir(os.path.join(base, cfg))):
            path = os.path.join(base, cfg, f)
            if not f.endswith(".s") or not os.path.exists(path + ".json"):
                continue
            meta = json.load(open(path + ".json"))
            pkg = meta["pkg"]
            ctag, otag, ttag = cfg.split("-")
            lines = open(path, errors="replace").read().splitlines()
            for fname, flines in functions(lines):
                for k, body in enumerate(loops_of(flines, arch)):
                    ninsn = sum(1 for l in body if strip_comment(l, arch) and not strip_comment(l, arch).startswith(".")
                                and not LABEL_RE.match(l))
                    func = re.sub(r"[^\w.]", "_", fname)
                    print(json.dumps({
                        "id": f"{pkg}-{func}-{ctag}-{otag}-{ttag}-L{k}", "kind": "loop", "arch": arch,
                        "pkg": pkg, "group": f"{pkg}-{func}",
                        "source": f"{pkg} {meta['version']} {meta['file']} {fname}",
                        "compiler": meta["compiler"], "ninsn": ninsn, "lines": body,
                    }))


if __name__ == "__main__":
    if sys.argv[1] == "compile":
        do_compile(sys.argv[2], sys.argv[3])
    elif sys.argv[1] == "extract":
        do_extract(sys.argv[2], sys.argv[3])
    else:
        sys.exit(__doc__)
