//! Development tool: runs `engine::mca::pipeline` on the JSON that
//! `scripts/mca-models/dump.cpp` writes, and prints the report as
//! llvm-mca does, to diff the two directly:
//!
//! ```text
//! dump22 model x86_64-unknown-linux-gnu skylake > m.jsonl
//! dump22 kernel x86_64-unknown-linux-gnu skylake k.s > k.jsonl
//! cargo run --example mca_kernel -- m.jsonl k.jsonl skylake --source k.s --timeline
//! ```
//!
//! For exact results the dumper must do what llvm-mca does: run the
//! target's `InstrPostProcess` (call `InitializeAllTargetMCAs()`: x86's
//! stack engine drops the `RSP` writes of `push`/`pop` on LLVM 22, fences
//! become barriers) and clear the `InstrBuilder` at every
//! `LLVM-MCA-BEGIN` (its descriptor cache is per region). The optional
//! `wle` (class write latencies) and the fifth register field
//! (artificial) are read when present.
//!
//! Options: `--llvm 14|22` (default 22), `--source FILE.s` (split
//! `# LLVM-MCA-BEGIN`/`END` regions by line), `--iterations N`,
//! `--timeline`, `--timeline-max-iterations N`, `--dispatch N`,
//! `--register-file-size N`, `--lqueue N`, `--squeue N`, `--noalias=false`,
//! `--no-extrapolate`, `--instruction-tables[=full]`, `--json` (the
//! reports as JSON), `--time` (the simulation's time on stderr).

use course_engine::engine::mca::pipeline::{self, Options, views};
use course_engine::model::mc::{
    Advance, Def, Desc, Instr, ProcResource, Processor, ReadDesc, RegisterFile, Registers,
    ResourceUse, Use, WriteDesc,
};
use serde_json::Value;
use std::collections::HashMap;
use std::process::ExitCode;

type R<T> = Result<T, String>;

/// Register names to ids.
type Ids = HashMap<String, u16>;

/// Register classes by name.
type Classes = Vec<(String, Vec<u16>)>;

fn arr(v: &Value) -> R<&Vec<Value>> {
    v.as_array()
        .ok_or_else(|| format!("expected an array, got {v}"))
}

fn num(v: &Value) -> R<i64> {
    v.as_i64()
        .ok_or_else(|| format!("expected an integer, got {v}"))
}

fn u32v(v: &Value) -> R<u32> {
    u32::try_from(num(v)?).map_err(|e| e.to_string())
}

fn text(v: &Value) -> R<&str> {
    v.as_str()
        .ok_or_else(|| format!("expected a string, got {v}"))
}

fn flag(v: &Value) -> bool {
    v.as_i64().is_some_and(|x| x != 0) || v.as_bool() == Some(true)
}

fn at(v: &Value, i: usize) -> R<&Value> {
    arr(v)?
        .get(i)
        .ok_or_else(|| format!("missing element {i} of {v}"))
}

/// The registers of the model's first line.
fn registers(target: &Value) -> R<(Registers, Ids, Classes)> {
    let list = arr(&target["registers"])?;
    let mut ids = HashMap::new();
    let mut regs = Registers {
        names: vec![String::new()],
        subregs: vec![Vec::new()],
        superregs: vec![Vec::new()],
        constant: vec![false],
        artificial: vec![false],
    };
    for (i, r) in list.iter().enumerate() {
        let name = text(at(r, 0)?)?.to_string();
        ids.insert(
            name.clone(),
            u16::try_from(i + 1).map_err(|e| e.to_string())?,
        );
        regs.names.push(name);
    }
    let id = |n: &Value| -> R<u16> {
        ids.get(text(n)?)
            .copied()
            .ok_or_else(|| format!("unknown register {n}"))
    };
    for r in list {
        regs.subregs
            .push(arr(at(r, 1)?)?.iter().map(id).collect::<R<_>>()?);
        regs.superregs
            .push(arr(at(r, 2)?)?.iter().map(id).collect::<R<_>>()?);
        regs.constant.push(flag(at(r, 3)?));
        regs.artificial.push(arr(r)?.get(4).is_some_and(flag));
    }
    let mut classes = Vec::new();
    if let Some(map) = target["classes"].as_object() {
        for (name, c) in map {
            let members = arr(at(c, 1)?)?.iter().map(id).collect::<R<_>>()?;
            classes.push((name.clone(), members));
        }
    }
    Ok((regs, ids, classes))
}

/// The processor `cpu` of a model line.
fn processor(line: &Value, llvm: u32, classes: &[(String, Vec<u16>)]) -> R<Processor> {
    let mut resources = Vec::new();
    for r in arr(&line["resources"])? {
        resources.push(ProcResource {
            name: text(&r["name"])?.to_string(),
            units: u32v(&r["units"])?,
            super_idx: u16::try_from(num(&r["super"])?).map_err(|e| e.to_string())?,
            buffer_size: i32::try_from(num(&r["buffer"])?).map_err(|e| e.to_string())?,
            sub_units: arr(&r["sub"])?
                .iter()
                .map(|s| u16::try_from(num(s)?).map_err(|e| e.to_string()))
                .collect::<R<_>>()?,
            mask: r["mask"].as_u64().unwrap_or(0),
        });
    }
    let mut p = Processor {
        name: text(&line["cpu"])?.to_string(),
        llvm,
        issue_width: u32v(&line["issue_width"])?,
        micro_op_buffer_size: u32v(&line["micro_op_buffer_size"])?,
        load_latency: u32v(&line["load_latency"])?,
        high_latency: u32v(&line["high_latency"])?,
        processor_id: u32v(&line["processor_id"])?,
        resources,
        ..Processor::default()
    };
    let extra = &line["extra"];
    if extra.is_object() {
        p.reorder_buffer_size = u32v(&extra["rob"])?;
        p.max_retire_per_cycle = u32v(&extra["retire"])?;
        p.load_queue = u16::try_from(num(&extra["lq"])?).map_err(|e| e.to_string())?;
        p.store_queue = u16::try_from(num(&extra["sq"])?).map_err(|e| e.to_string())?;
        for f in arr(&extra["files"])?.iter().skip(1) {
            let mut costs = Vec::new();
            for c in arr(&f["costs"])? {
                let cname = text(at(c, 0)?)?;
                let regs = classes
                    .iter()
                    .find(|(n, _)| n == cname)
                    .map(|(_, m)| m.clone())
                    .ok_or_else(|| format!("unknown register class {cname}"))?;
                costs.push((regs, u32v(at(c, 1)?)?, flag(at(c, 2)?)));
            }
            p.register_files.push(RegisterFile {
                name: text(&f["name"])?.to_string(),
                phys_regs: u32v(&f["regs"])?,
                max_moves_per_cycle: u32v(&f["max_moves"])?,
                zero_moves_only: flag(&f["zero_only"]),
                costs,
            });
        }
    }
    Ok(p)
}

/// The model of `cpu` in a `dump model` file.
fn model(path: &str, cpu: &str, llvm: u32) -> R<(Processor, Registers, HashMap<String, u16>)> {
    let src = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    let mut lines = src.lines();
    let first: Value =
        serde_json::from_str(lines.next().ok_or("empty model file")?).map_err(|e| e.to_string())?;
    let (regs, ids, classes) = registers(&first["target"])?;
    for l in lines {
        let v: Value = serde_json::from_str(l).map_err(|e| e.to_string())?;
        if v["cpu"] == cpu {
            return Ok((processor(&v, llvm, &classes)?, regs, ids));
        }
    }
    Err(format!("{path}: no cpu {cpu}"))
}

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("mca_kernel: {e}");
            ExitCode::FAILURE
        }
    }
}

/// The command line.
struct Args {
    model: String,
    kernel: String,
    cpu: String,
    llvm: u32,
    source: Option<String>,
    opts: Options,
    views: views::ViewSet,
    tables: Option<bool>,
    json: bool,
    time: bool,
}

fn args() -> R<Args> {
    let mut it = std::env::args().skip(1);
    let mut pos = Vec::new();
    let mut a = Args {
        model: String::new(),
        kernel: String::new(),
        cpu: String::new(),
        llvm: 22,
        source: None,
        opts: Options::default(),
        views: views::ViewSet::default(),
        tables: None,
        json: false,
        time: false,
    };
    while let Some(x) = it.next() {
        let mut val = |name: &str| -> R<u64> {
            let v = it.next().ok_or(format!("{name} needs a value"))?;
            v.parse().map_err(|_| format!("{name}: bad number {v}"))
        };
        match x.as_str() {
            "--llvm" => a.llvm = u32::try_from(val("--llvm")?).map_err(|e| e.to_string())?,
            "--source" => a.source = Some(it.next().ok_or("--source needs a file")?),
            "--iterations" => a.opts.iterations = val("--iterations")?,
            "--timeline" => a.views.timeline = true,
            "--timeline-max-iterations" => a.opts.timeline_iterations = val(&x)?,
            "--dispatch" => {
                a.opts.dispatch_width = Some(u32::try_from(val(&x)?).map_err(|e| e.to_string())?)
            }
            "--register-file-size" => {
                a.opts.register_file_size =
                    Some(u32::try_from(val(&x)?).map_err(|e| e.to_string())?);
            }
            "--lqueue" => {
                a.opts.load_queue_size = Some(u32::try_from(val(&x)?).map_err(|e| e.to_string())?)
            }
            "--squeue" => {
                a.opts.store_queue_size = Some(u32::try_from(val(&x)?).map_err(|e| e.to_string())?)
            }
            "--noalias=false" => a.opts.noalias = false,
            "--no-extrapolate" => a.opts.extrapolate = false,
            "--instruction-tables" => a.tables = Some(false),
            "--instruction-tables=full" => a.tables = Some(true),
            "--json" => a.json = true,
            "--time" => a.time = true,
            _ if x.starts_with("--") => return Err(format!("unknown option {x}")),
            _ => pos.push(x),
        }
    }
    let [m, k, c] =
        <[String; 3]>::try_from(pos).map_err(|_| "usage: mca_kernel MODEL KERNEL CPU [options]")?;
    (a.model, a.kernel, a.cpu) = (m, k, c);
    Ok(a)
}

fn run() -> R<()> {
    let a = args()?;
    let (mut p, regs, ids) = model(&a.model, &a.cpu, a.llvm)?;
    let src = std::fs::read_to_string(&a.kernel).map_err(|e| format!("{}: {e}", a.kernel))?;
    let mut kernel = Vec::new();
    for l in src.lines() {
        let v: Value = serde_json::from_str(l).map_err(|e| e.to_string())?;
        kernel.push(kernel::instruction(&v, &a.cpu, &mut p, &regs, &ids)?);
    }
    let source = match &a.source {
        Some(s) => std::fs::read_to_string(s).map_err(|e| format!("{s}: {e}"))?,
        None => String::new(),
    };
    let regions = if a.source.is_some() {
        kernel::regions(&source, &kernel)
    } else {
        vec![kernel::Region {
            name: None,
            members: (0..kernel.len()).collect(),
        }]
    };
    let lines: Vec<&str> = source.lines().collect();
    let comments: Vec<String> = kernel
        .iter()
        .map(|k| {
            views::source_comment(
                lines
                    .get(k.2.wrapping_sub(1))
                    .map(|l| kernel::after_label(l)),
            )
        })
        .collect();
    let mut out = String::new();
    let mut index = 0;
    for r in &regions {
        if r.members.is_empty() {
            continue;
        }
        let instrs: Vec<Instr> = r.members.iter().map(|&i| kernel[i].0.clone()).collect();
        let texts: Vec<String> = r.members.iter().map(|&i| kernel[i].1.clone()).collect();
        let header = r
            .name
            .clone()
            .map(|name| views::RegionHeader { index, name });
        if let Some(full) = a.tables {
            if let Some(h) = &header {
                out.push_str(&views::region_header(h));
            }
            let cs: Vec<String> = r.members.iter().map(|&i| comments[i].clone()).collect();
            out.push_str(&pipeline::instruction_tables_with_comments(
                &p,
                &instrs,
                &texts,
                full.then_some(&cs[..]),
            ));
        } else {
            let t0 = std::time::Instant::now();
            let rep = pipeline::simulate(&p, &regs, &instrs, &a.opts).map_err(|e| e.to_string())?;
            if a.time {
                eprintln!(
                    "simulate: {:?} ({} iterations extrapolated)",
                    t0.elapsed(),
                    rep.extrapolated_iterations
                );
            }
            if a.json {
                out.push_str(&serde_json::to_string(&rep).map_err(|e| e.to_string())?);
                out.push('\n');
            } else {
                out.push_str(&views::region(
                    &p,
                    &instrs,
                    &texts,
                    &rep,
                    a.views,
                    header.as_ref(),
                ));
            }
        }
        index += 1;
    }
    // A closed pipe (`| head`) is not an error worth a panic.
    let _ = std::io::Write::write_all(&mut std::io::stdout().lock(), out.as_bytes());
    Ok(())
}

mod kernel {
    //! `dump kernel` records to instructions, descriptors and texts.
    use super::*;

    /// A region of the source: its name (`None`: the default region,
    /// printed without a header) and the instructions in it.
    pub struct Region {
        pub name: Option<String>,
        pub members: Vec<usize>,
    }

    /// Splits `src` at `# LLVM-MCA-BEGIN` / `# LLVM-MCA-END` (by line,
    /// as the instructions' `line` fields give them).
    pub fn regions(src: &str, kernel: &[(Instr, String, usize)]) -> Vec<Region> {
        let mut spans: Vec<(String, usize, usize)> = Vec::new();
        let mut open: Vec<(String, usize)> = Vec::new();
        for (i, l) in src.lines().enumerate() {
            let line = i + 1;
            let t = l.trim_start();
            let body = t
                .strip_prefix('#')
                .or_else(|| t.strip_prefix("//"))
                .map(str::trim_start);
            let Some(body) = body else { continue };
            if let Some(n) = body.strip_prefix("LLVM-MCA-BEGIN") {
                open.push((n.trim().to_string(), line));
            } else if let Some(n) = body.strip_prefix("LLVM-MCA-END") {
                let n = n.trim();
                let at = if n.is_empty() && open.len() == 1 {
                    Some(0)
                } else {
                    open.iter().position(|o| o.0 == n)
                };
                if let Some(at) = at {
                    let (name, start) = open.remove(at);
                    spans.push((name, start, line));
                }
            }
        }
        if spans.is_empty() && open.is_empty() {
            return vec![Region {
                name: None,
                members: (0..kernel.len()).collect(),
            }];
        }
        for (name, start) in open {
            spans.push((name, start, usize::MAX));
        }
        spans.sort_by_key(|s| s.1);
        spans
            .into_iter()
            .map(|(name, s, e)| Region {
                name: Some(name),
                members: (0..kernel.len())
                    .filter(|&k| kernel[k].2 > s && kernel[k].2 < e)
                    .collect(),
            })
            .collect()
    }

    /// A source line from its instruction on: leading blanks and a label
    /// dropped.
    pub fn after_label(line: &str) -> &str {
        let t = line.trim_start();
        let label = t.find(':').filter(|&i| {
            i > 0
                && t[..i]
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || "._$".contains(c))
        });
        match label {
            Some(i) => t[i + 1..].trim_start(),
            None => t,
        }
    }

    fn res_index(p: &Processor, name: &Value) -> R<u16> {
        let n = text(name)?;
        let i = p
            .resources
            .iter()
            .position(|r| r.name == n)
            .ok_or_else(|| format!("unknown resource {n}"))?;
        u16::try_from(i).map_err(|e| e.to_string())
    }

    fn own_bit(mask: u64) -> u64 {
        if mask == 0 {
            0
        } else {
            1 << (63 - mask.leading_zeros())
        }
    }

    /// `InstrBuilder`'s `UsedBuffers` from the class's write-proc-res.
    fn used_buffers(p: &Processor, wpr: &[(u16, u32, u32)]) -> u64 {
        let mut buffers = 0;
        let mut supers: Vec<u64> = Vec::new();
        for &(res, release, _) in wpr {
            let r = &p.resources[usize::from(res)];
            if release == 0 {
                continue;
            }
            if r.buffer_size >= 0 {
                buffers |= own_bit(r.mask);
            }
            if r.super_idx != 0 {
                let m = p
                    .resources
                    .get(usize::from(r.super_idx))
                    .map_or(0, |s| s.mask);
                if !supers.contains(&m) {
                    supers.push(m);
                }
            }
        }
        for sm in supers {
            for r in p.resources.iter().skip(1) {
                if r.buffer_size != -1 && r.mask != sm && r.mask & sm == sm {
                    buffers |= own_bit(r.mask);
                }
            }
        }
        buffers
    }

    fn names_mask(p: &Processor, names: &Value, groups: bool) -> R<u64> {
        let mut m = 0;
        for n in arr(names)? {
            let r = &p.resources[usize::from(res_index(p, n)?)];
            match (r.is_group(), groups) {
                (false, false) => m |= r.mask,
                (true, true) => m |= own_bit(r.mask),
                _ => {}
            }
        }
        Ok(m)
    }

    /// The descriptor of a `dump kernel` instruction record.
    fn desc(p: &Processor, inst: &Value, regs: &HashMap<String, u16>) -> R<Desc> {
        let reg = |v: &Value| -> R<u16> {
            let n = text(v)?;
            if n.is_empty() {
                Ok(0)
            } else {
                regs.get(n)
                    .copied()
                    .ok_or_else(|| format!("unknown register {n}"))
            }
        };
        let mut d = Desc {
            sched_class: u32v(&inst["class"])?,
            uops: u32v(&inst["uops"])?,
            max_latency: u32v(&inst["maxlat"])?,
            must_issue_immediately: flag(&inst["immediate"]),
            partially_overlapping_groups: flag(&inst["overlap"]),
            begin_group: flag(&inst["begin_group"]),
            end_group: flag(&inst["end_group"]),
            retire_ooo: flag(&inst["retire_ooo"]),
            ..Desc::default()
        };
        for r in arr(&inst["res"])? {
            d.resources.push(ResourceUse {
                resource: res_index(p, at(r, 0)?)?,
                begin: u32v(at(r, 1)?)?,
                end: u32v(at(r, 2)?)?,
                units: u32v(at(r, 3)?)?,
                reserved: flag(at(r, 4)?),
            });
        }
        for w in arr(&inst["wpr"])? {
            d.write_proc_res
                .push((res_index(p, at(w, 0)?)?, u32v(at(w, 1)?)?, u32v(at(w, 2)?)?));
        }
        d.used_buffers = used_buffers(p, &d.write_proc_res);
        d.used_units = names_mask(p, &inst["units"], false)?;
        d.used_groups = names_mask(p, &inst["groups"], true)?;
        for w in arr(&inst["writes"])? {
            d.writes.push(WriteDesc {
                op_index: i32::try_from(num(at(w, 0)?)?).map_err(|e| e.to_string())?,
                latency: u32v(at(w, 1)?)?,
                register: reg(at(w, 2)?)?,
                write_resource: u32v(at(w, 3)?)?,
                optional: flag(at(w, 4)?),
            });
        }
        for r in arr(&inst["reads"])? {
            d.reads.push(ReadDesc {
                op_index: i32::try_from(num(at(r, 0)?)?).map_err(|e| e.to_string())?,
                use_index: u32v(at(r, 1)?)?,
                register: reg(at(r, 2)?)?,
            });
        }
        for a in arr(&inst["advance"])? {
            d.advance.push(Advance {
                use_index: u32v(at(a, 0)?)?,
                write_resource: u32v(at(a, 1)?)?,
                cycles: i32::try_from(num(at(a, 2)?)?).map_err(|e| e.to_string())?,
            });
        }
        if let Some(wle) = inst["wle"].as_array() {
            for w in wle {
                d.write_latencies.push((
                    i32::try_from(num(at(w, 0)?)?).map_err(|e| e.to_string())?,
                    u32v(at(w, 1)?)?,
                ));
            }
        }
        Ok(d)
    }

    /// The descriptor writes `createInstruction` turns into defs, with
    /// their registers (optional defs of no register and, on LLVM 22,
    /// constant registers left out).
    fn def_writes(
        d: &Desc,
        operands: &Value,
        regs: &Registers,
        ids: &HashMap<String, u16>,
        llvm: u32,
    ) -> R<Vec<(u16, u16)>> {
        let mut out = Vec::new();
        for (i, w) in d.writes.iter().enumerate() {
            let reg = if w.op_index < 0 {
                w.register
            } else {
                let op = &arr(operands)?
                    .get(w.op_index as usize)
                    .ok_or("bad operand index")?["r"];
                op.as_str().map_or(Ok(0), |n| {
                    if n.is_empty() {
                        Ok(0)
                    } else {
                        ids.get(n).copied().ok_or(format!("unknown register {n}"))
                    }
                })?
            };
            if (w.optional && reg == 0)
                || (llvm >= 22
                    && regs
                        .constant
                        .get(usize::from(reg))
                        .copied()
                        .unwrap_or(false))
            {
                continue;
            }
            out.push((u16::try_from(i).map_err(|e| e.to_string())?, reg));
        }
        Ok(out)
    }

    /// One `dump kernel` record: the instruction (its descriptor appended
    /// to `p`), its text and its source line.
    pub fn instruction(
        v: &Value,
        cpu: &str,
        p: &mut Processor,
        regs: &Registers,
        ids: &HashMap<String, u16>,
    ) -> R<(Instr, String, usize)> {
        let c = &v["cpus"][cpu];
        let inst = &c["inst"];
        if let Some(e) = inst["error"].as_str() {
            return Err(format!("line {}: {e}", v["line"]));
        }
        let d = desc(p, inst, ids)?;
        let writes = def_writes(&d, &v["operands"], regs, ids, p.llvm)?;
        let reg = |n: &Value| -> R<u16> {
            ids.get(text(n)?)
                .copied()
                .ok_or_else(|| format!("unknown register {n}"))
        };
        let mut instr = Instr {
            desc: u32::try_from(p.descs.len()).map_err(|e| e.to_string())?,
            optimizable_move: flag(&inst["move"]),
            may_load: flag(&inst["load"]),
            may_store: flag(&inst["store"]),
            side_effects: flag(&inst["side"]),
            load_barrier: flag(&inst["lbar"]),
            store_barrier: flag(&inst["sbar"]),
            opcode: text(&v["opcode"])?.to_string(),
            ..Instr::default()
        };
        // A target's post-processing may drop defs (x86's stack engine):
        // match the rest to the writes in order, by register.
        let mut cand = writes.iter();
        for df in arr(&inst["defs"])? {
            let r = reg(at(df, 0)?)?;
            let &(w, _) = cand
                .find(|c| c.1 == r)
                .ok_or_else(|| format!("line {}: def without its write", v["line"]))?;
            instr.defs.push(Def {
                register: r,
                write: w,
                clears_super: flag(at(df, 1)?),
                writes_zero: flag(at(df, 2)?),
            });
        }
        for u in arr(&inst["uses"])? {
            let (op, ui) = (num(at(u, 1)?)?, u32v(at(u, 2)?)?);
            let read = d
                .reads
                .iter()
                .position(|r| i64::from(r.op_index) == op && r.use_index == ui)
                .ok_or("a use without its read")?;
            instr.uses.push(Use {
                register: reg(at(u, 0)?)?,
                read: u16::try_from(read).map_err(|e| e.to_string())?,
                independent: flag(at(u, 3)?),
            });
        }
        p.descs.push(d);
        let print = c["print"]
            .as_str()
            .or_else(|| v["print"].as_str())
            .unwrap_or("");
        // The dumper reports the line of the token after the instruction:
        // the start of the next line.
        let line = usize::try_from(num(&v["line"])?)
            .map_err(|e| e.to_string())?
            .saturating_sub(1);
        Ok((instr, print.trim_start().to_string(), line))
    }
}
