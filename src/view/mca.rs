//! llvm-mca's views of a simulation (Algorithm 23.1.11): the typed result
//! ([`McaOutput`], the JSON form) and the text views (summary, instruction
//! info, resource pressure, timeline).

use std::collections::BTreeMap;

use serde::Serialize;

use crate::engine::mca::{Pressure, Report, TIMELINE_MAX_CYCLES};
use crate::model::ids::Cycle;
use crate::model::machine::Machine;
use crate::model::program::Program;

/// Which views follow the summary.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Views {
    pub instruction_info: bool,
    pub resource_pressure: bool,
    pub timeline: bool,
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
    #[serde(skip)]
    pub model: &'m Machine,
    /// The simulation itself (unrounded figures, timeline stamps).
    #[serde(skip)]
    pub report: Report,
    /// The pressure with resource ids in machine order, for the text view.
    #[serde(skip)]
    pub pressure: Option<Pressure>,
}

/// One row of the instruction-info view.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct InstructionRow {
    pub instruction: String,
    pub latency: u32,
    pub may_load: bool,
    pub may_store: bool,
    pub rthroughput: f64,
    pub uops: u32,
}

/// Resource pressure keyed by resource name.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PressureOutput {
    pub by_instruction: Vec<InstructionPressure>,
    pub per_iteration: BTreeMap<String, u64>,
}

/// One instruction's pressure.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct InstructionPressure {
    pub instruction: String,
    pub pressure: BTreeMap<String, u64>,
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

fn fmt2(v: f64) -> String {
    format!("{v:.2}")
}

/// The views as llvm-mca prints them.
pub fn text(o: &McaOutput) -> String {
    use std::fmt::Write;
    let (p, m, r) = (&o.program, o.model, &o.report);
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
        let _ = writeln!(s, "\n\nInstruction Info:");
        let _ = writeln!(
            s,
            "[1]: #uOps\n[2]: Latency\n[3]: RThroughput\n[4]: MayLoad\n[5]: MayStore\n"
        );
        let _ = writeln!(s, "[1]    [2]    [3]    [4]    [5]    Instructions:");
        for info in rows {
            let flag = |b: bool| if b { "*" } else { " " };
            let row = format!(
                " {:<6} {:<6} {:<6} {:<6} {:<6} {}",
                info.uops,
                info.latency,
                fmt2(info.rthroughput),
                flag(info.may_load),
                flag(info.may_store),
                info.instruction
            );
            let _ = writeln!(s, "{}", row.trim_end());
        }
    }
    if let Some(pr) = &o.pressure {
        let _ = writeln!(s, "\n\nResources:");
        for (i, &res) in pr.resources.iter().enumerate() {
            let _ = writeln!(
                s,
                "[{i}]   - {} (capacity {})",
                m.resource(res).name,
                m.resource(res).capacity
            );
        }
        let head: String = (0..pr.resources.len())
            .map(|i| format!("{:<7}", format!("[{i}]")))
            .collect();
        let cell = |v: u64| {
            if v == 0 {
                format!("{:<7}", " -")
            } else {
                format!("{:<7}", format!("{v}.00"))
            }
        };
        let _ = writeln!(s, "\n\nResource pressure per iteration:");
        let _ = writeln!(s, "{}", head.trim_end());
        let row: String = pr.per_iteration.iter().map(|&v| cell(v)).collect();
        let _ = writeln!(s, "{}", row.trim_end());
        let _ = writeln!(s, "\nResource pressure by instruction:");
        let _ = writeln!(s, "{head}Instructions:");
        for (op, r) in p.ops().iter().zip(&pr.per_instruction) {
            let row: String = r.iter().map(|&v| cell(v)).collect();
            let _ = writeln!(s, "{row}{}", op.text());
        }
    }
    if o.timeline.is_some() {
        s.push_str("\n\n");
        s.push_str(&render_timeline(p, r));
    }
    s
}

/// The timeline view: `D` dispatch, `=` waiting, `e` executing, `E`
/// executed, `-` waiting to retire, `R` retired; at most
/// [`TIMELINE_MAX_CYCLES`] columns, like llvm-mca.
pub fn render_timeline(p: &Program, r: &Report) -> String {
    use std::fmt::Write;
    let mut s = String::from("Timeline view:\n");
    let last = r.timeline.iter().map(|t| t.retire).max().unwrap_or(0);
    let width = (last + 1).min(TIMELINE_MAX_CYCLES);
    let mut tens = String::new();
    let mut ones = String::new();
    for c in 0..width {
        let digit = char::from(b'0' + (c % 10) as u8);
        let decade = (c / 10) % 2;
        tens.push(if decade == 1 { digit } else { ' ' });
        ones.push(if decade == 0 { digit } else { ' ' });
    }
    let _ = writeln!(s, "{:<10}{}", "", tens.trim_end());
    let _ = writeln!(s, "{:<10}{}\n", "Index", ones.trim_end());
    for t in &r.timeline {
        if t.dispatch >= width {
            continue;
        }
        let mut row = String::new();
        for c in 0..width {
            let ch = if c == t.dispatch {
                'D'
            } else if c < t.dispatch {
                if c % 5 == 0 {
                    '.'
                } else {
                    ' '
                }
            } else if c < t.issue {
                '='
            } else if c < t.executed {
                'e'
            } else if c == t.executed {
                'E'
            } else if c < t.retire {
                '-'
            } else if c == t.retire {
                'R'
            } else if c % 5 == 0 {
                '.'
            } else {
                ' '
            };
            row.push(ch);
        }
        let idx = format!("[{},{}]", t.iteration, t.op);
        let _ = writeln!(s, "{idx:<10}{row}   {}", p.ops()[t.op].text());
    }
    s
}
