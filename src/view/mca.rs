//! llvm-mca's views of a simulation (summary, instruction info, resource
//! pressure, timeline) as text and JSON.

use crate::engine::mca::{instruction_info, resource_pressure, Report, TIMELINE_MAX_CYCLES};
use crate::model::machine::Machine;
use crate::model::program::Program;
use crate::util::ratio::Ratio;

/// Which views [`render_text`] and [`render_json`] include after the summary.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Views {
    pub instruction_info: bool,
    pub resource_pressure: bool,
    pub timeline: bool,
}

fn fmt2(v: f64) -> String {
    format!("{v:.2}")
}

fn ratio2(r: Ratio) -> String {
    fmt2(r.to_f64())
}

/// The views as llvm-mca prints them.
pub fn render_text(p: &Program, m: &Machine, r: &Report, views: Views) -> String {
    use std::fmt::Write;
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
    let texts: Vec<String> = p.ops.iter().map(|o| o.text()).collect();
    if views.instruction_info {
        let _ = writeln!(s, "\n\nInstruction Info:");
        let _ = writeln!(
            s,
            "[1]: #uOps\n[2]: Latency\n[3]: RThroughput\n[4]: MayLoad\n[5]: MayStore\n"
        );
        let _ = writeln!(s, "[1]    [2]    [3]    [4]    [5]    Instructions:");
        for (i, info) in instruction_info(p, m).iter().enumerate() {
            let flag = |b: bool| if b { "*" } else { " " };
            let row = format!(
                " {:<6} {:<6} {:<6} {:<6} {:<6} {}",
                info.uops,
                info.latency,
                ratio2(info.rthroughput),
                flag(info.may_load),
                flag(info.may_store),
                texts[i]
            );
            let _ = writeln!(s, "{}", row.trim_end());
        }
    }
    if views.resource_pressure {
        let pr = resource_pressure(p, m);
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
        for (i, r) in pr.per_instruction.iter().enumerate() {
            let row: String = r.iter().map(|&v| cell(v)).collect();
            let _ = writeln!(s, "{row}{}", texts[i]);
        }
    }
    if views.timeline {
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
        let _ = writeln!(s, "{idx:<10}{row}   {}", p.ops[t.op].text());
    }
    s
}

/// The JSON form: the summary keys, plus the views asked for.
pub fn render_json(p: &Program, m: &Machine, r: &Report, views: Views) -> serde_json::Value {
    use serde_json::json;
    let round2 = |v: f64| (v * 100.0).round() / 100.0;
    let mut v = json!({
        "iterations": r.iterations,
        "instructions": r.instructions,
        "total_cycles": r.total_cycles,
        "total_uops": r.total_uops,
        "dispatch_width": r.dispatch_width,
        "uops_per_cycle": round2(r.uops_per_cycle()),
        "ipc": round2(r.ipc()),
        "block_rthroughput": r.block_rthroughput.to_f64(),
        "bound": r.bound.fraction_string(),
    });
    let texts: Vec<String> = p.ops.iter().map(|o| o.text()).collect();
    if views.instruction_info {
        v["instruction_info"] = instruction_info(p, m)
            .iter()
            .zip(&texts)
            .map(|(i, t)| {
                json!({"instruction": t, "uops": i.uops, "latency": i.latency,
                    "rthroughput": i.rthroughput.to_f64(), "may_load": i.may_load, "may_store": i.may_store})
            })
            .collect();
    }
    if views.resource_pressure {
        let pr = resource_pressure(p, m);
        let names: Vec<&str> = pr
            .resources
            .iter()
            .map(|&x| m.resource(x).name.as_str())
            .collect();
        let obj = |row: &[u64]| -> serde_json::Map<String, serde_json::Value> {
            names
                .iter()
                .zip(row)
                .map(|(n, &u)| (n.to_string(), json!(u)))
                .collect()
        };
        v["resource_pressure"] = json!({
            "per_iteration": obj(&pr.per_iteration),
            "by_instruction": pr.per_instruction.iter().zip(&texts)
                .map(|(row, t)| json!({"instruction": t, "pressure": obj(row)})).collect::<Vec<_>>(),
        });
    }
    if views.timeline {
        v["timeline"] = r
            .timeline
            .iter()
            .map(|t| {
                json!({"iteration": t.iteration, "index": t.op, "dispatch": t.dispatch,
                    "issue": t.issue, "executed": t.executed, "retire": t.retire})
            })
            .collect();
    }
    v
}
