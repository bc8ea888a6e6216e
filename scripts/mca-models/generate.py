#!/usr/bin/env python3
"""Generates the processor models of `course mca` from LLVM.

    generate.py --forms-x86 X86.s --forms-a64 A64.s --work DIR --out DIR

For each architecture it reads the instruction forms of real code (one
instruction a line, see scripts/mca-corpus/gather-forms.sh), reads every
line with the project's own front end (`asm_forms`, an example of
course-engine) to get its form key, adds neighbours of each form (other
registers, immediates, addressing modes), and asks each LLVM release what it
makes of every line (`dump`, scripts/mca-models/dump.cpp): the LLVM
instruction, its MCInst operands, what the printer prints, and, for every
processor, the descriptor llvm-mca builds and which operand values change it.

From that it derives, per architecture, one *form table* shared by its LLVM
releases (form key -> LLVM instruction, where each MCInst operand comes
from, how the instruction prints; a reading carries the processors whose
release has it) and per processor the descriptors and the rules that pick
one for an instruction; encode.py writes them in the compact form the
binary embeds. Nothing here is written by hand: a rerun on the same LLVM
and forms rewrites the same bytes.
"""

import argparse
import collections
import hashlib
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import encode  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

# The built-in models: name, architecture, LLVM release, -mcpu.
MODELS = [
    ("skylake", "x86", 22, "skylake"),
    ("znver4", "x86", 22, "znver4"),
    ("skylake-llvm14", "x86", 14, "skylake"),
    ("neoverse-v2", "aarch64", 22, "neoverse-v2"),
    ("apple-m1", "aarch64", 22, "apple-m1"),
    ("cortex-a57", "aarch64", 14, "cortex-a57"),
]

TRIPLE = {"x86": "x86_64-unknown-linux-gnu", "aarch64": "aarch64-unknown-linux-gnu"}

# Features the forms are parsed with: a superset, so that every form of
# every processor parses; each processor then says which it accepts.
ATTRS = {
    ("x86", 22): "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx512vnni,+avx512vbmi,+avx512vbmi2,"
    "+avx512bitalg,+avx512vpopcntdq,+avx512bf16,+avx512fp16,+avx512ifma,+gfni,+vaes,+vpclmulqdq,"
    "+sha,+bmi,+bmi2,+adx,+fma,+f16c,+lzcnt,+popcnt,+movbe,+rdrnd,+rdseed,+xsave,+clflushopt,"
    "+clwb,+prfchw,+avxvnni,+cx16,+sse4a,+tbm,+fma4,+xop,+aes,+pclmul,+crc32",
    ("x86", 14): "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx512vnni,+avx512vbmi,+avx512vbmi2,"
    "+avx512bitalg,+avx512vpopcntdq,+avx512bf16,+avx512ifma,+gfni,+vaes,+vpclmulqdq,+sha,+bmi,"
    "+bmi2,+adx,+fma,+f16c,+lzcnt,+popcnt,+movbe,+rdrnd,+rdseed,+xsave,+clflushopt,+clwb,+prfchw,"
    "+avxvnni,+cx16,+sse4a,+tbm,+fma4,+xop,+aes,+pclmul",
    ("aarch64", 22): "+v9.2a,+sve2,+sve2-bitperm,+sve2-aes,+sve2-sha3,+sve2-sm4,+fp16,+dotprod,"
    "+i8mm,+bf16,+lse,+rcpc,+crc,+crypto,+sha3,+sm4,+aes,+fullfp16,+fp16fml,+mte,+sme,+f64mm",
    ("aarch64", 14): "+v8.6a,+sve2,+sve2-bitperm,+sve2-aes,+sve2-sha3,+sve2-sm4,+fp16,+dotprod,"
    "+i8mm,+bf16,+lse,+rcpc,+crc,+crypto,+sha3,+sm4,+aes,+fullfp16,+fp16fml,+mte,+f64mm",
}

# ---------------------------------------------------------------- running


def run_lines(cmd, stdin=None):
    """Runs cmd, returns stdout lines (stderr kept in the log)."""
    p = subprocess.run(cmd, input=stdin, capture_output=True, text=True)
    if p.returncode != 0:
        sys.stderr.write(p.stderr[-2000:])
        raise SystemExit(f"generate.py: {' '.join(cmd[:3])} … failed ({p.returncode})")
    return p.stdout.splitlines(), p.stderr


def asm_forms(exe, path, arch):
    """The front end's reading of every line of path, by line number."""
    out, _ = run_lines([exe, path, "x86" if arch == "x86" else "aarch64"])
    rows = {}
    for line in out:
        d = json.loads(line)
        rows[d["line"]] = d
    return rows


def dump(exe, mode, arch, cpus, path, attrs=""):
    """The dumper's records by line number."""
    out, err = run_lines([exe, mode, TRIPLE[arch], ",".join(cpus), path, attrs])
    rows = {}
    for line in out:
        d = json.loads(line)
        rows.setdefault(d["line"], d)
    return rows, err


# ---------------------------------------------------------------- synthesis

X86_IMMS = ["$1", "$100", "$200", "$1000", "$40000", "$100000", "$3000000000",
            "$10000000000", "$-1", "$-1000", "$-100000"]
X86_MEM_AS_REG = ["%xmm3", "%ymm3", "%zmm3", "%rdx", "%edx"]
# Address registers no other neighbour uses (an accumulator form's %rax as
# a base too would make its template ambiguous).
X86_MEMS = ["(%r14)", "8(%r14)", "(%r14,%r15)", "8(%r14,%r15,4)", "(,%r15,8)", "8(,%r15,8)",
            "foo(%rip)", "-8(%rsp)", "4096(%r14,%r15,8)", "(%r14d)", "foo"]
X86_REG_ALTS = {
    "r64": ["%rcx", "%rax", "%r9"], "r64a": ["%rcx"], "r32": ["%ecx", "%eax", "%r9d"],
    "r32a": ["%ecx"], "r16": ["%cx", "%ax", "%dx"], "r16a": ["%cx"], "r16d": ["%cx"],
    "r8": ["%bl", "%al", "%cl", "%sil"], "r8a": ["%bl"], "r8c": ["%bl"], "r8h": ["%bl"],
    "x": ["%xmm1", "%xmm0", "%xmm9", "%xmm17"], "x0": ["%xmm1", "%xmm9"], "xh": ["%xmm1"],
    "y": ["%ymm1", "%ymm9", "%ymm17"], "yh": ["%ymm1"], "z": ["%zmm1", "%zmm9", "%zmm17"], "k": ["%k2"],
    "st": ["%st"], "st0": ["%st(1)"], "mm": ["%mm1"],
}
A64_IMM_VALUES = [0, 1, 2, 3, 4, 5, 7, 8, 12, 15, 16, 24, 31, 32, 48, 63, 64, 100, 127, 128,
                  255, 256, 257, 511, 512, 1000, 1023, 1024, 2047, 2048, 4095, 4096, 8191,
                  8192, 16380, 16384, 32760, 32768, 65535, 65536, 0x10000, 0xffff0000,
                  0xff00ff, 0x100000000, -1, -2, -4, -8, -16, -32, -64, -128, -255, -256,
                  -257, -512, -4096, -65536]
def a64_class_values():
    """One value of every AArch64 immediate class (sign, signed width up to
    18 bits, trailing zeros up to 4) and 0, so that every class a form
    takes is tried."""
    out = {0}
    for w in range(2, 19):
        base = 1 << (w - 2)
        for tz in range(5):
            v = base if tz >= min(w - 2, 4) else base + (1 << tz)
            if v.bit_length() + 1 == w:
                out.add(v)
            out.add(-v)
    return sorted(out)


A64_CLASS_VALUES = a64_class_values()
A64_ARRS = ["8b", "16b", "4h", "8h", "2s", "4s", "1d", "2d"]
A64_REG_ALTS = {
    "x": ["x9", "sp", "xzr"], "w": ["w9", "wsp", "wzr"], "sp": ["x9"], "wsp": ["w9"],
    "xzr": ["x9"], "wzr": ["w9"], "b": ["h1", "s1", "d1", "q1"], "h": ["b1", "s1", "d1", "q1"],
    "s": ["b1", "h1", "d1", "q1"], "d": ["b1", "h1", "s1", "q1"], "q": ["b1", "h1", "s1", "d1"],
}
A64_MEMS = ["[x0]", "[x0, #8]", "[x0, #-8]", "[x0, #4096]", "[x0, x1]", "[x0, x1, lsl #1]",
            "[x0, x1, lsl #2]", "[x0, x1, lsl #3]", "[x0, x1, lsl #4]", "[x0, x1, sxtx]",
            "[x0, x1, sxtx #3]", "[x0, w1, sxtw]", "[x0, w1, uxtw]", "[x0, w1, sxtw #1]",
            "[x0, w1, uxtw #1]", "[x0, w1, sxtw #2]", "[x0, w1, uxtw #2]", "[x0, w1, sxtw #3]",
            "[x0, w1, uxtw #3]", "[x0, w1, sxtw #4]", "[x0, w1, uxtw #4]", "[sp]", "[sp, #16]",
            "[sp, #-16]!", "[x0, #16]!", "[x0, #-16]!", "[x0, #1]!", "[x0, #-1]!"]
A64_WRITEBACK_VALUES = [1, 2, 3, 4, 8, 12, 16, 24, 32, 48, 64, 128, 255, -1, -4, -8, -16, -32, -64, -256]
A64_EXTENDS = ["uxtb", "uxth", "uxtw", "uxtx", "sxtb", "sxth", "sxtw", "sxtx"]


def join_operands(renders, arch):
    out = ""
    for k, r in enumerate(renders):
        if k == 0:
            out = r
        elif arch == "x86" and r.startswith("{") and k > 0 and not r.startswith("{1to") \
                and not re.match(r"\{r[nduz]-sae\}|\{sae\}", r):
            out += " " + r
        else:
            out += ", " + r
    return out


def line_of(mnemonic, renders, arch):
    if not renders:
        return mnemonic
    return mnemonic + " " + join_operands(renders, arch)


def kinds_of(key, mnemonic):
    rest = key[len(mnemonic):].strip()
    return rest.split(" ") if rest else []


X86_DISTINCT = {
    "r64": ["%rbx", "%rsi", "%rdi", "%r10", "%r11"], "r32": ["%ebx", "%esi", "%edi", "%r10d", "%r11d"],
    "r16": ["%bx", "%si", "%di", "%r10w", "%r11w"], "r8": ["%bl", "%sil", "%dil", "%r10b", "%r11b"],
    "x": ["%xmm2", "%xmm3", "%xmm4", "%xmm5", "%xmm6"], "y": ["%ymm2", "%ymm3", "%ymm4", "%ymm5", "%ymm6"],
    "z": ["%zmm2", "%zmm3", "%zmm4", "%zmm5", "%zmm6"], "k": ["%k2", "%k3", "%k4", "%k5", "%k6"],
    "mm": ["%mm2", "%mm3", "%mm4", "%mm5", "%mm6"],
}


def distinct(row, arch):
    """row's instruction with every register operand a different register
    of its kind (so that a template can tell the operands apart)."""
    mnemonic, renders = row["mnemonic"], row["renders"]
    kinds = kinds_of(row["key"], mnemonic)
    if len(kinds) != len(renders):
        return None
    new, used = list(renders), collections.Counter()
    for k, (kind, r) in enumerate(zip(kinds, renders)):
        if arch == "x86":
            if kind in X86_DISTINCT:
                new[k] = X86_DISTINCT[kind][used[kind] % 5]
                used[kind] += 1
            elif kind.startswith("m[") and "(" in r:
                # The address registers too (r12 and r13 appear nowhere
                # else), so that a base is never the written register.
                def fresh(m):
                    if m.group(1) in ("rip", "eip", "rsp", "esp"):
                        return m.group(0)
                    used["mem"] += 1
                    n = 11 + used["mem"]
                    return f"%r{n}d" if m.group(1).startswith("e") or m.group(1).endswith("d") else f"%r{n}"
                head, paren, tail = r.partition("(")
                new[k] = head + paren + re.sub(r"%(\w+)", fresh, tail)
        else:
            m = re.match(r"([wxbhsdqvz])(\d+)(\.\w+)?(\[\d+\])?$", r)
            if m and kind not in ("sp", "wsp", "xzr", "wzr"):
                n = 1 + used["a64"]
                used["a64"] += 1
                new[k] = f"{m.group(1)}{n}{m.group(3) or ''}{m.group(4) or ''}"
            elif r.startswith("["):
                # The address registers too, numbered apart from the rest.
                def fresh(m):
                    used["mem"] += 1
                    return f"{m.group(1)}{19 + used['mem']}"
                new[k] = re.sub(r"\b([xw])\d+\b", fresh, r)
    if new == renders:
        return None
    return line_of(mnemonic, new, arch)


X86_CC = ["o", "no", "b", "c", "nae", "ae", "nb", "nc", "e", "z", "ne", "nz", "be", "na", "a",
          "nbe", "s", "ns", "p", "pe", "np", "po", "l", "nge", "ge", "nl", "le", "ng", "g", "nle"]
X86_SSE_PRED = ["eq", "lt", "le", "unord", "neq", "nlt", "nle", "ord"]
X86_AVX_PRED = X86_SSE_PRED + ["eq_uq", "nge", "ngt", "false", "neq_oq", "ge", "gt", "true", "eq_os",
                               "lt_oq", "le_oq", "unord_s", "neq_us", "nlt_uq", "nle_uq", "ord_s",
                               "eq_us", "nge_uq", "ngt_uq", "false_os", "neq_os", "ge_oq", "gt_oq",
                               "true_us"]
X86_INT_PRED = ["eq", "lt", "le", "neq", "nlt", "nle", "false", "true"]
A64_CC = ["eq", "ne", "cs", "hs", "cc", "lo", "mi", "pl", "vs", "vc", "hi", "ls", "ge", "lt", "gt",
          "le", "al", "nv"]


# Instructions compilers emit (for builtins and library idioms) that the
# forms sample lacks; their neighbours come with them.
EXTRA = {
    "x86": [f"{m} {a}, {b}" for m in ("sqrtps", "sqrtpd", "vsqrtps", "vsqrtpd")
            for a, b in (("%xmm1", "%xmm0"), ("(%rax)", "%xmm0"))]
    + [f"{m} {r}1, {r}0" for m in ("vsqrtps", "vsqrtpd") for r in ("%ymm", "%zmm")]
    + [f"{m} %xmm2, %xmm1, %xmm0" for m in ("vsqrtss", "vsqrtsd")]
    + [f"{m} %xmm1, %xmm0" for m in ("sqrtss", "sqrtsd")],
    "aarch64": [f"crc32{c}{s} w0, w1, {'x' if s == 'x' else 'w'}2"
                for c in ("", "c") for s in "bhwx"],
}


def family(mnemonic, arch):
    """The mnemonics that differ from `mnemonic` only in a condition or a
    comparison predicate (`jne` → every `jCC`, `vcmpltps` → every
    `vcmpPREDps`, `b.ne` → every `b.COND`)."""
    if arch != "x86":
        m = re.fullmatch(r"(b)\.(\w+)", mnemonic)
        return [f"b.{c}" for c in A64_CC] if m and m.group(2) in A64_CC else []
    if " " in mnemonic:
        return []
    m = re.fullmatch(r"(sal|shl)([bwlq]?)", mnemonic)
    if m:
        return ["sal" + m.group(2), "shl" + m.group(2)]
    m = re.fullmatch(r"(andn|bextr|bzhi|mulx|pdep|pext|rorx|sarx|shlx|shrx)([lq]?)", mnemonic)
    if m:
        return [m.group(1), m.group(1) + "l", m.group(1) + "q"]
    m = re.fullmatch(r"(v?cvt\w*pd2\w+?)([xy]?)", mnemonic)
    if m:
        return [m.group(1), m.group(1) + "x", m.group(1) + "y"]
    m = re.fullmatch(r"(vf(?:n?madd|n?msub|maddsub|msubadd))(132|213|231)(ss|sd|ps|pd|sh|ph)([xyz]?)", mnemonic)
    if m:
        kinds = ["madd", "msub", "nmadd", "nmsub"] if m.group(3) in ("ss", "sd", "sh") \
            else ["madd", "msub", "nmadd", "nmsub", "maddsub", "msubadd"]
        return [f"vf{k}{o}{m.group(3)}{m.group(4)}" for k in kinds for o in ("132", "213", "231")]
    for pat, names in (
        (r"(v?cmp)(" + "|".join(sorted(X86_AVX_PRED, key=len, reverse=True)) + r")(ps|pd|ss|sd)", X86_AVX_PRED),
        (r"(vpcmp)(" + "|".join(sorted(X86_INT_PRED, key=len, reverse=True)) + r")(u?[bwdq])", X86_INT_PRED),
        (r"(j)(" + "|".join(sorted(X86_CC, key=len, reverse=True)) + r")()", X86_CC),
        (r"(set)(" + "|".join(sorted(X86_CC, key=len, reverse=True)) + r")(b?)", X86_CC),
        (r"(cmov)(" + "|".join(sorted(X86_CC, key=len, reverse=True)) + r")([wlq]?)", X86_CC),
    ):
        m = re.fullmatch(pat, mnemonic)
        if m:
            preds = names if m.group(1) != "cmp" else X86_SSE_PRED
            return [m.group(1) + p + m.group(3) for p in preds]
    return []


def neighbours(row, arch):
    """Lines that differ from row's instruction in one operand, and the
    instruction with all its registers different."""
    mnemonic, renders = row["mnemonic"], row["renders"]
    kinds = kinds_of(row["key"], mnemonic)
    if len(kinds) != len(renders):
        return []
    out = []
    d = distinct(row, arch)
    if d:
        out.append(d)
    for m in family(mnemonic, arch):
        if m != mnemonic:
            out.append(line_of(m, renders, arch))
    for k, (kind, r) in enumerate(zip(kinds, renders)):
        alts = []
        if arch == "x86":
            if kind.startswith("i") and r.startswith("$"):
                alts = X86_IMMS
            elif kind.startswith("m["):
                suffix = r[r.rfind("{"):] if r.endswith("}") else ""
                seg = r[:r.find(":") + 1] if r.startswith("%") and ":" in r else ""
                alts = [seg + m + suffix for m in X86_MEMS]
                # The register form beside the memory one (an assembler
                # drops the kinds the mnemonic does not take).
                if not seg and not suffix:
                    alts += X86_MEM_AS_REG
            elif kind in X86_REG_ALTS:
                alts = X86_REG_ALTS[kind]
                # and the memory form beside a register one.
                if kind in ("r64", "r32", "r16", "r8", "x", "y", "z"):
                    alts = alts + ["8(%r14)", "(%r14,%r15,4)"]
        else:
            if kind.startswith("#") and r.startswith("#") and kind != "#f":
                alts = [f"#{v}" for v in sorted(set(A64_IMM_VALUES) | set(A64_CLASS_VALUES))]
            elif kind.startswith("[") and (kind.endswith("]") or kind.endswith("]!")):
                alts = list(A64_MEMS)
                # Every class of offset from the same base (and writeback).
                m = re.match(r"\[(\w+)(?:, #-?\d+)?\](!?)$", r)
                if m:
                    alts += [f"[{m.group(1)}, #{v}]" for v in A64_CLASS_VALUES]
                    alts += [f"[{m.group(1)}, #{v}]!" for v in A64_WRITEBACK_VALUES]
            elif r.split(" ")[0] in A64_EXTENDS:
                alts = [e + a for e in A64_EXTENDS for a in ("", " #1", " #2", " #3", " #4")]
            elif kind.endswith("#") and " #" in r:
                word = r.split(" ")[0]
                alts = [f"{word} #{v}" for v in (0, 1, 2, 3, 4, 8, 12, 16, 24, 32, 48)]
            elif kind.startswith("v."):
                m = re.match(r"v(\d+)\.(\w+)$", r)
                if m:
                    alts = [f"v{m.group(1)}.{a}" for a in A64_ARRS]
            elif kind in A64_REG_ALTS:
                alts = A64_REG_ALTS[kind]
            elif kind == "l":
                # A disassembler prints a target as an address.
                alts = ["0x931000"]
            elif kind == "cond":
                alts = A64_CC
        for a in alts:
            if a == r:
                continue
            new = list(renders)
            new[k] = a
            out.append(line_of(mnemonic, new, arch))
    if arch != "x86":
        # Two register operands of a kind made the same (`csinv w2, w6, w6`
        # prints as `cinv`).
        for i in range(len(kinds)):
            for j in range(i + 1, len(kinds)):
                if kinds[i] == kinds[j] and kinds[i] in A64_REG_ALTS and renders[i] != renders[j]:
                    new = list(renders)
                    new[j] = renders[i]
                    out.append(line_of(mnemonic, new, arch))
    return out


# ---------------------------------------------------------------- templates


class Registers:
    """The registers of an LLVM release's target: relations and classes."""

    def __init__(self, target):
        self.names = [""] + [r[0] for r in target["registers"]]
        self.index = {n: i for i, n in enumerate(self.names)}
        self.sub = {r[0]: set(r[1]) for r in target["registers"]}
        self.sup = {r[0]: set(r[2]) for r in target["registers"]}
        self.classes = {name: set(members) for name, (_, members) in target["classes"].items()}
        # Broad classes first: a relation names the largest class that holds
        # the register and no other relative of the written one.
        self.class_list = sorted(self.classes, key=lambda c: (-len(self.classes[c]), c))

    def relation(self, want, text):
        """How register `want` (of an MCInst) follows from `text` (as written)."""
        if want == text:
            return ("same",)
        if want in self.sub.get(text, ()):
            rel = "sub"
        elif want in self.sup.get(text, ()):
            rel = "super"
        else:
            return None
        kin = self.sub.get(text, set()) | self.sup.get(text, set()) | {text}
        for c in self.class_list:
            members = self.classes[c]
            if want in members and len(members & kin) == 1:
                return (rel, c)
        return None


def reg_candidates(regs, want, parts):
    """The (path, relation) pairs that explain MCInst register `want`."""
    out = set()
    for path, v in parts.items():
        if "r" in v:
            rel = regs.relation(want, v["r"])
            if rel:
                out.add((path,) + rel)
    return out


def path_order(path, arch):
    """Where a part stands in LLVM's operand order, for telling apart parts
    that held the same register: AArch64 keeps the written order; x86's
    AT&T order is the reverse of the MCInst's (the destination last), while
    a memory operand's parts keep LLVM's order (base, scale, index, disp,
    segment)."""
    top, _, sub = path.partition(".")
    rank = {"": 0, "base": 1, "scale": 2, "index": 3, "disp": 4, "seg": 5}.get(sub, 6)
    k = int(top) if top.isdigit() else 0
    return (-k if arch == "x86" else k, rank)


def derive_template(regs, rows, relevant=None, kin=(), arch="x86"):
    """A form's template from its instances [(front end row, dump record)]:
    for each MCInst operand, where it comes from. An immediate that no
    processor's resolution looks at (`relevant`: the operand indices some
    rule reads) is left out, so that forms differing only in it share one
    template. A register operand that several parts explain (the instances
    repeat a register: `ldr x8, [x8, #16]`) is told apart by `kin`, the
    instances of the same opcode under forms that differ only in an
    immediate's class, and failing that by the part no earlier operand
    took."""
    n = len(rows[0][1]["operands"])
    tmpl = []
    taken = set()
    for j in range(n):
        ops = [d["operands"][j] for _, d in rows]
        first = ops[0]
        if "r" in first and all("r" in o for o in ops):
            if all(o.get("r") == first["r"] for o in ops) and all(
                    not reg_candidates(regs, o["r"], a["parts"]) for (a, _), o in zip(rows, ops)):
                tmpl.append(["reg", first["r"]])
                continue
            cands = None
            for (a, _), o in zip(rows, ops):
                c = reg_candidates(regs, o.get("r", ""), a["parts"]) if o.get("r") else None
                if c is None:
                    continue
                cands = c if cands is None else cands & c
            if not cands:
                return None, f"operand {j}: no register of the text gives {first['r']}"
            if len(cands) > 1:
                narrowed = set(cands)
                for a, d in kin:
                    o = d["operands"][j] if j < len(d["operands"]) else {}
                    if "r" in o:
                        c = reg_candidates(regs, o["r"], a["parts"])
                        if narrowed & c:
                            narrowed &= c
                cands = narrowed
            # Several parts remain only when they held the same register in
            # every instance: the first part not yet taken.
            best = sorted(cands, key=lambda c: (c[1] != "same", c[0] in taken, path_order(c[0], arch)))[0]
            if len(cands) > 1:
                AMBIGUOUS.append((rows[0][0]["source"], j, sorted(c[0] for c in cands)))
            taken.add(best[0])
            tmpl.append(["from"] + list(best))
        elif relevant is not None and j not in relevant:
            tmpl.append(["other"])
        elif all("i" in o for o in ops):
            values = [o["i"] for o in ops]
            if len(set(values)) == 1:
                tmpl.append(["imm", first["i"]])
                continue
            fit = fit_affine(rows, j)
            wide = fit_movewide(rows, j) if fit is None else None
            if fit is not None:
                tmpl.append(["affine"] + list(fit))
            elif wide is not None:
                tmpl.append(["movewide"] + list(wide))
            else:
                tmpl.append(["imm?"])
                if relevant and j in relevant:
                    AMBIGUOUS.append((rows[0][0]["source"], j, ["an immediate a rule reads"]))
        else:
            tmpl.append(["other"])
    return tmpl, None


def fit_affine(rows, j):
    """An immediate part p and (a, b) with MCInst imm = a*p + b (a may be
    1/n: scaled offsets) over all instances, or None."""
    paths = None
    for a, _ in rows:
        ps = {p for p, v in a["parts"].items() if "i" in v}
        paths = ps if paths is None else paths & ps
    for p in sorted(paths or ()):
        pts = [(a["parts"][p]["i"], d["operands"][j]["i"]) for a, d in rows]
        xs = {x for x, _ in pts}
        if len(xs) < 2:
            continue
        (x0, y0), (x1, y1) = sorted(set(pts))[:2]
        if x1 == x0:
            continue
        for num, den in [(1, 1), (1, 2), (1, 4), (1, 8), (1, 16), (-1, 1), (1, 3)]:
            b = y0 * den - num * x0
            if all(y * den == num * x + b for x, y in pts) and b % den == 0:
                return (p, num, den, b // den)
    return None


def movewide(v, inverted, bits, field):
    """AArch64 `mov Rd, #v` as MOVZ/MOVN: the 16-bit chunk (field 0) or its
    shift (field 1) of v (of ~v when inverted), or None when v is not one
    chunk."""
    mask = (1 << bits) - 1
    u = (~v if inverted else v) & mask
    for k in range(bits // 16):
        if u & ~(0xffff << (16 * k)) & mask == 0:
            return (u >> (16 * k)) & 0xffff if field == 0 else 16 * k
    return None


def fit_movewide(rows, j):
    """An immediate part p and (inverted, bits, field) with MCInst imm =
    movewide(p, …) over all instances, or None."""
    paths = None
    for a, _ in rows:
        ps = {p for p, v in a["parts"].items() if "i" in v}
        paths = ps if paths is None else paths & ps
    for p in sorted(paths or ()):
        for inv in (0, 1):
            for bits in (32, 64):
                for field in (0, 1):
                    if all(movewide(a["parts"][p]["i"], inv, bits, field) == d["operands"][j]["i"]
                           for a, d in rows):
                        return (p, inv, bits, field)
    return None


# How an immediate may print: its value as written, in hex, or masked to
# the width of its field (an unsigned 8-bit shift count, a 32-bit bitmask).
FORMATS = ["", "x", "u8", "u16", "u32", "x8", "x16", "x32", "x64", "c", "w"]
# AArch64 conditions LLVM prints under another name.
A64_COND_ALIAS = {"cs": "hs", "cc": "lo"}


def imm_text(r, fmt):
    """Operand rendering r ("$-1", "#16") printed with format fmt, or None."""
    if fmt == "c":
        # An AArch64 condition as LLVM prints it (`cc` → `lo`).
        return A64_COND_ALIAS.get(r, r) if r in A64_CC else None
    if fmt == "w":
        # An X register printed as its W half (`tbz x1, #3` → `w1`).
        m = re.fullmatch(r"x(\d+|zr)", r)
        return f"w{m.group(1)}" if m else None
    m = re.match(r"([#$])(-?\d+)$", r)
    if not m:
        return r if fmt == "" else None
    sigil, v = m.group(1), int(m.group(2))
    if fmt == "":
        return r
    if fmt == "x":
        return f"{sigil}{'-' if v < 0 else ''}0x{abs(v):x}"
    bits = int(fmt[1:])
    u = v & ((1 << bits) - 1)
    if fmt[0] == "u":
        return f"{sigil}{u}"
    return f"{sigil}0x{u:x}"


def split_head(text):
    """The mnemonic part (with prefixes) and the operand part of a print."""
    if "\t" not in text:
        return text, None
    k = text.rfind("\t")
    return text[:k], text[k + 1:]


def escape(t):
    return t.replace("{", "{{").replace("}", "}}")


def print_template(row, printed, arch):
    """How the instruction prints, from its operands' renderings: a string
    with {k} (operand k as rendered) or {k:F} (its immediate in format F),
    and {k:s12} (a shifted 12-bit immediate: `#v>>12, lsl #12`)."""
    text = printed.strip()
    renders = row["renders"]
    head, tail = split_head(text)
    if tail is None:
        return escape(text)
    pieces, seps = split_printed(tail, arch)
    used = set()
    out = []
    i = 0
    while i < len(pieces):
        piece = pieces[i]
        slot = None
        for k, r in enumerate(renders):
            if k in used:
                continue
            for fmt in FORMATS:
                if imm_text(r, fmt) == piece:
                    slot = f"{{{k}{':' + fmt if fmt else ''}}}"
                    break
            if slot is None and i + 1 < len(pieces) and shifted12(r) == (piece, pieces[i + 1]):
                slot = f"{{{k}:s12}}"
                del seps[i + 1]
                i += 1
            if slot:
                used.add(k)
                break
        out.append(slot or escape(piece))
        i += 1
    body = ""
    for k, s in enumerate(out):
        body += seps[k] + s
    return escape(head) + "\t" + body


def shifted12(r):
    m = re.match(r"#(\d+)$", r)
    if not m:
        return None
    v = int(m.group(1))
    if v == 0 or v % 4096:
        return None
    return (f"#{v >> 12}", "lsl #12")


def split_printed(tail, arch):
    """The printed operands and the separator before each ("" first, then
    ", " or, before an x86 decoration, " ")."""
    out, seps, depth, cur = [], [""], [], ""
    depth = 0
    k = 0
    while k < len(tail):
        c = tail[k]
        if depth == 0 and tail.startswith(", ", k):
            out.append(cur)
            seps.append(", ")
            cur = ""
            k += 2
            continue
        if depth == 0 and arch == "x86" and c == " " and tail.startswith("{", k + 1):
            out.append(cur)
            seps.append(" ")
            cur = ""
            k += 1
            continue
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        cur += c
        k += 1
    out.append(cur)
    return out, seps


def apply_print(tmpl, row, arch):
    renders = row["renders"]

    def sub(m):
        k = int(m.group(1))
        fmt = m.group(2) or ""
        if k >= len(renders):
            return "\0"
        if fmt == "s12":
            p = shifted12(renders[k])
            return f"{p[0]}, {p[1]}" if p else "\0"
        return imm_text(renders[k], fmt) or "\0"
    s = re.sub(r"(?<!\{)\{(\d+)(?::(\w+))?\}(?!\})", sub, tmpl)
    return s.replace("{{", "{").replace("}}", "}")


# ---------------------------------------------------------------- main


def pack(text_dir, out_dir, names):
    """Compresses each table (zlib, level 9: the same bytes for the same
    text) into out_dir as NAME.z."""
    import zlib
    for name in names:
        with open(os.path.join(text_dir, name), "rb") as f:
            data = zlib.compress(f.read(), 9)
        with open(os.path.join(out_dir, name + ".z"), "wb") as f:
            f.write(data)



def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--forms-x86", required=True)
    ap.add_argument("--forms-a64", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--asm-forms", default=os.path.join(ROOT, "target/release/examples/asm_forms"))
    ap.add_argument("--dump14", default=os.path.join(ROOT, "target/mca-dump/dump14"))
    ap.add_argument("--dump22", default=os.path.join(ROOT, "target/mca-dump/dump22"))
    ap.add_argument("--per-key", type=int, default=3)
    ap.add_argument("--reuse", action="store_true",
                    help="reuse the dumps of an earlier run when the instances did not change")
    ap.add_argument("--arch", choices=["x86", "aarch64"],
                    help="build the tables of one architecture only")
    args = ap.parse_args()
    os.makedirs(args.work, exist_ok=True)
    os.makedirs(args.out, exist_ok=True)
    for arch, forms in (("x86", args.forms_x86), ("aarch64", args.forms_a64)):
        if args.arch in (None, arch):
            build_arch(args, arch, forms)


def build_arch(args, arch, forms):
    log = open(os.path.join(args.work, f"{arch}.log"), "w")
    # The forms read, and the few instructions of EXTRA the sample missed.
    with open(forms) as f:
        text = f.read()
    forms_all = os.path.join(args.work, f"{arch}-forms.s")
    with open(forms_all, "w") as f:
        f.write(text.rstrip("\n") + "\n" + "\n".join(EXTRA[arch]) + "\n")
    rows = asm_forms(args.asm_forms, forms_all, arch)
    by_key = collections.defaultdict(list)
    for n in sorted(rows):
        r = rows[n]
        if "error" in r:
            log.write(f"front end refuses line {n}: {r['source']}: {r['error']}\n")
            continue
        if len(by_key[r["key"]]) < args.per_key:
            by_key[r["key"]].append(r)
    lines = []
    seen = set()

    def add(line):
        if line not in seen:
            seen.add(line)
            lines.append(line)
    for key in sorted(by_key):
        for r in by_key[key]:
            add(line_of(r["mnemonic"], r["renders"], arch))
    for key in sorted(by_key):
        for line in neighbours(by_key[key][0], arch):
            add(line)
    inst_path = os.path.join(args.work, f"{arch}-instances.s")
    with open(inst_path, "w") as f:
        f.write("\n".join(lines) + "\n")
    print(f"{arch}: {len(by_key)} forms read, {len(lines)} lines with neighbours", file=sys.stderr)
    front = asm_forms(args.asm_forms, inst_path, arch)
    releases = []
    for version in (22, 14):
        cpus = [(name, cpu) for name, a, v, cpu in MODELS if a == arch and v == version]
        releases.append(build_version(args, arch, version, cpus, inst_path, front, log))
    text_dir = os.path.join(args.work, "tables")
    os.makedirs(text_dir, exist_ok=True)
    mine = [f"{arch}.forms"] + [f"{name}.model" for name, a, _, _ in MODELS if a == arch]
    with open(forms, "rb") as f:
        encode.SOURCE = f" and the forms {os.path.basename(forms)} (sha256 {hashlib.sha256(f.read()).hexdigest()[:16]})"
    counts = encode.write_tables(text_dir, arch, releases, log)
    pack(text_dir, args.out, mine)
    print(f"  {arch}: {json.dumps(counts)}", file=sys.stderr)


def is_ext(name):
    """An x86-64 register that needs a REX or VEX.R/B bit (r8-r15, xmm8-15)."""
    m = re.match(r"(?:R|XMM|YMM|ZMM)(\d+)", name or "")
    return bool(m) and 8 <= int(m.group(1)) <= 15


def relevant_operands(recs):
    """For each opcode, the MCInst operands whose value some processor's
    resolution looks at (a feature of its probes)."""
    out = collections.defaultdict(set)
    for d in recs.values():
        for c in d["cpus"].values():
            for f in c.get("probe", {}).get("features", []):
                if "op" in f:
                    out[d["opcode"]].add(f["op"])
    return out


RELEVANT = {}
# Templates whose register operands the instances could not tell apart.
AMBIGUOUS = []


def single_form(regs, items, cpus, arch, kin=()):
    """One opcode, template and print for all items, or why not (`kin`: see
    derive_template)."""
    opcodes = {d["opcode"] for _, d in items}
    if len(opcodes) > 1:
        return None, f"several opcodes {sorted(opcodes)}"
    op = items[0][1]["opcode"]
    kin = [(a, d) for a, d in kin if d["opcode"] == op]
    tmpl, why = derive_template(regs, items, RELEVANT.get(op, set()), kin, arch)
    if tmpl is None:
        return None, why
    prints = {}
    for name, cpu in cpus:
        pr = best_print(items, cpu, arch)
        if pr is not None:
            prints[name] = pr
    return {"opcode": items[0][1]["opcode"], "template": tmpl, "print": prints}, None


def best_print(items, cpu, arch):
    """The print template that reproduces the most items' prints (all, or
    failing that the most, if more than half), or None."""
    cands = []
    for a, d in items:
        t = print_template(a, d["cpus"][cpu]["print"], arch)
        if t not in cands:
            cands.append(t)
    best, hits = None, 0
    for t in cands:
        n = sum(apply_print(t, a, arch) == d["cpus"][cpu]["print"].strip() for a, d in items)
        if n > hits:
            best, hits = t, n
    return best if hits * 2 > len(items) else None


def prints_all(form, items, cpus, arch):
    """Whether form's print templates reproduce every item's print."""
    for name, cpu in cpus:
        t = form["print"].get(name)
        if t is None:
            continue
        if any(apply_print(t, a, arch) != d["cpus"][cpu]["print"].strip() for a, d in items
               if cpu in d["cpus"]):
            return False
    return True


def split_by_same(regs, items, cpus, arch, kin):
    """Forms guarded by two register parts being the same register, when
    that is what tells the prints apart, or None."""
    paths = None
    for a, _ in items:
        ps = {p for p, v in a["parts"].items() if "r" in v}
        paths = ps if paths is None else paths & ps
    for pa in sorted(paths or ()):
        for pb in sorted(paths or ()):
            if pa >= pb:
                continue
            g = [(a, d) for a, d in items if a["parts"][pa]["r"] == a["parts"][pb]["r"]]
            n = [(a, d) for a, d in items if a["parts"][pa]["r"] != a["parts"][pb]["r"]]
            if not g or not n:
                continue
            fg, _ = single_form(regs, g, cpus, arch, kin)
            fn, _ = single_form(regs, n, cpus, arch, kin)
            if fg and fn and prints_all(fg, g, cpus, arch) and prints_all(fn, n, cpus, arch):
                return [(["=", pa, pb], fg), (None, fn)]
    return None


def guarded_forms(regs, items, cpus, arch, kin=()):
    """Forms that depend on which written registers are extended (x86-64
    VEX forms LLVM commutes or reverses for a shorter encoding): a list of
    (guard, form), the last with guard None."""
    one, why = single_form(regs, items, cpus, arch, kin)
    if one and not prints_all(one, items, cpus, arch):
        # An alias LLVM prints when two registers are the same (`csinv w2,
        # w6, w6, ge` is `cinv w2, w6, lt`).
        split = split_by_same(regs, items, cpus, arch, kin)
        if split:
            return split, None
    if one:
        return [(None, one)], None
    if arch != "x86":
        return None, why
    paths = None
    for a, _ in items:
        ps = {p for p, v in a["parts"].items() if "r" in v}
        paths = ps if paths is None else paths & ps
    for pa in sorted(paths or ()):
        for pb in sorted(paths or ()):
            if pa == pb:
                continue
            g = [(a, d) for a, d in items if is_ext(a["parts"][pa]["r"]) and not is_ext(a["parts"][pb]["r"])]
            n = [(a, d) for a, d in items if not (is_ext(a["parts"][pa]["r"]) and not is_ext(a["parts"][pb]["r"]))]
            if not g or not n:
                continue
            fg, _ = single_form(regs, g, cpus, arch)
            fn, _ = single_form(regs, n, cpus, arch)
            if fg and fn:
                return [([">", pa, pb], fg), (None, fn)], None
    return None, why


def build_version(args, arch, version, cpus, inst_path, front, log):
    exe = args.dump22 if version == 22 else args.dump14
    names = [cpu for _, cpu in cpus]
    cache = os.path.join(args.work, f"{arch}-llvm{version}.dump.json")
    with open(inst_path, "rb") as f:
        digest = hashlib.sha256(f.read()).hexdigest()
    stamp = [digest, os.path.getmtime(exe)]
    cached = None
    if args.reuse and os.path.exists(cache):
        with open(cache) as f:
            cached = json.load(f)
        if cached.get("stamp") != stamp:
            cached = None
    if cached:
        recs = {int(n): d for n, d in cached["recs"].items()}
        accepted = {m: set(v) for m, v in cached["accepted"].items()}
    else:
        recs, err = dump(exe, "forms", arch, names, inst_path, ATTRS[(arch, version)])
        log.write(f"--- LLVM {version} parse errors:\n{err[-20000:]}\n")
        # Which lines each processor's own features accept (llvm-mca parses
        # with -mcpu's features).
        accepted = {}
        for name, cpu in cpus:
            k, _ = dump(exe, "kernel", arch, [cpu], inst_path)
            accepted[name] = set(k)
        with open(cache, "w") as f:
            json.dump({"stamp": stamp, "recs": recs, "accepted": {m: sorted(v) for m, v in accepted.items()}}, f)
    model_out, _ = run_lines([exe, "model", TRIPLE[arch], ",".join(names)])
    target = json.loads(model_out[0])["target"]
    procs = {json.loads(l)["cpu"]: json.loads(l) for l in model_out[1:]}
    regs = Registers(target)
    RELEVANT.clear()
    RELEVANT.update(relevant_operands(recs))
    # Group the instances by form key.
    groups = collections.defaultdict(list)
    for n, d in recs.items():
        a = front.get(n)
        if not a or "error" in a:
            continue
        groups[a["key"]].append((n, a, d))
    # Forms that differ only in an immediate's class, for telling repeated
    # registers apart.
    siblings = collections.defaultdict(list)
    for key, items in groups.items():
        siblings[encode.split_key(key, arch)[0]].extend((a, d) for _, a, d in items)
    forms = {}
    problems = collections.Counter()
    for key, items in sorted(groups.items()):
        pairs = [(a, d) for _, a, d in items]
        kin = siblings[encode.split_key(key, arch)[0]]
        variants, why = guarded_forms(regs, pairs, cpus, arch, kin)
        if variants is None:
            # Keep the majority opcode's instances; the rest are logged.
            opcodes = collections.Counter(d["opcode"] for _, d in pairs)
            top = opcodes.most_common(1)[0][0]
            mine = [(a, d) for a, d in pairs if d["opcode"] == top]
            variants, why2 = guarded_forms(regs, mine, cpus, arch, kin)
            problems["form not exact"] += 1
            log.write(f"LLVM {version}: key {key!r}: {why}\n")
            if variants is None:
                problems["form dropped"] += 1
                log.write(f"LLVM {version}: key {key!r} dropped: {why2}\n")
                continue
        models = sorted(name for name, _ in cpus if any(n in accepted[name] for n, _, _ in items))
        forms[key] = {"variants": variants, "models": models, "lines": [n for n, _, _ in items]}
    for src, j, cands in AMBIGUOUS:
        log.write(f"LLVM {version}: ambiguous operand {j} of {src!r}: {cands}\n")
    problems["ambiguous operands"] = len(AMBIGUOUS)
    AMBIGUOUS.clear()
    print(f"  LLVM {version}: {len(forms)} forms; problems {dict(problems)}", file=sys.stderr)
    return (version, cpus, forms, target, procs, recs)


if __name__ == "__main__":
    main()
