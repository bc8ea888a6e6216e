"""Writes the tables of one LLVM release of one architecture (the form
table) and of each of its processors (descriptors and resolution rules), in
the line format that course-engine's `model::mc::tables` reads:

    target file:  header lines, then
        R  name  subregs  superregs  constant  artificial   registers (id = line order, from 1)
        C  name  members                            register classes a table names
        O  name  implicit-defs  implicit-uses  nops  ndefs  optional-defs  variadic(+defs)
        T  template                                 MCInst operand templates
        P  print template                           how instructions print
        V  variant|variant…                         readings of a form: guard:opcode:template:print:models
        K  key  readings                            a form without immediates
        G  key  readings=classes,…;…                a form with immediates (key with `i*`/`#*`):
                                                    the readings of each tuple of immediate classes
    model file:   header lines, then
        U  name  units  super  buffer  mask  subunits       processor resources
        F  name  regs  max-moves  zero-only  class:cost:elim;…  register files
        D  descriptor fields                        descriptors (id = line order)
        Y  desc  zd  mask  move  flags  clears  killed   outcomes of a resolution
        X  opcode  variant  rule                    how an instruction picks an outcome

Lists inside a field are separated by ',' (and ';' between records, ' '
between rule parts). The file opens with the command and LLVM version that
made it and says it is generated.
"""

import collections
import json
import re


def sig_parts(sig):
    """'2478|zd:011|m' -> (class, zero, dep, mask, move)."""
    cls, zd, mv = sig.split("|")
    zero = zd.startswith("z")
    dep = len(zd) > 1 and zd[1] == "d"
    mask = zd.split(":", 1)[1] if ":" in zd else ""
    return int(cls), zero, dep, mask, mv == "m"


def desc_fields(inst, res_index, reg_index):
    """The descriptor of a dumper `inst` record, as one line of fields."""
    res = ";".join(f"{res_index[r[0]]},{r[1]},{r[2]},{r[3]},{r[4]}" for r in inst["res"])
    adv = ";".join(f"{a[0]},{a[1]},{a[2]}" for a in inst["advance"])
    wpr = ";".join(f"{res_index[w[0]]},{w[1]},{w[2]}" for w in inst.get("wpr", []))
    wlat = ";".join(f"{w[0]},{w[1]}" for w in inst.get("wlat", []))
    head = [inst["class"], inst["uops"], inst["maxlat"], inst["immediate"], inst["overlap"],
            inst.get("begin_group", 0), inst.get("end_group", 0), inst.get("retire_ooo", 0),
            inst["buffers"], inst["units"], inst["groups"]]
    return "\t".join(str(x) for x in head) + f"\t{res}\t{adv}\t{wpr}\t{wlat}"


def flags_of(inst):
    return "".join(c for c, f in (("l", "load"), ("s", "store"), ("e", "side"),
                                  ("L", "lbar"), ("S", "sbar")) if inst.get(f))


# ---------------------------------------------------------------- rules


def split_key(key, arch):
    """A form key without its immediates' classes, and the classes (the same
    split as course-engine's `asm::split_key`)."""
    toks = key.split(" ")
    out, classes = [toks[0]], []
    for t in toks[1:]:
        if arch == "x86":
            m = re.fullmatch(r"i(1|8|u8|16|u16|32|u32|64)", t)
            if m:
                classes.append(m.group(1))
                out.append("i*")
                continue
            out.append(t)
        else:
            def rep(m):
                classes.append(m.group(1))
                return "#*"
            out.append(re.sub(r"#(0|-?\d+\.\d)(?=[],!]|$)", rep, t))
    return " ".join(out), classes


def rule_of(probe):
    """A rule from a probe: features [("pair", i, j) or ("op", k, default,
    {label: class})], and {class tuple: sig}."""
    feats = []
    for f in probe["features"]:
        if "pair" in f:
            feats.append(("pair", f["pair"][0], f["pair"][1]))
        else:
            counts = collections.Counter(c for l, c in f["labels"].items())
            default = counts.most_common(1)[0][0] if counts else 0
            feats.append(("op", f["op"], default, dict(f["labels"])))
    combos = {}
    if len(feats) == 1:
        for c, sig in enumerate(probe["classes"][0]):
            combos[(c,)] = sig
    elif feats:
        for classes, sig in probe["combos"]:
            combos[tuple(classes)] = sig
    return feats, combos, probe["base"]


def feature_value(f, operands):
    """The class of feature f for an instance's MCInst operands, or None."""
    if f[0] == "pair":
        _, i, j = f
        if max(i, j) >= len(operands):
            return None
        a, b = operands[i].get("r"), operands[j].get("r")
        return 1 if a and a == b else 0
    _, k, default, labels = f
    if k >= len(operands):
        return None
    o = operands[k]
    if "i" in o:
        label = f"v:{o['i']}"
    elif "r" in o:
        label = f"abs:{o['r']}" if o["r"] else "none"
    else:
        return default
    return labels.get(label, default)


def evaluate(rule, operands):
    """The signature a rule gives an instance (None: not known)."""
    feats, combos, base = rule
    if not feats:
        return base
    key = []
    for f in feats:
        v = feature_value(f, operands)
        if v is None:
            return None
        key.append(v)
    return combos.get(tuple(key))


# ---------------------------------------------------------------- writing


# What the tables were made from (set by generate.py: the forms file's name
# and digest), for the header of every file.
SOURCE = ""


def header(kind, name, llvm, source):
    return [f"course-mca-{kind} 1",
            f"# generated by `scripts/mca-models/generate.py` from {source}{SOURCE}; do not edit "
            "(a rerun rewrites it)",
            f"name {name}", f"llvm {llvm}"]


def write_tables(out_dir, arch, releases, log):
    """Writes the architecture's form table, shared by its LLVM releases,
    and one file per processor; returns counts. `releases`: a list of
    (version, cpus, forms, target, procs, recs), the first the primary (its
    register relations are the R lines; another release's differing ones
    are r lines)."""
    # Registers: the union by name, the primary's first.
    names = [""]
    for _, _, _, target, _, _ in releases:
        for r in target["registers"]:
            if r[0] not in names:
                names.append(r[0])
    reg_index = {n: i for i, n in enumerate(names)}
    model_names = [m for _, cpus, _, _, _, _ in releases for m, _ in cpus]
    opcode_ids = {}   # O line text -> id
    opcode_of = {}    # (version, opcode name) -> id
    opcode_lines = []
    templates, prints = {}, {}
    classes_used = {}  # (name, members) -> id
    class_of = {}      # (version, name) -> id

    def class_id(version, target, c):
        members = tuple(target["classes"][c][1])
        k = (c, members)
        if k not in classes_used:
            classes_used[k] = len(classes_used)
        class_of[(version, c)] = classes_used[k]
        return classes_used[k]

    def tmpl_text(version, target, t):
        out = []
        for e in t:
            if e[0] == "from":
                path, rel = e[1], e[2]
                out.append(f"r:{path}" if rel == "same" else f"r:{path}:{rel}:{class_id(version, target, e[3])}")
            elif e[0] == "reg":
                out.append(f"R:{reg_index.get(e[1], 0)}")
            elif e[0] == "imm":
                out.append(f"i:{e[1]}")
            elif e[0] == "affine":
                out.append(f"a:{e[1]}:{e[2]}:{e[3]}:{e[4]}")
            elif e[0] == "movewide":
                out.append(f"m:{e[1]}:{e[2]}:{e[3]}:{e[4]}")
            else:
                out.append("?")
        return ";".join(out)

    def intern(table, text):
        if text not in table:
            table[text] = len(table)
        return table[text]

    def opcode_line(op, info):
        idefs = ",".join(str(reg_index.get(x, 0)) for x in info["implicit_defs"])
        iuses = ",".join(str(reg_index.get(x, 0)) for x in info["implicit_uses"])
        optional = ",".join(str(k) for k, o in enumerate(info["ops"]) if o[3])
        return (f"O\t{op}\t{idefs}\t{iuses}\t{info['num_operands']}\t{info['num_defs']}\t"
                f"{optional or '-'}\t{info.get('variadic', 0)}{info.get('variadic_defs', 0)}"
                f"{info.get('call', 0)}{info.get('return', 0)}")

    # Each key's readings: every release's, in order; a reading two
    # releases share is one entry with both releases' models.
    readings = collections.defaultdict(list)  # key -> [[text-without-masks, models, known]]
    base_bit = 0
    for version, cpus, forms, target, procs, recs in releases:
        facts = {}
        for d in recs.values():
            facts.setdefault(d["opcode"], d)
        mine = [m for m, _ in cpus]
        known = sum(1 << (base_bit + k) for k in range(len(mine)))
        for key in sorted(forms):
            f = forms[key]
            mask = sum(1 << (base_bit + mine.index(m)) for m in f["models"])
            for guard, v in f["variants"]:
                op = v["opcode"]
                if (version, op) not in opcode_of:
                    d = facts.get(op)
                    info = d["info"] if d else {"implicit_defs": [], "implicit_uses": [], "num_operands": 0,
                                                "num_defs": 0, "ops": []}
                    line = opcode_line(op, info)
                    if line not in opcode_ids:
                        opcode_ids[line] = len(opcode_ids)
                        opcode_lines.append(line)
                    opcode_of[(version, op)] = opcode_ids[line]
                accepted = [m for m in mine if m in f["models"]]
                pr = v["print"].get(accepted[0] if accepted else mine[0])
                g = "-" if guard is None else f"{guard[1]}{guard[0]}{guard[2]}"
                text = (f"{g}:{opcode_of[(version, op)]}:{intern(templates, tmpl_text(version, target, v['template']))}:"
                        f"{intern(prints, pr) if pr is not None else '-'}")
                for r in readings[key]:
                    # The same reading, not yet claimed by this release.
                    if r[0] == text and not r[2] & known:
                        r[1] |= mask
                        r[2] |= known
                        break
                else:
                    readings[key].append([text, mask, known])
        for name, cpu in cpus:
            for rf in procs[cpu].get("extra", {}).get("files", []):
                for c in rf["costs"]:
                    class_id(version, target, c[0])
        base_bit += len(mine)

    key_lines = []
    generic = {}
    variant_lists = {}
    for key in sorted(readings):
        vs = "|".join(f"{t}:{m}:{k}" for t, m, k in readings[key])
        base, classes = split_key(key, arch)
        if classes:
            generic.setdefault(base, []).append(("/".join(classes), intern(variant_lists, vs)))
        else:
            key_lines.append(f"K\t{key}\t{intern(variant_lists, vs)}")
    for base in sorted(generic):
        # Classes grouped by reading: `readings=class,class;…`.
        by_reading = {}
        for c, v in generic[base]:
            by_reading.setdefault(v, []).append(c)
        entries = ";".join(f"{v}={','.join(cs)}" for v, cs in by_reading.items())
        key_lines.append(f"G\t{base}\t{entries}")

    versions = [r[0] for r in releases]
    lines = header("forms", arch, "+".join(map(str, versions)),
                   " and ".join(f"LLVM {v}" for v in versions))
    lines.append(f"arch {arch}")
    lines.append("models " + " ".join(model_names))
    # Register relations: the first release that has the register; a later
    # release whose relations differ gets an r line.
    relations = {}
    for version, _, _, target, _, _ in releases:
        for r in target["registers"]:
            subs = ",".join(str(reg_index[x]) for x in r[1])
            sups = ",".join(str(reg_index[x]) for x in r[2])
            flags = f"{r[3]}\t{r[4] if len(r) > 4 else 0}"
            relations.setdefault(r[0], []).append((version, subs, sups, flags))
    for n in names[1:]:
        (v0, subs, sups, flags), *rest = relations[n]
        lines.append(f"R\t{n}\t{subs}\t{sups}\t{flags}")
    for n in names[1:]:
        (v0, subs, sups, flags), *rest = relations[n]
        for v, s2, p2, _ in rest:
            if (s2, p2) != (subs, sups):
                lines.append(f"r\t{v}\t{reg_index[n]}\t{s2}\t{p2}")
    lines.extend(opcode_lines)
    for t in templates:
        lines.append(f"T\t{t}")
    for p in prints:
        # Tabs of a print are written as \t (the fields are tab-separated).
        lines.append("P\t" + p.replace("\\", "\\\\").replace("\t", "\\t"))
    for (c, members) in classes_used:
        lines.append(f"C\t{c}\t{','.join(str(reg_index[m]) for m in members)}")
    for v in variant_lists:
        lines.append(f"V\t{v}")
    lines.extend(key_lines)
    with open(f"{out_dir}/{arch}.forms", "w") as fh:
        fh.write("\n".join(lines) + "\n")

    counts = {}
    for version, cpus, forms, target, procs, recs in releases:
        ids = {op: i for (v, op), i in opcode_of.items() if v == version}
        classes = {c: i for (v, c), i in class_of.items() if v == version}
        for name, cpu in cpus:
            counts[name] = write_model(out_dir, name, cpu, version, procs[cpu], recs, ids,
                                       reg_index, classes, log)
    return {"forms": len(readings), "opcodes": len(opcode_ids), "templates": len(templates),
            "prints": len(prints), "models": counts}


def write_model(out_dir, name, cpu, version, proc, recs, opcode_ids, reg_index, classes_used, log):
    res_index = {r["name"]: i for i, r in enumerate(proc["resources"])}
    descs, outcomes = {}, {}
    rules = {}
    mismatches = 0
    by_opcode = collections.defaultdict(list)
    for n, d in recs.items():
        if d["opcode"] in opcode_ids and cpu in d["cpus"]:
            by_opcode[d["opcode"]].append(d)

    def outcome_of(inst_by_class, opcode, sig):
        cls, zero, dep, mask, move = sig_parts(sig)
        inst = inst_by_class.get(cls)
        if inst is None or "error" in inst:
            return None
        dtext = desc_fields(inst, res_index, reg_index)
        if dtext not in descs:
            descs[dtext] = len(descs)
        o = f"{descs[dtext]}\t{'z' if zero else '-'}{'d' if dep else '-'}\t{mask or '-'}\t" \
            f"{int(move)}\t{flags_of(inst) or '-'}\t{inst.get('clears') or '-'}\t" \
            f"{','.join(map(str, inst.get('killed', []))) or '-'}"
        if o not in outcomes:
            outcomes[o] = len(outcomes)
        return outcomes[o]

    for opcode, items in sorted(by_opcode.items()):
        inst_by_class = {}
        errors = [d for d in items if "error" in d["cpus"][cpu]["inst"]]
        for d in items:
            c = d["cpus"][cpu]
            if "error" not in c["inst"]:
                inst_by_class.setdefault(c["inst"]["class"], c["inst"])
            for v in c.get("variants", []):
                if "error" not in v:
                    inst_by_class.setdefault(v["class"], v)
        if errors and len(errors) == len(items):
            rules[opcode] = f"!{errors[0]['cpus'][cpu]['inst']['error']}"
            continue
        good = [d for d in items if "error" not in d["cpus"][cpu]["inst"]]
        # The rule that explains the most instances (each instance's probe
        # gives one; they differ when an instance's own values are special).
        cands = {}
        for d in good:
            r = rule_of(d["cpus"][cpu]["probe"])
            cands.setdefault(json.dumps([r[0], sorted(r[1].items()), r[2]], default=str), r)
        rule = max(cands.values(), key=lambda r: sum(
            evaluate(r, d["operands"]) == d["cpus"][cpu]["inst"]["sig"] for d in good))
        for d in good:
            got = evaluate(rule, d["operands"])
            if got != d["cpus"][cpu]["inst"]["sig"]:
                mismatches += 1
                log.write(f"{name}: {opcode}: rule gives {got}, instance has "
                          f"{d['cpus'][cpu]['inst']['sig']}\n")
        feats, combos, base = rule
        if not feats:
            o = outcome_of(inst_by_class, opcode, base)
            rules[opcode] = str(o) if o is not None else "!no descriptor"
            continue
        parts = []
        for f in feats:
            if f[0] == "pair":
                parts.append(f"={f[1]}:{f[2]}")
            else:
                _, k, default, labels = f
                kept = ",".join(f"{l}={c}" for l, c in sorted(labels.items()) if c != default)
                parts.append(f"{k}:{default}:{kept}")
        cs = []
        for classes, sig in sorted(combos.items()):
            o = outcome_of(inst_by_class, opcode, sig)
            cs.append(f"{'.'.join(map(str, classes))}={o if o is not None else '!'}")
        rules[opcode] = " ".join(parts) + " " + ",".join(cs)
    variant = {}
    for opcode, items in by_opcode.items():
        variant[opcode] = any(d["cpus"][cpu]["inst"].get("variant") for d in items)

    lines = header("model", name, version, f"LLVM {version} -mcpu={cpu}")
    ex = proc.get("extra", {})
    lines.append(f"params\tissue_width={proc['issue_width']}\tmicro_op_buffer_size={proc['micro_op_buffer_size']}"
                 f"\tload_latency={proc['load_latency']}\thigh_latency={proc['high_latency']}"
                 f"\tprocessor_id={proc['processor_id']}\trob={ex.get('rob', 0)}\tretire={ex.get('retire', 0)}"
                 f"\tlq={ex.get('lq', 0)}\tsq={ex.get('sq', 0)}")
    for r in proc["resources"]:
        lines.append(f"U\t{r['name']}\t{r['units']}\t{r['super']}\t{r['buffer']}\t{r['mask']}\t"
                     f"{','.join(map(str, r['sub']))}")
    for f in ex.get("files", []):
        costs = ";".join(f"{classes_used[c[0]]}:{c[1]}:{c[2]}" for c in f["costs"])
        lines.append(f"F\t{f['name']}\t{f['regs']}\t{f['max_moves']}\t{f['zero_only']}\t{costs}")
    for dtext in descs:
        lines.append(f"D\t{dtext}")
    for o in outcomes:
        lines.append(f"Y\t{o}")
    for opcode in sorted(rules, key=lambda o: opcode_ids[o]):
        lines.append(f"X\t{opcode_ids[opcode]}\t{int(variant.get(opcode, False))}\t{rules[opcode]}")
    with open(f"{out_dir}/{name}.model", "w") as fh:
        fh.write("\n".join(lines) + "\n")
    return {"descs": len(descs), "outcomes": len(outcomes), "rules": len(rules),
            "rule mismatches": mismatches}
