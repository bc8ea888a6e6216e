//! No operand form is read as another (Definition 23.1.8: an LLVM
//! scheduling class belongs to one form of an instruction).
//!
//! For every built-in machine, every class with opcodes, every opcode and
//! every operand kind (register, immediate, memory) put at every operand
//! place of every form the class states (and alone, or after a register),
//! a one-instruction loop in the lab format is either modelled (it parses,
//! to the class, its zero-idiom variant or its folded-load form, whichever
//! states that shape) or refused at `file:line:column` with a message
//! naming the class and every form it has.
//!
//! For the models with an LLVM 14 counterpart (`skylake-llvm14` for
//! `-mcpu=skylake`, `apple-m1`), every modelled shape of every class is
//! also spelled in assembly and run through llvm-mca-14 as a one-instruction
//! loop: Total Cycles, Total uOps and Block RThroughput at 100 iterations
//! must agree. All of a model's loops go to one llvm-mca call, one code
//! region each. A shape with no known spelling is skipped and counted, and
//! without llvm-mca-14 the comparison says SKIP.

use std::collections::BTreeSet;
use std::path::Path;
use std::process::Command;

use course::api::mca::{self, Request, Views};
use course::content::data::{builtin_machine, builtin_machine_names};
use course::model::form::{Form, IMM, MEM, REG, Shape};
use course::model::ids::ClassId;
use course::model::machine::Machine;
use course::model::program;

use crate::common;
use crate::mca_corpus::{field, llvm_mca_14};

const KINDS: [u8; 3] = [REG, IMM, MEM];

fn machine(name: &str) -> Machine {
    let text = builtin_machine(name).unwrap_or_else(|| panic!("no built-in machine {name}"));
    Machine::from_yaml(text, name).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// The shape a form takes with every operand of its first kind (register
/// before immediate before memory); a repeated operand once.
fn plain(f: &Form) -> Shape {
    let first = |set: u8| KINDS.into_iter().find(|&k| set & k != 0).unwrap_or(REG);
    Shape {
        dests: f.dests,
        kinds: f.operands.iter().map(|&s| first(s)).collect(),
    }
}

/// The shapes tried for a class: each of its forms' plain shapes with
/// each kind at each place, and each kind alone or after a register.
fn shapes(m: &Machine, c: ClassId) -> BTreeSet<(u8, Vec<u8>)> {
    let class = m.class(c);
    let mut forms: Vec<Form> = class.forms.clone().unwrap_or_default();
    if let Some(f) = m.memory_form(c).and_then(|f| m.class(f).forms.clone()) {
        forms.extend(f);
    }
    let dests: BTreeSet<u8> = if forms.is_empty() {
        [1, 0].into()
    } else {
        forms.iter().map(|f| f.dests).collect()
    };
    let mut out = BTreeSet::new();
    for f in &forms {
        let p = plain(f);
        out.insert((p.dests, p.kinds.clone()));
        for j in 0..p.kinds.len() {
            for k in KINDS {
                let mut kinds = p.kinds.clone();
                kinds[j] = k;
                out.insert((p.dests, kinds));
            }
        }
    }
    for &dest in &dests {
        for k in KINDS {
            out.insert((dest, vec![k]));
            out.insert((dest, vec![REG, k]));
        }
    }
    out
}

/// A lab line for `opcode` with this shape (destinations r0, w1, w2, …,
/// registers r1, r2, …, immediates 1, 2, …, the memory operand `[x]`),
/// and each operand's column.
fn lab_line(opcode: &str, dests: u8, kinds: &[u8]) -> (String, Vec<u32>) {
    let mut line = String::from("a: ");
    if dests > 0 {
        line.push_str(&dest_list(dests));
        line.push_str(" = ");
    }
    line.push_str(opcode);
    let mut cols = Vec::new();
    for (j, &k) in kinds.iter().enumerate() {
        line.push_str(if j == 0 { " " } else { ", " });
        cols.push(line.chars().count() as u32 + 1);
        match k {
            REG => line.push_str(&format!("r{}", j + 1)),
            IMM => line.push_str(&format!("{}", j + 1)),
            _ => line.push_str("[x]"),
        }
    }
    (line, cols)
}

/// `r0`, then `w1`, `w2`, …: the destinations of a lab line.
fn dest_list(dests: u8) -> String {
    (0..dests)
        .map(|k| {
            if k == 0 {
                "r0".to_string()
            } else {
                format!("w{k}")
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// Whether class `c` (or the variant it chose) states this shape.
fn states(m: &Machine, base: ClassId, chosen: ClassId, shape: &Shape) -> bool {
    let ok = m.class(chosen).accepts(shape);
    let related = chosen == base
        || m.memory_form(base) == Some(chosen)
        || m.class(base)
            .opcodes
            .iter()
            .any(|o| m.zero_form(base, o) == Some(chosen));
    ok && related
}

/// Every built-in machine × class × opcode × operand kind at each place:
/// modelled by a class that states the shape, or refused where it should be.
#[test]
fn every_operand_kind_is_modelled_or_refused_at_its_place() {
    let mut modelled = 0;
    let mut refused = 0;
    let mut failures = Vec::new();
    for name in builtin_machine_names() {
        let m = machine(name);
        for c in m.class_ids() {
            let class = m.class(c);
            if class.opcodes.is_empty() || class.memory || class.zero_idiom {
                continue;
            }
            // A class without `forms:` would take every shape.
            if class.forms.is_none() {
                failures.push(format!("{name}: class {} states no forms", class.name));
            }
            for (dests, kinds) in shapes(&m, c) {
                for opcode in &class.opcodes {
                    if m.class_by_opcode(opcode) != Some(c) {
                        continue;
                    }
                    let (line, cols) = lab_line(opcode, dests, &kinds);
                    let text = format!("loop t\n{line}\n");
                    let origin = format!("{name}-forms.txt");
                    let shape = Shape {
                        dests,
                        kinds: kinds.clone(),
                    };
                    match program::parse(&text, &origin, &m) {
                        Ok(p) => {
                            let chosen = p.ops()[0].class;
                            if states(&m, c, chosen, &shape) {
                                modelled += 1;
                            } else {
                                failures.push(format!(
                                    "{name}: '{line}' was taken as class {} ({}), which does not state '{shape}'",
                                    m.class(chosen).name,
                                    m.class(chosen).forms_text()
                                ));
                            }
                        }
                        Err(d) => {
                            refused += 1;
                            let msg = d.to_string();
                            let first = d.iter().next().expect("a diagnostic");
                            let col_ok = cols.contains(&first.column)
                                || first.column
                                    == 4 + if dests > 0 {
                                        dest_list(dests).len() as u32 + 3
                                    } else {
                                        0
                                    };
                            let located = first.line == 2
                                && col_ok
                                && msg.starts_with(&format!("{origin}:2:{}: ", first.column));
                            let names = msg.contains(&format!("class {} ", class.name))
                                && msg.contains(&class.forms_text());
                            let folded = m.memory_form(c).map(|f| m.class(f));
                            let names_folded = folded.is_none_or(|f| {
                                msg.contains(&format!("folded-load form {}", f.name))
                            });
                            let stated =
                                class.accepts(&shape) || folded.is_some_and(|f| f.accepts(&shape));
                            if !(located && names && names_folded) || stated {
                                failures.push(format!(
                                    "{name}: '{line}' (shape '{shape}'{}): {msg}",
                                    if stated { ", which a form states" } else { "" }
                                ));
                            }
                        }
                    }
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(
        modelled > 100 && refused > 100,
        "{modelled} modelled, {refused} refused"
    );
    common::note(format!(
        "operand_forms: {modelled} one-instruction loops modelled, {refused} refused at their place"
    ));
}

/// A model with an LLVM 14 counterpart: its name, llvm-mca's triple and
/// `-mcpu`, and a lab line and its assembly for every shape its classes
/// model (one-instruction loops: a destination that is also read makes
/// the loop's recurrence, the same in both).
struct Counterpart {
    model: &'static str,
    triple: &'static str,
    cpu: &'static str,
    spellings: &'static [(&'static str, &'static str)],
}

const COUNTERPARTS: &[Counterpart] = &[
    Counterpart {
        model: "skylake-llvm14",
        triple: "x86_64-unknown-linux-gnu",
        cpu: "skylake",
        spellings: &[
            ("rax = addq rax, rbx", "addq %rbx, %rax"),
            ("rax = addq rax, 1", "addq $1, %rax"),
            ("rax = incq rax", "incq %rax"),
            ("rax = li 1", "movq $1, %rax"),
            ("rax = xorq rax, rax", "xorq %rax, %rax"),
            ("eflags = cmpq rax, rbx", "cmpq %rbx, %rax"),
            ("eflags = cmpq rax, 1", "cmpq $1, %rax"),
            ("jne eflags", "jne .L{n}"),
            ("rax = imulq rax, rbx", "imulq %rbx, %rax"),
            ("rax = imulq rax, 5", "imulq $5, %rax, %rax"),
            ("rax = movq [rdi]", "movq (%rdi), %rax"),
            ("store [rdi], rax", "movq %rax, (%rdi)"),
            ("store [rdi], 1", "movq $1, (%rdi)"),
            ("ymm0 = vmovupd [rdi]", "vmovupd (%rdi), %ymm0"),
            ("vmovupd.st [rdi], ymm0", "vmovupd %ymm0, (%rdi)"),
            ("ymm0 = vaddpd ymm1, ymm0", "vaddpd %ymm1, %ymm0, %ymm0"),
            ("ymm0 = vaddpd [rdi], ymm0", "vaddpd (%rdi), %ymm0, %ymm0"),
            ("ymm0 = vmulpd ymm1, ymm0", "vmulpd %ymm1, %ymm0, %ymm0"),
            ("ymm0 = vmulpd [rdi], ymm0", "vmulpd (%rdi), %ymm0, %ymm0"),
            (
                "ymm0 = vfmadd231pd ymm1, ymm2, ymm0",
                "vfmadd231pd %ymm1, %ymm2, %ymm0",
            ),
            (
                "ymm0 = vfmadd231pd [rdi], ymm1, ymm0",
                "vfmadd231pd (%rdi), %ymm1, %ymm0",
            ),
            ("ymm0 = vdivpd ymm1, ymm0", "vdivpd %ymm1, %ymm0, %ymm0"),
            ("ymm0 = vsqrtpd ymm0", "vsqrtpd %ymm0, %ymm0"),
            ("xmm0 = divps xmm0, xmm1", "divps %xmm1, %xmm0"),
            ("xmm0 = addps xmm0, xmm1", "addps %xmm1, %xmm0"),
            ("xmm0 = mulps xmm0, xmm1", "mulps %xmm1, %xmm0"),
            ("rax = shlq rax, 2", "shlq $2, %rax"),
            ("rax = shlq rax", "shlq %rax"),
            ("rax = leaq rax", "leaq (%rax), %rax"),
            ("rax = leaq rax, rbx", "leaq (%rax,%rbx), %rax"),
            ("rax = leaq rax, 8", "leaq 8(%rax), %rax"),
            ("rax = leaq rax, rbx, 8", "leaq 8(%rax,%rbx), %rax"),
            ("rax = popcntq rax", "popcntq %rax, %rax"),
            ("xmm0 = vxorps xmm0, xmm1", "vxorps %xmm1, %xmm0, %xmm0"),
            ("xmm0 = pxor xmm0, xmm0", "pxor %xmm0, %xmm0"),
            ("xmm0 = vxorps xmm1, xmm1", "vxorps %xmm1, %xmm1, %xmm0"),
            ("rax = subq rax, rax", "subq %rax, %rax"),
            ("eflags = cmpq rax, rax", "cmpq %rax, %rax"),
            // Every other opcode of the classes, in its own shape.
            ("rax = add rax, rbx", "addq %rbx, %rax"),
            ("rax = sub rax, 3", "subq $3, %rax"),
            ("rax = subq rax, rbx", "subq %rbx, %rax"),
            ("rax = xorq rax, 1", "xorq $1, %rax"),
            ("rax = andq rax, rbx", "andq %rbx, %rax"),
            ("rax = orq rax, 7", "orq $7, %rax"),
            ("rax = decq rax", "decq %rax"),
            ("rax = movq.rr rbx", "movq %rbx, %rax"),
            ("rax = mov rbx", "movq %rbx, %rax"),
            ("eax = addl eax, ebx", "addl %ebx, %eax"),
            ("eax = subl eax, 1", "subl $1, %eax"),
            ("eax = xorl eax, ebx", "xorl %ebx, %eax"),
            ("eax = andl eax, ebx", "andl %ebx, %eax"),
            ("eax = orl eax, 1", "orl $1, %eax"),
            ("eflags = cmp rax, rbx", "cmpq %rbx, %rax"),
            ("eflags = testq rax, rbx", "testq %rbx, %rax"),
            ("eflags = testq rax, 1", "testq $1, %rax"),
            ("je eflags", "je .L{n}"),
            ("jl eflags", "jl .L{n}"),
            ("jb eflags", "jb .L{n}"),
            ("rax = load [rdi]", "movq (%rdi), %rax"),
            ("movq.st [rdi], rax", "movq %rax, (%rdi)"),
            ("rax = imulq rbx, 7", "imulq $7, %rbx, %rax"),
            ("rax = shrq rax, 3", "shrq $3, %rax"),
            ("rax = sarq rax", "sarq %rax"),
            ("xmm0 = addsd xmm0, xmm1", "addsd %xmm1, %xmm0"),
            ("xmm0 = mulsd xmm0, xmm1", "mulsd %xmm1, %xmm0"),
            ("xmm0 = xorps xmm0, xmm1", "xorps %xmm1, %xmm0"),
            ("xmm0 = xorpd xmm0, xmm1", "xorpd %xmm1, %xmm0"),
            ("xmm0 = vxorpd xmm0, xmm1", "vxorpd %xmm1, %xmm0, %xmm0"),
            ("xmm0 = vpxor xmm0, xmm1", "vpxor %xmm1, %xmm0, %xmm0"),
            ("xmm0 = pxor xmm0, xmm1", "pxor %xmm1, %xmm0"),
            ("ymm0 = vxorps ymm0, ymm1", "vxorps %ymm1, %ymm0, %ymm0"),
        ],
    },
    Counterpart {
        model: "apple-m1",
        triple: "aarch64-unknown-linux-gnu",
        cpu: "apple-m1",
        spellings: &[
            ("x1 = add x1, 1", "add x1, x1, #1"),
            ("x1 = mov 5", "mov x1, #5"),
            ("nzcv = cmp.i x1, 100", "cmp x1, #100"),
            ("nzcv = cmp x1, x2", "cmp x1, x2"),
            ("x1 = add.r x1, x2", "add x1, x1, x2"),
            ("x1 = lsl x1, 1", "lsl x1, x1, #1"),
            ("x1 = mul x1, x2", "mul x1, x1, x2"),
            ("x1 = madd x1, x2, x3", "madd x1, x1, x2, x3"),
            ("x1 = ldr.x [x0]", "ldr x1, [x0]"),
            ("v1 = ldr.q [x0]", "ldr q1, [x0]"),
            ("str [x2], x1", "str x1, [x2]"),
            ("v0 = fadd v0, v1", "fadd v0.2d, v0.2d, v1.2d"),
            ("v0 = fmul v0, v1", "fmul v0.2d, v0.2d, v1.2d"),
            ("v0 = fdiv v0, v1", "fdiv v0.2d, v0.2d, v1.2d"),
            ("b.ne nzcv", "b.ne .L{n}"),
            // A register offset (LDRQroX): the lab address names no
            // register (none is written in a one-operation loop), the
            // assembly reads two never written: no dependence either way.
            ("v1 = ldr [x0]", "ldr q1, [x0, x8]"),
            ("v0 = fmla v0, v1, v2", "fmla v0.2d, v1.2d, v2.2d"),
            ("d0 = fmadd d0, d1, d2", "fmadd d0, d0, d1, d2"),
            // Every other opcode of the classes, in its own shape.
            ("x1 = sub x1, 1", "sub x1, x1, #1"),
            ("x1 = li 4096", "mov x1, #4096"),
            ("nzcv = subs x1, x2", "subs xzr, x1, x2"),
            ("x1 = sub.r x1, x2", "sub x1, x1, x2"),
            ("x1 = orr.r x1, x2", "orr x1, x1, x2"),
            ("x1 = eor.r x1, x2", "eor x1, x1, x2"),
            ("x1 = and.r x1, x2", "and x1, x1, x2"),
            ("x1 = lsr x1, 1", "lsr x1, x1, #1"),
            ("x1 = asr x1, 1", "asr x1, x1, #1"),
            ("b.eq nzcv", "b.eq .L{n}"),
            ("b.lt nzcv", "b.lt .L{n}"),
            ("v1 = load [x0]", "ldr q1, [x0, x8]"),
            ("store [x2], x1", "str x1, [x2]"),
        ],
    },
];

/// The modelled (class, shape) pairs of a machine, as the first test
/// enumerates them: the base class and the shape.
fn modelled_shapes(m: &Machine) -> BTreeSet<(String, String)> {
    let mut out = BTreeSet::new();
    for c in m.class_ids() {
        let class = m.class(c);
        if class.opcodes.is_empty() || class.memory || class.zero_idiom {
            continue;
        }
        for (dests, kinds) in shapes(m, c) {
            let Some(opcode) = class.opcodes.first() else {
                continue;
            };
            let (line, _) = lab_line(opcode, dests, &kinds);
            if program::parse(&format!("loop t\n{line}\n"), "t", m).is_ok() {
                let shape = Shape { dests, kinds };
                out.insert((class.name.clone(), shape.to_string()));
            }
        }
    }
    out
}

/// One llvm-mca run over every region of `asm`; the summary text of each
/// region, in order.
fn llvm_regions(bin: &Path, cp: &Counterpart, asm: &str) -> Vec<String> {
    let dir = common::tempdir();
    let file = dir.path().join(format!("{}.s", cp.model));
    std::fs::write(&file, asm).unwrap();
    let out = Command::new(bin)
        .arg(format!("-mtriple={}", cp.triple))
        .arg(format!("-mcpu={}", cp.cpu))
        .args([
            "-iterations=100",
            "-resource-pressure=false",
            "-instruction-info=false",
        ])
        .arg(&file)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}: {}",
        cp.model,
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .split("Code Region - ")
        .skip(1)
        .map(str::to_string)
        .collect()
}

/// The modelled one-instruction loops of the models LLVM 14 has agree with
/// llvm-mca-14 (Total Cycles, Total uOps, Block RThroughput).
#[test]
fn modelled_forms_agree_with_llvm_mca_14() {
    let Some(bin) = llvm_mca_14() else {
        common::note(
            "SKIP operand_forms: no llvm-mca of LLVM 14 (install llvm-14, or set COURSE_LLVM_MCA); the modelled forms were not compared",
        );
        return;
    };
    let mut compared = 0;
    let mut skipped = 0;
    let mut failures = Vec::new();
    for cp in COUNTERPARTS {
        let m = machine(cp.model);
        // Which (class, shape) each spelling stands for.
        let mut covered = BTreeSet::new();
        let mut asm = String::new();
        let mut labs = Vec::new();
        for (n, &(lab, text)) in cp.spellings.iter().enumerate() {
            let src = format!("loop t\na: {lab}\n");
            let p = program::parse(&src, "t", &m)
                .unwrap_or_else(|e| panic!("{}: spelling '{lab}' is refused: {e}", cp.model));
            let op = &p.ops()[0];
            let base = m
                .class_by_opcode(op.opcode.as_str())
                .expect("a known opcode");
            let kinds = op
                .operands
                .iter()
                .map(|o| match o {
                    program::Operand::Reg(_) => REG,
                    program::Operand::Imm(_) => IMM,
                    program::Operand::Mem(_) => MEM,
                })
                .collect();
            let shape = Shape {
                dests: op.dests().count() as u8,
                kinds,
            };
            covered.insert((m.class(base).name.clone(), shape.to_string()));
            let text = text.replace("{n}", &n.to_string());
            let label = if text.contains(&format!(".L{n}")) {
                format!(".L{n}:\n")
            } else {
                String::new()
            };
            asm.push_str(&format!(
                "# LLVM-MCA-BEGIN f{n}\n{label}\t{text}\n# LLVM-MCA-END\n"
            ));
            labs.push((lab, text, src));
        }
        let spelled: BTreeSet<&str> = cp
            .spellings
            .iter()
            .filter_map(|(lab, _)| {
                let op = lab.split_once(" = ").map_or(*lab, |(_, rest)| rest);
                op.split_whitespace().next()
            })
            .collect();
        for class in m.classes() {
            for opcode in &class.opcodes {
                if !spelled.contains(opcode.as_str()) {
                    skipped += 1;
                    common::note(format!(
                        "SKIP operand_forms: {} opcode {opcode} (class {}) has no assembly spelling here",
                        cp.model, class.name
                    ));
                }
            }
        }
        for (class, shape) in modelled_shapes(&m) {
            if !covered.contains(&(class.clone(), shape.clone())) {
                skipped += 1;
                common::note(format!(
                    "SKIP operand_forms: {} {class} '{shape}' has no assembly spelling here",
                    cp.model
                ));
            }
        }
        let regions = llvm_regions(&bin, cp, &asm);
        assert_eq!(
            regions.len(),
            labs.len(),
            "{}: one region per spelling",
            cp.model
        );
        for ((lab, text, src), theirs) in labs.iter().zip(&regions) {
            let req = Request {
                iterations: 100,
                timeline_iterations: 0,
                views: Views::default(),
                skip_unsupported: false,
                memory: Default::default(),
            };
            let ours = mca::run(src, "t", &m, &req).unwrap();
            let ours = course::view::mca::text(&ours);
            compared += 1;
            for key in ["Total Cycles:", "Total uOps:", "Block RThroughput:"] {
                assert!(
                    !field(theirs, key).is_empty() && !field(&ours, key).is_empty(),
                    "{}: '{lab}': no {key} in one of the outputs",
                    cp.model
                );
                if field(theirs, key) != field(&ours, key) {
                    failures.push(format!(
                        "{}: '{lab}' ('{text}'): {key} llvm-mca {} course {}",
                        cp.model,
                        field(theirs, key),
                        field(&ours, key)
                    ));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    common::note(format!(
        "operand_forms: {compared} one-instruction loops agree with {}; {skipped} shapes or opcodes skipped (no spelling); not compared: the models LLVM 14 lacks (znver4, neoverse-v2) and those of a later LLVM's Skylake (skylake, skylake-div, dot-fma), and the toy",
        bin.display()
    ));
}

/// One register twice: the zero idioms LLVM's x86 models declare
/// (SKLWriteZeroIdiom and its vector forms; Zn4WriteZeroIdiom and
/// Zn4WriteZeroIdiomEFLAGS) take a zero-idiom class, which reads nothing;
/// the same operation with two registers, and a `cmpq` on Skylake, do not.
#[test]
fn zero_idioms_are_not_read_as_register_forms() {
    let cases: &[(&str, &[&str], &[&str])] = &[
        (
            "skylake-llvm14",
            &[
                "rax = xorq rax, rax",
                "rax = subq rax, rax",
                "eax = xorl eax, eax",
                "xmm0 = pxor xmm0, xmm0",
                "xmm0 = vxorps xmm1, xmm1",
            ],
            &[
                "rax = xorq rax, rbx",
                "eflags = cmpq rax, rax",
                "rax = addq rax, rax",
            ],
        ),
        (
            "skylake",
            &[
                "rax = xorq rax, rax",
                "rax = subq rax, rax",
                "xmm0 = xorps xmm0, xmm0",
            ],
            &[
                "rax = xorq rax, rbx",
                "eflags = cmpq rax, rax",
                "rax = addq rax, rax",
            ],
        ),
        (
            "znver4",
            &[
                "rax = xorq rax, rax",
                "rax = subq rax, rax",
                "eflags = cmpq rax, rax",
            ],
            &[
                "rax = xorq rax, rbx",
                "eflags = testq rax, rax",
                "rax = addq rax, rax",
            ],
        ),
    ];
    for &(name, zero, not_zero) in cases {
        let m = machine(name);
        for (lines, want) in [(zero, true), (not_zero, false)] {
            for line in lines {
                let p = program::parse(&format!("loop t\na: {line}\n"), "t", &m)
                    .unwrap_or_else(|e| panic!("{name}: {e}"));
                let class = m.class(p.ops()[0].class);
                assert_eq!(
                    class.zero_idiom, want,
                    "{name}: '{line}' took class {}",
                    class.name
                );
                // A zero idiom reads nothing: the loop has no recurrence.
                if want {
                    assert!(p.edges().is_empty(), "{name}: '{line}' has edges");
                }
            }
        }
    }
}
