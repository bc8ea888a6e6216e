#!/usr/bin/env python3
"""Model rows for the instructions a `course mca` model lacks, from LLVM.

    scripts/mca-rows.py MODEL.yaml TRIPLE CPU FOLDER...

For every instruction of the `.s` files in FOLDER(s) (for AArch64 give the
model's tests/data/mca-corpus folder too, so that no row disturbs it),
compares what
`course mca --instruction-tables` says (micro-ops, latency, RThroughput,
may-load/may-store, resource pressure) with what `llvm-mca-14
--instruction-tables` says. An instruction the model has no class for, or
one whose class disagrees, gets a generated class: llvm-mca's micro-ops and
latency, its resource pressure decomposed into the model's resources and
groups (the largest group first) as `uses:`, the lab form the instruction
lowers to as `forms:`, and for a folded load with register sources the
ReadAdvance of LLVM's ReadAfterLd (X86: 5 for general and scalar registers,
6 for xmm, 7 for ymm; AArch64 models have no folded loads). On AArch64 a
row for an instruction a hand-written class already takes is kept only
when it lowers the number of instructions that disagree with llvm-mca, and
never when that class has a ReadAdvance or a zero idiom. The rows go at
the end of MODEL.yaml between the markers below; a rerun replaces them, so
fix a row by hand only after moving it above the markers.

Environment: COURSE (default target/debug/course), LLVM_MCA (llvm-mca-14).
"""
import os
import re
import subprocess
import sys

import yaml
from fractions import Fraction

BEGIN = "  # ---- generated rows: scripts/mca-rows.py"
END = "  # ---- end of generated rows"
COURSE = os.environ.get("COURSE", "target/debug/course")
MCA = os.environ.get("LLVM_MCA", "llvm-mca-14")


def run(cmd):
    p = subprocess.run(cmd, capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def tables(text):
    """Instruction rows and pressure rows of an --instruction-tables text."""
    info, pressure, names = [], [], []
    lines = text.splitlines()
    mode = None
    for l in lines:
        if l.startswith("[1]    [2]    [3]"):
            mode = "info"
            continue
        if l.startswith("Resources:"):
            mode = "res"
            continue
        if l.startswith("Resource pressure by instruction:"):
            mode = "pressure"
            continue
        if mode == "info":
            if not l.strip():
                mode = None
                continue
            f = l.split()
            info.append((int(f[0]), int(f[1]), f[2], "*" in l[22:29], "*" in l[29:36]))
        elif mode == "res":
            m = re.match(r"\[[\d.]+\]\s+- (\w+)", l)
            if m:
                names.append(m.group(1))
        elif mode == "pressure":
            if l.startswith("["):
                continue
            if not l.strip():
                break
            cells = l.split()[: len(names)]
            row = {}
            for n, c in zip(names, cells):
                if c != "-":
                    row[n] = row.get(n, Fraction(0)) + Fraction(c)
            pressure.append(row)
    return info, pressure


def same_pressure(a, b):
    """Equal resource pressure, up to the rounding of llvm-mca's two
    decimals per unit (three units at 0.33 print 0.99, not 1)."""
    keys = set(a) | set(b)
    return all(abs(a.get(k, 0) - b.get(k, 0)) <= Fraction(3, 100) for k in keys)


def region_lines(path):
    """(line number, instruction text) of the instructions of a kernel."""
    out = []
    inside = None
    for i, l in enumerate(open(path).read().splitlines(), 1):
        t = l.strip()
        if "LLVM-MCA-BEGIN" in t:
            inside = True
            continue
        if "LLVM-MCA-END" in t:
            inside = False
            continue
        if inside is False or t.startswith(("#", "//", ".")) or not t or re.match(r"^[.\w$]+:$", t):
            continue
        out.append((i, t))
    return out


def shape_of_lab(line):
    """The form of a lowered lab operation: `r = r, m`."""
    body = line.split("   #")[0].split(": ", 1)[1]
    dest = None
    if " = " in body:
        dest, body = body.split(" = ", 1)
    parts = body.split(None, 1)
    ops = []
    if len(parts) > 1:
        depth, cur = 0, ""
        for ch in parts[1]:
            if ch == "[":
                depth += 1
            if ch == "]":
                depth -= 1
            if ch == "," and depth == 0:
                ops.append(cur.strip())
                cur = ""
            else:
                cur += ch
        ops.append(cur.strip())
    kinds = []
    for o in ops:
        if o.startswith("["):
            kinds.append("m")
        elif re.match(r"^-?\d+$", o):
            kinds.append("i")
        else:
            kinds.append("r")
    s = ", ".join(kinds)
    if not dest:
        return s
    dests = ", ".join("r" for _ in dest.split(","))
    return f"{dests} = {s}" if s else dests


def model_resources_text(text):
    kinds, groups = {}, {}
    for l in text.splitlines():
        m = re.match(r"\s*- \{ name: (\w+), capacity: (\d+)", l)
        if m:
            kinds[m.group(1)] = int(m.group(2))
        m = re.match(r"\s*- \{ name: (\w+), group: \[([\w, ]+)\]", l)
        if m and "buffer_size" not in l:
            groups[m.group(1)] = [x.strip() for x in m.group(2).split(",")]
    # Multi-line groups (`group: [...]` on its own line).
    # Multi-line groups are the scheduler queues (SKLPortAny): no write
    # resource of LLVM's names them, so they are left out.
    return kinds, groups


def decompose(row, kinds, groups):
    """Resource pressure (per kind, summed over its units) as `uses`."""
    left = dict(row)
    uses = []
    order = sorted(groups.items(), key=lambda g: -len(g[1]))
    for name, members in order:
        if all(left.get(k, 0) > Fraction(1, 50) for k in members):
            low = min(left[k] for k in members)
            cycles = round(low * len(members))
            if cycles < 1:
                continue
            for k in members:
                left[k] -= Fraction(cycles, len(members))
            uses.append((name, cycles))
    for k in sorted(left, key=lambda k: list(kinds).index(k) if k in kinds else 99):
        v = left[k]
        if v > Fraction(1, 50):
            uses.append((k, round(v)))
    return uses


def width_of(text):
    m = re.search(r"^issue_width: (\d+)", text, re.M)
    return int(m.group(1)) if m else 1 << 16


def advance(text, shape, dialect):
    if dialect != "x86" or "m" not in shape or not shape.startswith("r =") or "r" not in shape[3:]:
        return None
    if "%ymm" in text:
        return 7
    mnem = text.split()[0]
    if "%xmm" in text and not re.search(r"s[sd]$", mnem):
        return 6
    return 5


def main():
    model, triple, cpu = sys.argv[1:4]
    folders = sys.argv[4:]
    dialect = "x86" if triple.startswith("x86") else "a64"
    text = open(model).read()
    if BEGIN in text:
        # A rerun keeps each row's lab opcode where its class comes back.
        for name, op in re.findall(r"name: (\w+),.*?opcodes: \[([\w.]+)\]", text[text.index(BEGIN):]):
            PREVIOUS[name] = op
        text = text[: text.index(BEGIN)].rstrip("\n") + "\n"
        open(model, "w").write(text)
    version = run([MCA, "--version"])[1]
    vm = re.search(r"LLVM version ([\d.]+)", version)
    version = vm.group(1) if vm else "?"
    rows = {}
    names = set(re.findall(r"name: (\w+)", text))
    hand = yaml.safe_load(text)["classes"]
    # Classes whose reads are not plain (ReadAdvance, zero idioms): an
    # instruction they take keeps them.
    special = {o: c["name"] for c in hand if "read_advance" in c or "zero_idiom" in c for o in c["opcodes"]}
    for rnd in range(3):
        missing, differs, base_count, base_chosen, base_every = scan(model, triple, cpu, folders, dialect)
        added = 0
        for key, info in missing + differs:
            if key in rows:
                continue
            row = make_row(key, info, rows, names, text, dialect)
            if row is None:
                rows[key] = None
                continue
            if info["opcode"] is not None and dialect != "x86":
                # AArch64: the generated names rank against the hand-written
                # classes less surely than on x86, so a row for an instruction
                # a class already takes stays only if fewer instructions
                # disagree with llvm-mca with it than without it.
                # (A vector class for another arrangement is not the
                # instruction's: FMLAv2f64 for `fmla v0.4s, …`.)
                width = key[2]
                if info["opcode"] in special and not (width.startswith("v") and width not in special[info["opcode"]]):
                    continue
                rows[key] = row
                write(model, text, rows, version, cpu)
                _, _, count, chosen, every = scan(model, triple, cpu, folders, dialect)
                # A row that takes instructions of other keys (FMULSrrr
                # taking `fmul d0, …` from the class named for vectors)
                # comes with rows of their own for those keys.
                bundle = [key]
                for at, (k2, opcode, info2) in every.items():
                    if k2 != key and k2 not in rows and opcode == row["opcode"] and base_every.get(at, (0, None))[1] != opcode:
                        r2 = make_row(k2, info2, rows, names, text, dialect)
                        if r2 is not None:
                            rows[k2] = r2
                            bundle.append(k2)
                if len(bundle) > 1:
                    write(model, text, rows, version, cpu)
                    _, _, count, chosen, every = scan(model, triple, cpu, folders, dialect)
                # Nor may it take an instruction of a kernel of the
                # differential corpus from the class its lab form names.
                if count >= base_count or chosen != base_chosen:
                    for k2 in bundle:
                        names.discard(rows[k2]["name"])
                        del rows[k2]
                    write(model, text, rows, version, cpu)
                    continue
                base_count, base_chosen, base_every = count, chosen, every
                added += len(bundle) - 1
            rows[key] = row
            added += 1
        write(model, text, rows, version, cpu)
        if not added:
            break
    if dialect != "x86":
        accumulator_advances(rows, triple, cpu)
        write(model, text, rows, version, cpu)
    print(f"mca-rows: {model}: {len([r for r in rows.values() if r])} generated rows", file=sys.stderr)


def accumulator_advances(rows, triple, cpu):
    """The ReadAdvance of each generated accumulating row's accumulator for
    every generated row writing a vector register (A57's FMLA reads an
    FMUL's result 3 cycles early): the producer, its destination renamed
    to the accumulator, then the row's instruction; the advance is the
    producer's latency minus the cycles between their issues."""
    vector = [r for r in rows.values() if r and r["shape"].startswith("r =") and re.match(r"\w+\s+v\d+\.", r["insn"])]
    for r in rows.values():
        if not r or r["insn"].split()[0] not in ACCUMULATES or not r["shape"].startswith("r = r"):
            continue
        ops = [o.strip() for o in r["insn"].split(None, 1)[1].split(",")]
        acc = ops[0]
        reg = acc.split(".")[0]
        if any(o.split(".")[0] == reg for o in ops[1:]):
            continue
        by_cycles = {}
        for p in vector:
            pops = [o.strip() for o in p["insn"].split(None, 1)[1].split(",")]
            if any(o.split(".")[0] == reg for o in pops[1:]):
                continue
            producer = p["insn"].split()[0] + "\t" + ", ".join([acc] + pops[1:])
            gap = pair_gap(producer, r["insn"], triple, cpu)
            if gap is not None and gap < p["latency"]:
                by_cycles.setdefault(p["latency"] - gap, []).append(p["name"])
        if by_cycles:
            entries = [f"{{ cycles: {c}, operands: [0], writes: [{', '.join(sorted(n))}] }}" for c, n in sorted(by_cycles.items(), reverse=True)]
            r["adv"] = "[" + ", ".join(entries) + "]"
        else:
            r["adv"] = None


def pair_gap(first, second, triple, cpu):
    """The cycles between the issues of `first` and `second` (which reads
    its result), on llvm-mca's timeline of one iteration."""
    path = f"/tmp/mca-rows-probe-{os.getpid()}.s"
    open(path, "w").write(f"\t{first}\n\t{second}\n")
    rc, tl, _ = run([MCA, f"-mtriple={triple}", f"-mcpu={cpu}", "-iterations=1", "-timeline", path])
    rows = [l for l in tl.splitlines() if l.startswith("[0,")]
    if rc != 0 or len(rows) != 2:
        return None
    a, b = first_issue(rows[0]), first_issue(rows[1])
    return None if a is None or b is None else b - a


def scan(model, triple, cpu, folders, dialect):
    """Instructions no class takes, instructions whose class disagrees
    with llvm-mca (each with its key and figures), how many disagree, and
    the lab opcode of each instruction of the differential corpus's
    kernels (folders under mca-corpus/)."""
    missing, differs, count, chosen, every = [], [], 0, {}, {}
    for folder in folders:
        for f in sorted(os.listdir(folder)):
            if not f.endswith(".s"):
                continue
            path = os.path.join(folder, f)
            insns = region_lines(path)
            _, theirs, _ = run([MCA, f"-mtriple={triple}", f"-mcpu={cpu}", "--instruction-tables", path])
            t_info, t_pr = tables(theirs)
            if len(t_info) != len(insns):
                print(f"mca-rows: {path}: {len(t_info)} rows from llvm-mca, {len(insns)} instructions", file=sys.stderr)
                continue
            rc, ours, _ = run([COURSE, "mca", "--machine", model, "--skip-unsupported", "--instruction-tables", path])
            _, lab, _ = run([COURSE, "mca", "--machine", model, "--skip-unsupported", "--emit-lab", path])
            _, _, err = run([COURSE, "mca", "--machine", model, "--skip-unsupported", "-iterations=1", path])
            skipped = {}
            for l in err.splitlines():
                m = re.match(r"note: .*?:(\d+):\d+: (.*)", l)
                if m:
                    skipped[int(m.group(1))] = m.group(2)
            o_info, o_pr = tables(ours) if rc == 0 else ([], [])
            lab_lines = lab.splitlines()
            if "mca-corpus" in folder:
                chosen[path] = [l.split("   #")[0].split(" = ", 1)[-1].split(": ", 1)[-1].split()[:1] for l in lab_lines[1:]]
            k = 0
            for idx, (n, insn) in enumerate(insns):
                opcode = None
                if n in skipped:
                    msg = skipped[n]
                    sm = re.search(r"shape '([^']*)'|for '([^']*)'", msg)
                    if not sm:
                        continue
                    shape = sm.group(1) if sm.group(1) is not None else sm.group(2)
                    target = missing
                else:
                    ok = k < len(o_info) and o_info[k] == t_info[idx] and same_pressure(o_pr[k], t_pr[idx])
                    line = lab_lines[n] if n < len(lab_lines) else ""
                    k += 1
                    if ": " not in line:
                        continue
                    shape = shape_of_lab(line)
                    body = line.split("   #")[0].split(": ", 1)[1]
                    opcode = body.split(" = ", 1)[-1].split()[0]
                    every[(path, n)] = (key_of(insn, shape, dialect), opcode, dict(
                        insn=insn, shape=shape, opcode=opcode, info=t_info[idx], pressure=t_pr[idx],
                        path=path, line=n, triple=triple, cpu=cpu))
                    if ok:
                        continue
                    target = differs
                count += 1
                target.append((key_of(insn, shape, dialect), dict(insn=insn, shape=shape, opcode=opcode,
                                                                   info=t_info[idx], pressure=t_pr[idx], path=path, line=n,
                                                                   triple=triple, cpu=cpu)))
    return missing, differs, count, chosen, every


def key_of(insn, shape, dialect):
    mnem = insn.split()[0]
    if dialect == "x86":
        width = "Y" if "%ymm" in insn else ""
    else:
        # The register letter and addressing LLVM's AArch64 names carry
        # (LDRQui, STRXroX, ADDXrs).
        ops = insn.split(None, 1)[1] if len(insn.split(None, 1)) > 1 else ""
        ops = re.sub(r"^\{\s*", "", ops)
        width = ops[:1].upper() if ops[:1] and ops[:1] in "xwqdshbv" else ""
        arr = re.match(r"v\d+\.(\d+)([bhsd])\b", ops)
        if arr:
            # LLVM's vector class names carry the arrangement (FMLAv4f32);
            # `course mca` ranks classes by it (asm.rs, vector_suffix).
            bits = {"b": 8, "h": 16, "s": 32, "d": 64}[arr.group(2)]
            width = f"v{arr.group(1)}{'f' if mnem.startswith('f') else 'i'}{bits}"
        mem = re.search(r"\[([^\]]*)\]", ops)
        if mem and "]!" in ops:
            width += "pre"
        elif mem and re.search(r"\],\s*#", ops):
            width += "post"
        elif mem:
            width += "ro" if "," in mem.group(1) and "#" not in mem.group(1) else "ui"
        if re.search(r", (lsl|lsr|asr|ror|[su]xt[bhwx])\b", ops) and not mem:
            # A shifted or extended register operand (ADDXrs in LLVM; the
            # name `course mca` ranks by, asm.rs signature).
            width += "shift"
    return (mnem, shape, width)


# The lab opcode of each generated class of the model before the rerun.
PREVIOUS = {}


def fresh_opcode(mnem, rows, name):
    """The row's lab opcode: the one its class had before the rerun, else
    `MNEM.gN` with N past every number used before or now."""
    used = {r["opcode"] for r in rows.values() if r}
    old = PREVIOUS.get(name)
    if old and old not in used and old.split(".")[0] == mnem:
        return old
    taken = used | set(PREVIOUS.values())
    numbers = [int(m.group(1)) for o in taken for m in [re.search(r"\.g(\d+)$", o)] if m]
    j = max(numbers, default=0) + 1
    while f"{mnem}.g{j}" in taken:
        j += 1
    return f"{mnem}.g{j}"


def make_row(key, info, rows, names, text, dialect):
    mnem, shape, width = key
    uops, lat, rthr, load, store = info["info"]
    kinds, groups = model_resources_text(text)
    uses = decompose(info["pressure"], kinds, groups)
    kinds_sig = "".join(x.strip()[0] for x in shape.replace("=", ",").split(",") if x.strip())
    base = mnem.upper() + width + kinds_sig
    name, j = base, 2
    while name in names:
        name, j = f"{base}_{j}", j + 1
    names.add(name)
    dests = shape.split(" = ")[0].count("r") if " = " in shape or shape == "r" else 0
    writes = None
    if dialect != "x86" and (dests > 1 or "post" in width or "pre" in width):
        writes = write_latencies(info["insn"], info["triple"], info["cpu"], dests)
        if writes is not None and all(w == lat for w in writes):
            writes = None
    adv = advance(info["insn"], shape, dialect)
    if dialect != "x86" and mnem in ACCUMULATES and shape.startswith("r = r"):
        gap = self_gap(info["insn"], info["triple"], info["cpu"])
        if gap is not None and gap < lat:
            adv = f"[{{ cycles: {lat - gap}, operands: [0], writes: [{name}] }}]"
    return dict(name=name, latency=lat, uops=uops, uses=uses, shape=shape,
                opcode=fresh_opcode(mnem, rows, name), insn=info["insn"], rthr=rthr,
                adv=adv, writes=writes, stores=bool(store and dests))


# AArch64 instructions whose destination is also their first source (the
# lab form reads it as operand 0), as `course mca` lowers them.
ACCUMULATES = {"fmla", "fmls", "mla", "mls", "bfi", "bfxil", "movk", "sdot", "udot", "ins"}


def self_gap(insn, triple, cpu):
    """The cycles from one instance of an accumulating instruction to the
    next that reads its result (llvm-mca's timeline, two in a row): less
    than the latency when the accumulator operand has a ReadAdvance for
    the instruction's own write."""
    return pair_gap(insn, insn, triple, cpu)


def a64_written(insn):
    """The registers an AArch64 instruction writes, in the lab's order:
    the data registers as written (none for a store), then the base
    register of an address with writeback."""
    mnem, ops = (re.split(r"\s+", insn.strip(), maxsplit=1) + [""])[:2]
    regs = [o.strip() for o in re.split(r",(?![^\[]*\])", ops.strip())]
    out = []
    lst = re.match(r"\{([^}]*)\}", ops.strip())
    if lst and mnem.startswith("ld"):
        # `ld2 { v0.2d, v1.2d }, [x0]`: every register of the list.
        out = [r.strip().split(".")[0] for r in lst.group(1).split(",")]
    elif not mnem.startswith("st"):
        out.append(regs[0])
        if mnem in ("ldp", "ldnp", "ldpsw"):
            out.append(regs[1])
    mem = re.search(r"\[\s*(\w+)", ops)
    if mem and ("]!" in ops or re.search(r"\],\s*#", ops)):
        out.append(mem.group(1))
    return out, (mem.group(1) if mem else None)


def first_issue(line):
    body = line[10:]
    for i, ch in enumerate(body):
        if ch in "eE":
            return i
    return None


def write_latencies(insn, triple, cpu, dests):
    """Each register's latency, measured: the instruction waits for a
    slow divide that writes its base register, then one consumer reads
    the register; the latency is the consumer's issue cycle minus the
    instruction's (llvm-mca's timeline, one iteration)."""
    written, base = a64_written(insn)
    if len(written) != dests or base is None or base in ("sp", "wsp") or not base.startswith("x"):
        return None
    used = set(re.findall(r"\b[xwqdshbv](\d+)\b", insn))
    spare = [n for n in range(19, 29) if str(n) not in used]
    div, dst = spare[0], spare[1]
    out = []
    for reg in written:
        letter, num = reg[0], reg[1:]
        if letter in "xw":
            use = f"add\t{letter}{dst}, {reg}, #1"
        else:
            use = f"add\tv{dst}.2d, v{num}.2d, v{num}.2d"
        text = f"\tsdiv\t{base}, {base}, x{div}\n\t{insn}\n\t{use}\n"
        path = f"/tmp/mca-rows-probe-{os.getpid()}.s"
        open(path, "w").write(text)
        rc, tl, _ = run([MCA, f"-mtriple={triple}", f"-mcpu={cpu}", "-iterations=1", "-timeline", path])
        rows = [l for l in tl.splitlines() if l.startswith("[0,")]
        if rc != 0 or len(rows) != 3:
            return None
        a, b = first_issue(rows[1]), first_issue(rows[2])
        if a is None or b is None:
            return None
        out.append(b - a)
    return out


def write(model, text, rows, version, cpu):
    out = [text.rstrip("\n"), BEGIN + f" from llvm-mca {version} (-mcpu={cpu} --instruction-tables);",
           "  # a rerun replaces everything up to the end marker. Each row: llvm-mca's", "  # micro-ops, latency and resource pressure for the instruction quoted."]
    for r in rows.values():
        if r is None:
            continue
        uses = ", ".join(f"[{n}, {c}]" for n, c in r["uses"])
        extra = f", uops: {r['uops']}" if r["uops"] != 1 else ""
        if r["adv"]:
            extra += f", read_advance: {r['adv']}"
        if r.get("writes"):
            extra += f", write_latencies: [{', '.join(map(str, r['writes']))}]"
        if r.get("stores"):
            extra += ", stores: true"
        ins = r["insn"].replace("\t", " ")
        out.append(f"  # {ins}  (RThroughput {r['rthr']})")
        out.append(f"  - {{ name: {r['name']}, latency: {r['latency']}{extra}, opcodes: [{r['opcode']}], uses: [{uses}], forms: [\"{r['shape']}\"] }}")
    out.append(END)
    open(model, "w").write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
