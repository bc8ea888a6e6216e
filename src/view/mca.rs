//! llvm-mca's views of a simulation (Algorithm 23.1.11): the typed result
//! ([`McaOutput`], the JSON form) and the text views (summary, instruction
//! info, resource pressure, timeline).

use std::collections::BTreeMap;

use serde::Serialize;

use crate::engine::mca::{Report, TIMELINE_MAX_CYCLES};
use crate::model::ids::{Cycle, ResourceId};
use crate::model::machine::{Machine, ISSUE};
use crate::model::program::Program;
use crate::util::ratio::Ratio;

/// Which views follow the summary.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Views {
    /// Which bound of Theorem 23.1.12 binds (`--bottleneck`).
    pub bottleneck: bool,
    pub instruction_info: bool,
    pub resource_pressure: bool,
    pub timeline: bool,
}

/// The bottleneck section as data ([`crate::engine::mca::bottleneck`]).
#[derive(Clone, Debug, Serialize)]
pub struct BottleneckView {
    /// `resource` or `recurrence`.
    pub binding: String,
    /// The bound's value, as a fraction.
    pub bound: String,
    /// How far above the bound the simulation ends, in percent (rounded to
    /// tenths).
    pub percent_above: f64,
    /// Simulated cycles per iteration, rounded to cents.
    pub per_iteration: f64,
    /// Cycles per iteration once the pipeline is full (rounded to cents):
    /// what the bound is compared with.
    pub steady: f64,
    /// RThroughput, as a fraction.
    pub resource_bound: String,
    /// The busiest resource, when it binds.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub resource: Option<String>,
    /// ℓ(Z)/d(Z) of the critical recurrence, as a fraction (0 without one).
    pub recurrence_bound: String,
    /// The instructions behind the bound: the recurrence in cycle order,
    /// or the resource's users with their cycles per iteration.
    pub instructions: Vec<BottleneckStep>,
    /// What would lift the bound.
    pub advice: String,
}

/// One instruction behind a bound.
#[derive(Clone, Debug, Serialize)]
pub struct BottleneckStep {
    /// Cycles: the edge's latency to the next (a recurrence), or the cycles
    /// booked per iteration (a resource).
    pub cycles: u64,
    /// Iterations the edge spans (a recurrence only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub distance: Option<u64>,
    pub instruction: String,
}

/// The bottleneck of `b` as data, instructions named by `texts`.
pub fn bottleneck_view(
    p: &Program,
    m: &Machine,
    b: &crate::engine::mca::bottleneck::Bottleneck,
    texts: &[String],
) -> BottleneckView {
    use crate::engine::mca::bottleneck::Binding;
    let round = |x: f64, k: f64| (x * k).round() / k;
    let name = |o: crate::model::ids::OpId| texts.get(o.index()).cloned().unwrap_or_default();
    let (binding, resource, instructions, advice) = match &b.binding {
        Binding::Recurrence(z) => {
            let steps: Vec<BottleneckStep> = z
                .edges
                .iter()
                .map(|&e| {
                    let e = &p.edges()[e as usize];
                    BottleneckStep {
                        cycles: u64::from(e.latency),
                        distance: Some(u64::from(e.distance)),
                        instruction: expand_tabs(&name(e.from)),
                    }
                })
                .collect();
            let two = Ratio::new(z.latency, 2 * z.distance);
            let advice = if two >= b.resource_bound {
                format!(
                    "break the chain: k independent accumulators (or chains) divide ℓ/d by k; with 2 it would be {}, until the resource bound {} binds",
                    two.decimal1(),
                    b.resource_bound.decimal1()
                )
            } else {
                format!(
                    "break the chain: with 2 independent accumulators (or chains) the resource bound {} binds instead",
                    b.resource_bound.decimal1()
                )
            };
            ("recurrence", None, steps, advice)
        }
        Binding::Resource {
            resource, users, ..
        } => {
            let r = m.resource(*resource).name.clone();
            let steps = users
                .iter()
                .map(|&(o, c)| BottleneckStep {
                    cycles: c,
                    distance: None,
                    instruction: expand_tabs(&name(o)),
                })
                .collect();
            let advice = if *resource == crate::model::ids::ResourceId(0) {
                "fewer micro-ops per iteration (a folded form, fewer instructions): more iterations in flight do not lift a dispatch bound".to_string()
            } else {
                format!(
                    "fewer cycles on {r}: fewer of its users, or forms that hold it for fewer cycles or use another unit; unrolling and more accumulators do not lift a resource bound"
                )
            };
            ("resource", Some(r), steps, advice)
        }
    };
    BottleneckView {
        binding: binding.into(),
        bound: b.bound().fraction_string(),
        percent_above: round(b.above * 100.0, 10.0),
        per_iteration: round(b.per_iteration, 100.0),
        steady: round(b.steady, 100.0),
        resource_bound: b.resource_bound.fraction_string(),
        resource,
        recurrence_bound: b.recurrence_bound.fraction_string(),
        instructions,
        advice,
    }
}

/// The bottleneck section as text.
pub fn bottleneck_text(b: &BottleneckView) -> String {
    use std::fmt::Write;
    let mut s = String::from(
        "\n\nBottleneck (Theorem 23.1.12: cycles per iteration ≥ max(RThroughput, ℓ/d)):\n",
    );
    let _ = writeln!(
        s,
        "  simulated:        {:.2} cycles per iteration ({:.2} in the steady state)",
        b.per_iteration, b.steady
    );
    let _ = writeln!(s, "  RThroughput:      {}", b.resource_bound);
    let _ = writeln!(s, "  recurrence ℓ/d:   {}", b.recurrence_bound);
    let sits = if b.percent_above <= crate::engine::mca::bottleneck::CLOSE * 100.0 {
        format!("the simulation is {:.1} % above it", b.percent_above)
    } else {
        format!(
            "but the simulation is {:.1} % above it: neither bound explains the run alone (queues, the reorder buffer, ports chosen round-robin; see --resource-pressure and --timeline)",
            b.percent_above
        )
    };
    match b.resource.as_deref() {
        Some(r) => {
            let line = format!("  Binding: the resource {r} at {}; {sits}.", b.bound);
            let _ = writeln!(s, "{}", crate::util::text::wrap_line(&line, "    ", 80));
            for st in &b.instructions {
                let _ = writeln!(s, "    {:>3} cycles  {}", st.cycles, st.instruction);
            }
        }
        None => {
            let line = format!("  Binding: the recurrence at {}; {sits}.", b.bound);
            let _ = writeln!(s, "{}", crate::util::text::wrap_line(&line, "    ", 80));
            for st in &b.instructions {
                let _ = writeln!(
                    s,
                    "    {}  (ℓ = {}{})",
                    st.instruction,
                    st.cycles,
                    match st.distance {
                        Some(d) if d > 0 => format!(", d = {d}"),
                        _ => String::new(),
                    }
                );
            }
        }
    }
    s.push_str(&crate::util::text::wrap_line(
        &format!("  To lift it: {}.", b.advice),
        "    ",
        80,
    ));
    s.push('\n');
    s
}

/// A simulation with llvm-mca's summary fields and the views asked for.
/// Fields are declared in alphabetical order, the order JSON objects print
/// their keys in; a view not asked for is absent.
#[derive(Clone, Debug, Serialize)]
pub struct McaOutput<'m> {
    /// Definition 23.1.10.
    pub block_rthroughput: f64,
    /// The Theorem 23.1.12 bound, as a fraction.
    pub bound: String,
    pub dispatch_width: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bottleneck: Option<BottleneckView>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub instruction_info: Option<Vec<InstructionRow>>,
    pub instructions: u64,
    /// Instructions per cycle, rounded to cents.
    pub ipc: f64,
    pub iterations: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub resource_pressure: Option<PressureOutput>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub timeline: Option<Vec<TimelineRow>>,
    pub total_cycles: u64,
    pub total_uops: u64,
    /// Rounded to cents.
    pub uops_per_cycle: f64,
    /// The body, for the text views.
    #[serde(skip)]
    pub program: Program,
    /// What the views call each instruction (its `# asm:` text or the
    /// operation as written).
    #[serde(skip)]
    pub texts: Vec<String>,
    #[serde(skip)]
    pub model: &'m Machine,
    /// Assembly instructions left out (`--skip-unsupported`), each as
    /// `file:line:column: why`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub skipped: Vec<String>,
    /// The simulation itself (unrounded figures, timeline stamps).
    #[serde(skip)]
    pub report: Report,
}

/// One row of the instruction-info view: llvm-mca's `--instruction-tables=full`
/// columns `[1]`–`[9]`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct InstructionRow {
    /// `[7]`: the latency a consumer sees through its best ReadAdvance.
    pub bypass_latency: u32,
    pub instruction: String,
    /// `[2]`: the largest write latency.
    pub latency: u32,
    pub may_load: bool,
    pub may_store: bool,
    /// `[9]`: the class (named after the LLVM opcode in the built-in models).
    pub opcode: String,
    /// `[8]`: each resource booked and every group containing it, with
    /// ReleaseAtCycles in brackets when more than one.
    pub resources: Vec<String>,
    /// `[3]`.
    pub rthroughput: f64,
    /// `[1]`.
    pub uops: u32,
}

/// Resource pressure keyed by resource name: cycles per iteration.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PressureOutput {
    pub by_instruction: Vec<InstructionPressure>,
    pub per_iteration: BTreeMap<String, f64>,
}

/// One instruction's pressure.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct InstructionPressure {
    pub instruction: String,
    pub pressure: BTreeMap<String, f64>,
}

/// The life of one recorded instance.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TimelineRow {
    pub dispatch: Cycle,
    pub executed: Cycle,
    /// Index of the operation in the body.
    pub index: usize,
    pub issue: Cycle,
    pub iteration: u64,
    pub retire: Cycle,
}

/// The resource kinds the pressure views show (groups and `issue` left
/// out: a group's micro-ops are counted on the member that served them).
pub fn pressure_resources(m: &Machine) -> Vec<ResourceId> {
    m.resource_ids()
        .filter(|&r| r != ISSUE && !m.resource(r).is_group())
        .collect()
}

fn fmt2(v: f64) -> String {
    format!("{v:.2}")
}

fn pad_to(line: &mut String, col: usize) {
    let n = line.chars().count();
    line.extend(std::iter::repeat_n(' ', col.saturating_sub(n)));
}

/// Tab stops of [`expand_tabs`].
pub const TAB_STOP: usize = 4;

/// Expands tabs to the next multiple of [`TAB_STOP`] columns, the way the
/// §7 boxes of Lesson 23.1 show llvm-mca's output (llvm-mca prints a tab
/// after each mnemonic).
pub fn expand_tabs(line: &str) -> String {
    let mut out = String::with_capacity(line.len() + 8);
    let mut col = 0;
    for ch in line.chars() {
        if ch == '\t' {
            let n = TAB_STOP - col % TAB_STOP;
            out.extend(std::iter::repeat_n(' ', n));
            col += n;
        } else {
            out.push(ch);
            col += 1;
        }
    }
    out
}

/// The instruction-info view (llvm-mca's `--instruction-tables=full`
/// layout): micro-ops, latency, reciprocal throughput, load/store flags,
/// bypass latency, resources with ReleaseAtCycles, opcode, instruction.
pub fn instruction_info_text(rows: &[InstructionRow]) -> String {
    use std::fmt::Write;
    let mut s = String::from("\n\nInstruction Info:\n");
    s.push_str("[1]: #uOps\n[2]: Latency\n[3]: RThroughput\n[4]: MayLoad\n[5]: MayStore\n[6]: HasSideEffects (U)\n[7]: Bypass Latency\n[8]: Resources (<Name> | <Name>[<ReleaseAtCycle>] | <Name>[<AcquireAtCycle>,<ReleaseAtCycle])\n[9]: LLVM Opcode Name\n\n");
    s.push_str("[1]    [2]    [3]    [4]    [5]    [6]    [7]    [8]                                        [9]                        Instructions:\n");
    for r in rows {
        let flag = |b: bool| if b { " *     " } else { "       " };
        let mut line = format!(
            " {:<7}{:<6}{:<7}{}{}       {:<7}",
            r.uops,
            r.latency,
            fmt2(r.rthroughput),
            flag(r.may_load),
            flag(r.may_store),
            format!(" {}", r.bypass_latency),
        );
        // `[8]` runs to column 91 and `[9]` to column 118 (absolute), each
        // followed by at least one space.
        line.push_str(&r.resources.join(","));
        pad_to(&mut line, 91);
        line.push(' ');
        line.push_str(&r.opcode);
        pad_to(&mut line, 118);
        line.push(' ');
        line.push_str(&r.instruction);
        line.push('\t');
        let _ = writeln!(s, "{}", expand_tabs(&line));
    }
    s
}

/// What the model says about each instruction, without simulating
/// (llvm-mca's `--instruction-tables`).
#[derive(Clone, Debug, Serialize)]
pub struct TablesOutput {
    pub instruction_info: Vec<InstructionRow>,
    pub resource_pressure: PressureOutput,
    /// What the views call each instruction.
    #[serde(skip)]
    pub texts: Vec<String>,
}

/// The `--instruction-tables` view: instruction info, then the pressure
/// the model implies.
pub fn tables_text(m: &Machine, o: &TablesOutput) -> String {
    let mut s = instruction_info_text(&o.instruction_info);
    s.push_str(&pressure_text(m, &o.texts, &o.resource_pressure));
    s
}

/// The views as llvm-mca prints them.
pub fn text(o: &McaOutput) -> String {
    use std::fmt::Write;
    let (m, r) = (o.model, &o.report);
    let mut s = String::new();
    let _ = writeln!(s, "Iterations:        {}", r.iterations);
    let _ = writeln!(s, "Instructions:      {}", r.instructions);
    let _ = writeln!(s, "Total Cycles:      {}", r.total_cycles);
    let _ = writeln!(s, "Total uOps:        {}", r.total_uops);
    let _ = writeln!(s);
    let _ = writeln!(s, "Dispatch Width:    {}", r.dispatch_width);
    let _ = writeln!(s, "uOps Per Cycle:    {}", fmt2(r.uops_per_cycle()));
    let _ = writeln!(s, "IPC:               {}", fmt2(r.ipc()));
    let _ = writeln!(s, "Block RThroughput: {}", r.block_rthroughput.decimal1());
    if let Some(rows) = &o.instruction_info {
        s.push_str(&instruction_info_text(rows));
    }
    if let Some(pr) = &o.resource_pressure {
        s.push_str(&pressure_text(m, &o.texts, pr));
    }
    if o.timeline.is_some() {
        s.push_str("\n\n");
        s.push_str(&render_timeline(&o.texts, r));
    }
    if let Some(b) = &o.bottleneck {
        s.push_str(&bottleneck_text(b));
    }
    s
}

/// The resource views: the kinds, then cycles per iteration in total and
/// per instruction (`-` for none).
pub fn pressure_text(m: &Machine, texts: &[String], pr: &PressureOutput) -> String {
    use std::fmt::Write;
    let kinds = pressure_resources(m);
    let mut s = String::from("\n\nResources:\n");
    for (i, &res) in kinds.iter().enumerate() {
        let _ = writeln!(
            s,
            "{:<6}- {} (capacity {})",
            format!("[{i}]"),
            m.resource(res).name,
            m.resource(res).capacity
        );
    }
    let head: String = (0..kinds.len())
        .map(|i| format!("{:<7}", format!("[{i}]")))
        .collect();
    let cell = |v: f64| {
        if v == 0.0 {
            format!("{:<7}", " -")
        } else {
            format!("{:<7}", fmt2(v))
        }
    };
    let row = |map: &BTreeMap<String, f64>| -> String {
        kinds
            .iter()
            .map(|&k| cell(map.get(&m.resource(k).name).copied().unwrap_or(0.0)))
            .collect()
    };
    let _ = writeln!(s, "\n\nResource pressure per iteration:");
    let _ = writeln!(s, "{}", head.trim_end());
    let _ = writeln!(s, "{}", row(&pr.per_iteration).trim_end());
    let _ = writeln!(s, "\nResource pressure by instruction:");
    let _ = writeln!(s, "{head}Instructions:");
    for (ip, t) in pr.by_instruction.iter().zip(texts) {
        let _ = writeln!(s, "{}", expand_tabs(&format!("{}{t}", row(&ip.pressure))));
    }
    s
}

/// The timeline view as llvm-mca prints it: `D` dispatch, `=` waiting, `e`
/// executing, `E` executed, `-` waiting to retire, `R` retired, `.` every
/// fifth column and the last ([`Report::timeline_last_cycle`]); only
/// entries retired within the first [`TIMELINE_MAX_CYCLES`] cycles.
pub fn render_timeline(texts: &[String], r: &Report) -> String {
    use std::fmt::Write;
    let mut s = String::from("Timeline view:\n");
    let last = r.timeline_last_cycle();
    if last >= 10 {
        let tens: String = (0..=last)
            .map(|c| {
                if (c / 10) % 2 == 0 {
                    ' '
                } else {
                    char::from(b'0' + (c % 10) as u8)
                }
            })
            .collect();
        let _ = writeln!(s, "{:<10}{tens}", "");
    }
    let ones: String = (0..=last)
        .map(|c| {
            if (c / 10) % 2 == 0 {
                char::from(b'0' + (c % 10) as u8)
            } else {
                ' '
            }
        })
        .collect();
    let _ = writeln!(s, "{:<10}{ones}", "Index");
    for (i, t) in r.timeline.iter().enumerate() {
        if i == 0 {
            s.push('\n');
        }
        if t.retire >= TIMELINE_MAX_CYCLES {
            s.push_str("Truncated display due to cycle limit\n");
            break;
        }
        let mut row = String::new();
        for c in 0..t.dispatch {
            row.push(if c % 5 == 0 { '.' } else { ' ' });
        }
        row.push('D');
        if t.dispatch != t.executed {
            for _ in t.dispatch + 1..t.issue {
                row.push('=');
            }
            if t.issue == t.executed {
                row.push('E');
            } else {
                if t.dispatch != t.issue {
                    row.push('e');
                }
                for _ in t.issue + 1..t.executed {
                    row.push('e');
                }
                row.push('E');
            }
        }
        for _ in t.executed + 1..t.retire {
            row.push('-');
        }
        if t.executed < t.retire {
            row.push('R');
        }
        for c in t.retire + 1..=last {
            row.push(if c % 5 == 0 || c == last { '.' } else { ' ' });
        }
        let idx = format!("[{},{}]", t.iteration, t.op);
        let line = format!("{idx:<10}{row}   {}", texts[t.op]);
        let _ = writeln!(s, "{}", expand_tabs(&line));
    }
    s
}
