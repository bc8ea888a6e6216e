"""Shared pieces of the mca-real test corpus and the forms corpus scripts.

Python 3.11 standard library only.
"""
import os
import re
import subprocess
import tempfile
from concurrent.futures import ThreadPoolExecutor

TRIPLE = {"x86-64": "x86_64-unknown-linux-gnu", "aarch64": "aarch64-unknown-linux-gnu"}
COMMENT = {"x86-64": "#", "aarch64": "//"}

# (model, llvm-mca binary, -mcpu) per arch, in the order index.tsv lists them.
MODELS = {
    "x86-64": [
        ("skylake", "llvm-mca-22", "skylake"),
        ("znver4", "llvm-mca-22", "znver4"),
        ("skylake-llvm14", "llvm-mca-14", "skylake"),
    ],
    "aarch64": [
        ("neoverse-v2", "llvm-mca-22", "neoverse-v2"),
        ("apple-m1", "llvm-mca-22", "apple-m1"),
        ("cortex-a57", "llvm-mca-14", "cortex-a57"),
    ],
}

JOBS = int(os.environ.get("JOBS", "2"))

LABEL_RE = re.compile(r"^([A-Za-z_.$][\w.$]*):")

AARCH64_CC = {
    "eq", "ne", "cs", "hs", "cc", "lo", "mi", "pl", "vs", "vc", "hi", "ls",
    "ge", "lt", "gt", "le", "al", "nv",
    # SVE aliases
    "none", "any", "nlast", "last", "first", "nfrst", "pmore", "plast", "tcont", "tstop",
}


def strip_comment(line, arch):
    """The code part of an assembly line (no comment, stripped)."""
    if arch == "x86-64":
        # '#' starts a comment in AT&T syntax (no '#' in operands).
        i = line.find("#")
        if i >= 0:
            line = line[:i]
    else:
        i = line.find("//")
        if i >= 0:
            line = line[:i]
    return line.strip()


def split_insn(code):
    """(mnemonic, operand text) of an instruction's code."""
    parts = code.split(None, 1)
    if not parts:
        return "", ""
    return parts[0].lower(), (parts[1] if len(parts) > 1 else "")


def branch_info(code, arch):
    """(kind, target) where kind is None, 'cond', 'uncond', 'indirect',
    'call' or 'ret'; target is the label operand of a direct branch."""
    m, ops = split_insn(code)
    if not m:
        return None, None
    if arch == "x86-64":
        if m.startswith("call"):
            return "call", None
        if m.startswith("ret") or m in ("iret", "iretq", "sysret", "ud2", "hlt"):
            return "ret", None
        if m.startswith("j") or m in ("loop", "loope", "loopne", "jrcxz", "jecxz"):
            tgt = ops.strip()
            if tgt.startswith("*"):
                return "indirect", None
            kind = "uncond" if m in ("jmp", "jmpq", "jmpl") else "cond"
            return kind, tgt
        if m in ("xbegin",):
            return "cond", ops.strip()
        return None, None
    # AArch64
    if m in ("bl", "blr", "blraa", "blraaz", "blrab", "blrabz"):
        return "call", None
    if m in ("ret", "retaa", "retab", "eret", "brk", "udf", "hlt"):
        return "ret", None
    if m in ("br", "braa", "braaz", "brab", "brabz"):
        return "indirect", None
    if m == "b":
        return "uncond", ops.strip()
    if m in ("cbz", "cbnz"):
        return "cond", ops.split(",")[-1].strip()
    if m in ("tbz", "tbnz"):
        return "cond", ops.split(",")[-1].strip()
    if m.startswith("b.") and m[2:] in AARCH64_CC:
        return "cond", ops.strip()
    if m.startswith("b") and m[1:] in AARCH64_CC and len(m) == 3:
        return "cond", ops.strip()
    return None, None


def mca_accepts(arch, text, tmpdir):
    """The models whose llvm-mca exits 0 on `text` (one region), and the
    first error line of each model that does not."""
    fd, path = tempfile.mkstemp(suffix=".s", dir=tmpdir)
    with os.fdopen(fd, "w") as f:
        f.write(text)
    ok, errs = [], {}
    try:
        for model, mca, cpu in MODELS[arch]:
            p = subprocess.run(
                [mca, "-mtriple=" + TRIPLE[arch], "-mcpu=" + cpu, "-iterations=10",
                 "-o", "/dev/null", path],
                capture_output=True, text=True)
            # llvm-mca-14 exits 0 after assembler errors (it drops the
            # lines it cannot parse): an error on stderr rejects too.
            if p.returncode == 0 and "error:" not in p.stderr:
                ok.append(model)
            else:
                first = next((l for l in p.stderr.splitlines() if "error" in l), p.stderr.strip()[:200])
                errs[model] = re.sub(r"^\S+\.s:\d+:\d+: ", "", first).strip()
    finally:
        os.unlink(path)
    return ok, errs


def mca_accepts_many(arch, texts):
    with tempfile.TemporaryDirectory() as d, ThreadPoolExecutor(JOBS) as ex:
        return list(ex.map(lambda t: mca_accepts(arch, t, d), texts))


OBJDUMP = os.environ.get("OBJDUMP", "/usr/lib/llvm-22/bin/llvm-objdump")
ELF_MAGIC = b"\x7fELF"
SYM_RE = re.compile(r"^([0-9a-f]+) <(.*)>:$")
INSN_RE = re.compile(r"^\s*([0-9a-f]+):\s+(.*)$")


def is_elf(path):
    try:
        if os.path.islink(path) or not os.path.isfile(path):
            return False
        with open(path, "rb") as f:
            return f.read(4) == ELF_MAGIC
    except OSError:
        return False


def elf_files(root):
    """Every ELF file under root (no symlinks), sorted."""
    out = []
    for d, _dirs, files in os.walk(root):
        for f in files:
            p = os.path.join(d, f)
            if is_elf(p) and not p.endswith(".debug"):
                out.append(p)
    return sorted(out)


def clean_operands(text, arch):
    """An objdump instruction made assembler input: no `<sym+off>` and no
    `# 0x...` address comments, single spaces after the mnemonic."""
    text = re.sub(r"\s*<[^<>]*>\s*$", "", text)
    if arch == "x86-64":
        text = re.sub(r"\s*#.*$", "", text)
    else:
        text = re.sub(r"\s*//.*$", "", text)
    text = text.rstrip()
    parts = text.split("\t", 1) if "\t" in text else text.split(" ", 1)
    if len(parts) == 2:
        return parts[0].strip() + "\t" + re.sub(r"\s+", " ", parts[1].strip())
    return parts[0].strip()


def disassemble(path, sections=(".text",)):
    """[(symbol, [(address, cleaned-but-raw text)])] of an ELF's code
    sections, as llvm-objdump prints it (AT&T syntax on x86)."""
    argv = [OBJDUMP, "-d", "--no-show-raw-insn"]
    for s in sections:
        argv += ["-j", s]
    p = subprocess.run(argv + [path], capture_output=True, text=True, errors="replace")
    funcs = []
    cur = None
    for line in p.stdout.splitlines():
        m = SYM_RE.match(line)
        if m:
            cur = (m.group(2), [])
            funcs.append(cur)
            continue
        m = INSN_RE.match(line)
        if m and cur is not None:
            cur[1].append((int(m.group(1), 16), m.group(2).strip()))
    return funcs


BAD_INSN = re.compile(r"\(bad\)|<unknown>|^\.byte|^\.word|^\.long|^udf\b|^invalid", re.I)


# --- Debian source packages as compile units (loops.py, forms.py) -----------
#
# A spec (loop_sources.py, forms_sources.py) maps a source package to its
# files, include directories, -D flags and the small headers a configure
# step would have made; see loop_sources.py for the keys.

import fnmatch  # noqa: E402
import glob  # noqa: E402


def debian_tree(src, pkg):
    """(unpacked source tree, Debian version) of `apt-get source PKG` run in
    src, from its .dsc file (the tree is SOURCE-UPSTREAMVERSION)."""
    for dsc in sorted(glob.glob(os.path.join(src, f"{pkg}_*.dsc"))):
        fields = {}
        for line in open(dsc, errors="replace"):
            m = re.match(r"^(Source|Version):\s*(\S+)", line)
            if m:
                fields[m.group(1)] = m.group(2)
        if fields.get("Source") != pkg:
            continue
        version = fields["Version"]
        upstream = re.sub(r"^\d+:", "", version)
        upstream = re.sub(r"-[^-]*$", "", upstream)
        root = os.path.join(src, f"{pkg}-{upstream}")
        if os.path.isdir(root):
            return root, version
    raise SystemExit(f"no unpacked Debian source package {pkg} in {src} (apt-get source {pkg})")


def spec_files(spec, root):
    """The C files of a spec entry, relative to root, sorted."""
    out = set()
    for pat in spec["files"]:
        for f in glob.glob(os.path.join(root, pat)):
            rel = os.path.relpath(f, root)
            if os.path.isfile(f) and not any(fnmatch.fnmatch(rel, s) for s in spec.get("skip", [])):
                out.add(rel)
    return sorted(out)


def spec_flags(pkg, spec, root, gendir, arch):
    """Compiler flags of a spec entry; writes its generated headers to
    gendir/pkg (first on the include path)."""
    g = os.path.join(gendir, pkg)
    for rel, text in sorted(spec.get("gen", {}).items()):
        _write(os.path.join(g, rel), text)
    for rel, (tmpl, vals) in sorted(spec.get("subst", {}).items()):
        t = open(os.path.join(root, tmpl), errors="replace").read()
        t = re.sub(r"#cmakedefine01\s+(\w+)", lambda m: f"#define {m.group(1)} {vals.get(m.group(1), '0')}", t)
        t = re.sub(r"#cmakedefine\s+(\w+)[^\n]*",
                   lambda m: f"#define {m.group(1)} 1" if vals.get(m.group(1)) == "1" else f"/* #undef {m.group(1)} */", t)
        t = re.sub(r"@\w+@", lambda m: vals.get(m.group(0), ""), t)
        _write(os.path.join(g, rel), t)
    flags = ["-I", g]
    for i in spec.get("inc", []):
        for d in sorted(glob.glob(os.path.join(root, i))):
            if os.path.isdir(d):
                flags += ["-I", os.path.normpath(d)]
    flags += spec.get("defs", []) + spec.get({"x86-64": "defs_x86", "aarch64": "defs_a64"}[arch], [])
    return flags


def _write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    if os.path.exists(path) and open(path).read() == text:
        return
    with open(path, "w") as f:
        f.write(text)


def spread(items, configs, budget, seed):
    """A seeded choice of (item, config) pairs, about `budget` of them,
    spread evenly: every item gets k = budget // len(items) configurations
    (at least 1, at most all), consecutive in a seeded order of the
    configurations so that each is used about as often; if there are more
    items than the budget, a seeded subset of the items gets one each."""
    import random
    rng = random.Random(seed)
    items = sorted(items)
    cfgs = sorted(configs)
    rng.shuffle(cfgs)
    if not items or not cfgs:
        return []
    if len(items) > budget:
        items = sorted(rng.sample(items, budget))
    k = max(1, min(len(cfgs), budget // len(items)))
    out = []
    for i, it in enumerate(items):
        for j in range(k):
            out.append((it, cfgs[(i * k + j) % len(cfgs)]))
    return out
