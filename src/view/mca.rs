//! llvm-mca's views of a simulation (Algorithm 23.1.11): the text views
//! (summary, instruction info, resource pressure, timeline, bottleneck) of
//! an [`McaOutput`] or a [`TablesOutput`].

use std::collections::BTreeMap;

use crate::api::mca::{
    BottleneckView, InstructionRow, McaOutput, PressureOutput, TablesOutput, expand_tabs,
};
use course_engine::engine::mca::{Report, TIMELINE_MAX_CYCLES};
use course_engine::model::ids::ResourceId;
use course_engine::model::machine::{ISSUE, Machine};

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
    let sits = if b.percent_above <= course_engine::engine::mca::bottleneck::CLOSE * 100.0 {
        format!("the simulation is {:.1} % above it", b.percent_above)
    } else {
        format!(
            "but the simulation is {:.1} % above it: neither bound explains the run alone (queues, the reorder buffer, ports chosen round-robin; see --resource-pressure and --timeline)",
            b.percent_above
        )
    };
    match b.resource.as_deref() {
        Some(r) => {
            let what = if r.starts_with("the ") {
                r.to_string()
            } else {
                format!("the resource {r}")
            };
            let line = format!("  Binding: {what} at {}; {sits}.", b.bound);
            let _ = writeln!(s, "{}", course_content::text::wrap_line(&line, "    ", 80));
            for st in &b.instructions {
                let _ = writeln!(s, "    {:>3} cycles  {}", st.cycles, st.instruction);
            }
        }
        None => {
            let line = format!("  Binding: the recurrence at {}; {sits}.", b.bound);
            let _ = writeln!(s, "{}", course_content::text::wrap_line(&line, "    ", 80));
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
    s.push_str(&course_content::text::wrap_line(
        &format!("  To lift it: {}.", b.advice),
        "    ",
        80,
    ));
    s.push('\n');
    s
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

/// The whole file's report, as llvm-mca prints it.
pub fn llvm_text(out: &crate::api::mca::llvm::Output) -> String {
    use course_engine::engine::mca::pipeline::{self, views};
    let mut s = String::new();
    for (k, r) in out.regions.iter().enumerate() {
        let header = r.marked.then(|| views::RegionHeader {
            index: k,
            name: r.name.clone(),
        });
        match (&r.report, out.request.instruction_tables) {
            (_, Some(full)) => {
                if let Some(h) = &header {
                    s.push_str(&format!("\n[{}] Code Region", h.index));
                    if !h.name.is_empty() {
                        s.push_str(&format!(" - {}", h.name));
                    }
                    s.push_str("\n\n");
                }
                let comments = full.then_some(&r.comments[..]);
                s.push_str(&pipeline::instruction_tables_with_comments(
                    &r.processor,
                    &r.kernel,
                    &r.texts,
                    comments,
                ));
            }
            (Some(rep), None) => {
                s.push_str(&views::region(
                    &r.processor,
                    &r.kernel,
                    &r.texts,
                    rep,
                    out.request.views,
                    header.as_ref(),
                ));
                if let Some(b) = &r.bottleneck {
                    s.push_str(&bottleneck_text(b));
                }
            }
            (None, None) => {}
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::mca::run;
    use crate::api::mca::tests::{ALL_BUT_BOTTLENECK, BODY, request};

    #[test]
    fn views_appear_only_when_asked_for() {
        let m = Machine::toy();
        let mut req = request();
        let t = text(&run(BODY, "t", &m, &req).unwrap());
        assert!(!t.contains("Timeline view:"), "{t}");
        req.views = ALL_BUT_BOTTLENECK;
        let t = text(&run(BODY, "t", &m, &req).unwrap());
        assert!(
            t.contains("Timeline view:") && t.contains("Instruction Info:"),
            "{t}"
        );
    }
}
