#!/usr/bin/env python3
"""The forms corpus: every instruction form compilers emit, one per line.

  forms.py compile SRC WORK       compile the C files of forms_sources.py
                                  (a seeded, evenly spread share of the
                                  (file, configuration) pairs of each
                                  package) and of extra/ (every pair) to
                                  WORK/fasm/
  forms.py collect WORK DEBDIR OUT PKG...
                                  gather instruction lines from WORK/fasm/ and
                                  from the disassembly of each PKG's amd64 and
                                  arm64 .deb in DEBDIR, check them with
                                  llvm-mc-22 and write OUT/{x86-64,aarch64}.s,
                                  OUT/*.lines.tsv and OUT/rejected-*.txt

SRC holds the packages of forms_sources.py unpacked by `apt-get source PKG`
(PKG_VERSION.dsc and the tree PKG-UPSTREAMVERSION/); extra/ is the folder of
C files written for this project beside this script. FORMS_BUDGET (default
80) is the number of compilations per package and architecture.
"""
import os
import re
import subprocess
import sys
from collections import Counter, defaultdict
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from forms_sources import SOURCES  # noqa: E402
from mca_common import (BAD_INSN, JOBS, LABEL_RE, TRIPLE, branch_info,  # noqa: E402
                        clean_operands, debian_tree, disassemble, elf_files, spec_files, spec_flags,
                        split_insn, spread, strip_comment)

CLANG14 = os.environ.get("CLANG14", "clang-14")
CLANG22 = os.environ.get("CLANG22", "clang-22")
GCC12 = os.environ.get("GCC12", "gcc-12")
GCC12_A64 = os.environ.get("GCC12_A64", "aarch64-linux-gnu-gcc-12")
# compilations per package and architecture; extra/ is always compiled
BUDGET = int(os.environ.get("FORMS_BUDGET", "80"))
SEED = 20240611
EXTRA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "extra")
CAP_TOTAL = 300_000
CAP_PER_MNEMONIC = 300

MATTR = {
    "x86-64": "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx512vnni,+avx512vbmi,+avx512vbmi2,"
              "+avx512bitalg,+avx512vpopcntdq,+avx512bf16,+avx512fp16,+gfni,+vaes,+vpclmulqdq,"
              "+sha,+bmi,+bmi2,+adx,+fma,+f16c,+lzcnt,+popcnt,+movbe,+rdrnd,+rdseed,+xsave,"
              "+clflushopt,+clwb,+prfchw",
    "aarch64": "+v9a,+sve2,+sve2-bitperm,+fp16,+dotprod,+i8mm,+bf16,+lse,+rcpc,+crc,+crypto,"
               "+sha3,+sm4,+aes,+fullfp16,+fp16fml,+mte",
}
LLVM_MC = os.environ.get("LLVM_MC", "llvm-mc-22")

COMMON = ["-S", "-w", "-fno-asynchronous-unwind-tables", "-fno-unwind-tables"]
OPTS = ["-O1", "-O2", "-O3", "-Os"]
TARGETS = {
    "x86-64": {
        "clang14": [CLANG14, "--target=x86_64-unknown-linux-gnu"],
        "clang22": [CLANG22, "--target=x86_64-unknown-linux-gnu"],
        "gcc12": [GCC12],
        "targets": [
            ("x86-64", {"*": []}),
            ("skylake", {"*": ["-march=skylake"]}),
            ("znver", {"clang22": ["-march=znver4"], "*": ["-march=znver3"]}),
            ("skx", {"*": ["-march=skylake-avx512"]}),
            ("icx", {"*": ["-march=icelake-server"]}),
            ("avx2fma", {"*": ["-mavx2", "-mfma"]}),
        ],
    },
    "aarch64": {
        "clang14": [CLANG14, "--target=aarch64-linux-gnu"],
        "clang22": [CLANG22, "--target=aarch64-linux-gnu"],
        "gcc12": [GCC12_A64],
        "targets": [
            ("v8a", {"*": ["-march=armv8-a"]}),
            ("v82", {"*": ["-march=armv8.2-a+fp16+dotprod"]}),
            ("v9sve2", {"*": ["-march=armv9-a+sve2"]}),
            ("nv", {"clang22": ["-mcpu=neoverse-v2"], "*": ["-mcpu=neoverse-v1"]}),
            ("m1", {"gcc12": ["-mcpu=neoverse-n1"], "*": ["-mcpu=apple-m1"]}),
            ("a57", {"*": ["-mcpu=cortex-a57"]}),
        ],
    },
}


def configurations(arch):
    """{config name: argv head} of one arch."""
    t = TARGETS[arch]
    out = {}
    for comp in ("clang14", "clang22", "gcc12"):
        for ttag, flags_by in t["targets"]:
            tflags = flags_by.get(comp, flags_by["*"])
            for opt in OPTS:
                out[f"{comp}{opt}-{ttag}"] = t[comp] + COMMON + [opt] + tflags
    return out


def do_compile(src, work):
    jobs = []
    gendir = os.path.join(work, "gen")
    extra = sorted(f for f in os.listdir(EXTRA) if f.endswith(".c"))
    for arch in TARGETS:
        cfgs = configurations(arch)
        for cfg in sorted(cfgs):
            for f in extra:
                out = os.path.join(work, "fasm", arch, cfg, "extra__" + f[:-2] + ".s")
                jobs.append((out, cfgs[cfg] + ["-o", out, os.path.join(EXTRA, f)]))
        for pkg in sorted(SOURCES):
            root, _version = debian_tree(src, pkg)
            files = spec_files(SOURCES[pkg], root)
            flags = spec_flags(pkg, SOURCES[pkg], root, gendir, arch)
            for rel, cfg in spread(files, cfgs, BUDGET, f"{SEED}-{pkg}-{arch}"):
                out = os.path.join(work, "fasm", arch, cfg, pkg + "__" + rel.replace("/", "__")[:-2] + ".s")
                jobs.append((out, cfgs[cfg] + flags + ["-o", out, os.path.join(root, rel)]))
    print(f"forms: {len(jobs)} compilations", file=sys.stderr)

    def run(job):
        out, argv = job
        os.makedirs(os.path.dirname(out), exist_ok=True)
        if os.path.exists(out):
            return None
        tmp = out + ".tmp"
        p = subprocess.run(argv[:-3] + ["-o", tmp, argv[-1]], capture_output=True, text=True)
        if p.returncode != 0:
            if os.path.exists(tmp):
                os.unlink(tmp)
            return f"forms: FAILED {out}: {p.stderr.strip()[:200]}"
        os.replace(tmp, out)
        return None

    failed = 0
    with ThreadPoolExecutor(JOBS) as ex:
        for msg in ex.map(run, jobs):
            if msg:
                failed += 1
                print(msg, file=sys.stderr)
    print(f"forms: {failed} compilations failed", file=sys.stderr)


LOCAL_SYM = re.compile(r"(?<![\w.$])\.L[\w$.]+")
PCREL_A64 = {"adr", "adrp", "ldr", "ldrsw", "prfm", "ldr"}


def normalise(code, arch):
    """One instruction as a corpus line: mnemonic, a tab, the operands with
    single spaces; branch targets become .Ltarget; local data labels .Lsym."""
    code = code.strip()
    if "\t" in code:
        m, ops = code.split("\t", 1)
    else:
        parts = code.split(None, 1)
        m, ops = parts[0], parts[1] if len(parts) > 1 else ""
    m = m.strip()
    ops = re.sub(r"\s+", " ", ops.strip())
    # x86 prefixes printed before the mnemonic ("lock cmpxchgq", "rep stosq")
    if arch == "x86-64" and m in ("lock", "rep", "repe", "repz", "repne", "repnz", "notrack", "data16", "addr32", "cs", "ds") and ops:
        sub = ops.split(None, 1)
        m = m + " " + sub[0]
        ops = sub[1] if len(sub) > 1 else ""
    line = m + (" " + ops if ops else "")
    kind, tgt = branch_info(line.split(" ", 1)[-1] if m.startswith(("notrack", "bnd")) else line, arch)
    if kind in ("cond", "uncond", "call") and tgt is not None and not tgt.startswith("*"):
        # the target is the last operand
        if arch == "x86-64":
            line = m + " .Ltarget"
        else:
            pre = ops.rsplit(",", 1)[0] + ", " if "," in ops else ""
            line = m + " " + pre + ".Ltarget"
        return line
    if kind == "call" and arch == "x86-64" and ops and not ops.startswith("*"):
        return m + " .Ltarget"
    if arch == "aarch64" and m.lower() in ("bl",):
        return m + " .Ltarget"
    if arch == "aarch64" and m.lower() in PCREL_A64 and re.search(r",\s*(0x[0-9a-f]+|#?-?\d+)$", ops) and "[" not in ops:
        # a pc-relative literal or page address printed as an absolute number
        return m + " " + ops.rsplit(",", 1)[0] + ", .Ltarget"
    line = LOCAL_SYM.sub(".Lsym", line)
    return line


def lines_of_asm(path, arch):
    for line in open(path, errors="replace"):
        if LABEL_RE.match(line):
            continue
        code = strip_comment(line, arch)
        if not code or code.startswith(".") or code.endswith(":"):
            continue
        # gcc puts "label: insn" rarely; skip local numeric labels like "1:"
        code = re.sub(r"^\d+:\s*", "", code)
        if not code:
            continue
        yield normalise(code, arch)


def lines_of_elf(path, arch):
    for _sym, insns in disassemble(path):
        for _a, t in insns:
            if BAD_INSN.search(t):
                continue
            yield normalise(clean_operands(t, arch), arch)


def shape(line, arch):
    """The operand kinds of a line (for choosing diverse lines of one mnemonic)."""
    m, ops = split_insn(line)
    if arch == "x86-64":
        s = re.sub(r"%([a-z]+)\d*[a-z]*", lambda x: "%" + x.group(1)[:3], ops)
        s = re.sub(r"\$-?(0x)?[0-9a-f]+", "$i", s)
        s = re.sub(r"-?(0x)?[0-9a-f]*\([^)]*\)", "M", s)
    else:
        s = re.sub(r"\b([xwqdsbhvzp])\d+", r"\1", ops)
        s = re.sub(r"#-?(0x)?[0-9a-f]+", "#i", s)
        s = re.sub(r"\[[^\]]*\]!?", "M", s)
    return m + " " + s


def check(arch, lines, work):
    """(kept lines, {line: reason}) by llvm-mc-22.

    SVE `movprfx` makes llvm-mc judge the instruction after it, so each
    movprfx line is checked on its own (as the last line of its file) and
    every other line in one file."""
    lines = list(lines)
    prfx = [l for l in lines if l.startswith("movprfx")]
    kept_prfx, rejected = [], {}
    for l in prfx:
        path = os.path.join(work, f"check-{arch}-movprfx.s")
        with open(path, "w") as f:
            f.write(l + "\n")
        p = subprocess.run([LLVM_MC, "--triple=" + TRIPLE[arch], "-mattr=" + MATTR[arch], "-filetype=null", path],
                           capture_output=True, text=True, errors="replace")
        err = next((re.sub(r"^.*?error: ", "", e) for e in p.stderr.splitlines() if "error:" in e), None)
        if err:
            rejected[l] = err
        else:
            kept_prfx.append(l)
    kept, rej = _check(arch, [l for l in lines if not l.startswith("movprfx")], work)
    rejected.update(rej)
    return sorted(kept + kept_prfx), rejected


def _check(arch, lines, work):
    rejected = {}
    todo = list(lines)
    for _round in range(4):
        path = os.path.join(work, f"check-{arch}.s")
        with open(path, "w") as f:
            f.write(".Ltarget:\n")
            for l in todo:
                f.write(l + "\n")
        p = subprocess.run([LLVM_MC, "--triple=" + TRIPLE[arch], "-mattr=" + MATTR[arch], "-filetype=null", path],
                           capture_output=True, text=True, errors="replace")
        bad = {}
        for e in p.stderr.splitlines():
            m = re.match(r"^.*?\.s:(\d+):\d+: error: (.*)$", e)
            if m:
                n = int(m.group(1)) - 2
                if 0 <= n < len(todo) and todo[n] not in bad:
                    bad[todo[n]] = m.group(2)
        if not bad:
            break
        rejected.update(bad)
        todo = [l for l in todo if l not in bad]
    return todo, rejected


def cap(lines, counts, arch):
    if len(lines) <= CAP_TOTAL:
        return lines
    by_m = defaultdict(list)
    for l in lines:
        by_m[split_insn(l)[0]].append(l)
    out = []
    for m, ls in by_m.items():
        if len(ls) <= CAP_PER_MNEMONIC:
            out += ls
            continue
        by_s = defaultdict(list)
        for l in ls:
            by_s[shape(l, arch)].append(l)
        for s in by_s:
            by_s[s].sort(key=lambda l: (-counts[l], l))
        order = sorted(by_s, key=lambda s: (-sum(counts[l] for l in by_s[s]), s))
        took, r = [], 0
        while len(took) < CAP_PER_MNEMONIC:
            more = False
            for s in order:
                if r < len(by_s[s]) and len(took) < CAP_PER_MNEMONIC:
                    took.append(by_s[s][r])
                    more = True
            if not more:
                break
            r += 1
        out += took
    return out


def do_collect(work, debdir, outdir, pkgs):
    os.makedirs(outdir, exist_ok=True)
    for arch, deb_arch in (("x86-64", "amd64"), ("aarch64", "arm64")):
        counts = Counter()
        prov = {}
        units = []
        base = os.path.join(work, "fasm", arch)
        for cfg in sorted(os.listdir(base)) if os.path.isdir(base) else []:
            for f in sorted(os.listdir(os.path.join(base, cfg))):
                if not f.endswith(".s"):
                    continue
                units.append(("asm", os.path.join(base, cfg, f), f"{f[:-2].replace('__', '/')} {cfg}"))
        for pkg in pkgs:
            debs = sorted(f for f in os.listdir(debdir) if f.startswith(pkg + "_") and f.endswith(f"_{deb_arch}.deb"))
            if not debs:
                print(f"forms: no {pkg} for {deb_arch}", file=sys.stderr)
                continue
            dest = os.path.join(work, "debx", f"{pkg}_{deb_arch}")
            if not os.path.isdir(dest):
                os.makedirs(dest)
                subprocess.run(["dpkg-deb", "-x", os.path.join(debdir, debs[0]), dest], check=True)
            for elf in elf_files(dest):
                units.append(("elf", elf, f"{debs[0]} {os.path.relpath(elf, dest)}"))

        def read(u):
            kind, path, where = u
            c = Counter(lines_of_asm(path, arch) if kind == "asm" else lines_of_elf(path, arch))
            return where, c

        with ThreadPoolExecutor(JOBS) as ex:
            for where, c in ex.map(read, units):
                for l, n in c.items():
                    if l not in prov:
                        prov[l] = where
                    counts[l] += n
        print(f"forms: {arch}: {len(counts)} distinct lines from {len(units)} units", file=sys.stderr)
        kept, rejected = check(arch, sorted(counts), work)
        kept = sorted(cap(kept, counts, arch))
        with open(os.path.join(outdir, f"{arch}.s"), "w") as f:
            f.write(".Ltarget:\n")
            for l in kept:
                f.write(l + "\n")
        with open(os.path.join(outdir, f"{arch}.lines.tsv"), "w") as f:
            f.write("line\tcount\tprovenance\n")
            for l in kept:
                f.write(f"{l}\t{counts[l]}\t{prov[l]}\n")
        with open(os.path.join(outdir, f"rejected-{arch}.txt"), "w") as f:
            for l in sorted(rejected):
                f.write(f"{l}\t{rejected[l]}\t{counts[l]}\t{prov[l]}\n")
        print(f"forms: {arch}: {len(kept)} lines kept, {len(rejected)} rejected", file=sys.stderr)


if __name__ == "__main__":
    if len(sys.argv) >= 4 and sys.argv[1] == "compile":
        do_compile(sys.argv[2], sys.argv[3])
    elif len(sys.argv) >= 5 and sys.argv[1] == "collect":
        do_collect(sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5:])
    else:
        sys.exit(__doc__)
