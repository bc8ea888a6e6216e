//! The text of llvm-mca's views, byte for byte: `SummaryView`,
//! `InstructionInfoView`, `ResourcePressureView` and `TimelineView` (with
//! its average wait times), and a region's report in llvm-mca's order.
//!
//! `texts` are the instructions as llvm-mca prints them: the
//! `MCInstPrinter` text with leading whitespace trimmed (a tab between
//! mnemonic and operands). Columns are counted as
//! `formatted_raw_ostream` counts them (a tab moves to the next multiple
//! of 8, padding always writes at least one space).

use super::Report;
use crate::model::mc::{Desc, Instr, Processor};
use std::fmt::Write as _;

/// A string that knows its column (`formatted_raw_ostream`).
#[derive(Debug, Default)]
pub(crate) struct Out {
    /// The text so far.
    pub s: String,
    col: usize,
}

impl Out {
    /// Appends `t`.
    pub fn put(&mut self, t: &str) {
        for c in t.chars() {
            match c {
                '\n' | '\r' => self.col = 0,
                '\t' => self.col += (8 - (self.col & 7)) & 7,
                c if (c as u32) < 0x20 || c == '\u{7f}' => {}
                _ => self.col += 1,
            }
        }
        self.s.push_str(t);
    }

    /// `PadToColumn`: spaces up to column `to`, at least one.
    pub fn pad(&mut self, to: usize) {
        let n = to.saturating_sub(self.col).max(1);
        self.s.extend(std::iter::repeat_n(' ', n));
        self.col += n;
    }
}

/// `format("%.Nf", floor(x * 10^N + 0.5) / 10^N)`.
pub(crate) fn rounded(x: f64, digits: i32) -> String {
    let scale = 10f64.powi(digits);
    let v = (x * scale + 0.5).floor() / scale;
    format!("{v:.prec$}", prec = digits as usize)
}

/// Which views a region prints (llvm-mca's defaults: summary, instruction
/// info and resource pressure).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ViewSet {
    /// `-summary-view`.
    pub summary: bool,
    /// `-instruction-info`.
    pub instruction_info: bool,
    /// `-resource-pressure`.
    pub resource_pressure: bool,
    /// `-timeline`.
    pub timeline: bool,
}

impl Default for ViewSet {
    fn default() -> Self {
        ViewSet {
            summary: true,
            instruction_info: true,
            resource_pressure: true,
            timeline: false,
        }
    }
}

/// A region's place in the report: `[index] Code Region - name`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RegionHeader {
    /// The region's index.
    pub index: usize,
    /// Its name (empty: none).
    pub name: String,
}

/// `SummaryView`.
pub fn summary(r: &Report) -> String {
    let mut s = String::new();
    let cycles = r.total_cycles as f64;
    let _ = write!(
        s,
        "Iterations:        {}\nInstructions:      {}\nTotal Cycles:      {}\nTotal uOps:        {}\n\n",
        r.iterations, r.instructions, r.total_cycles, r.total_uops
    );
    let _ = write!(
        s,
        "Dispatch Width:    {}\nuOps Per Cycle:    {}\nIPC:               {}\nBlock RThroughput: {}\n",
        r.dispatch_width,
        rounded(r.total_uops as f64 / cycles, 2),
        rounded(r.instructions as f64 / cycles, 2),
        rounded(r.block_rthroughput, 1)
    );
    s
}

/// The columns of the instruction-info view for one instruction
/// (`InstructionInfoViewData`).
pub(crate) struct InfoRow {
    pub uops: u32,
    pub latency: u32,
    pub rthroughput: f64,
    pub load: bool,
    pub store: bool,
    pub side: bool,
    pub bypass: u32,
    pub resources: String,
}

/// `MCSchedModel::computeInstrLatency` of the class (with
/// `max_latency` when the class latencies are unknown).
fn class_latency(d: &Desc) -> u32 {
    if d.write_latencies.is_empty() {
        return d.max_latency;
    }
    let mut lat = 0i32;
    for &(c, _) in &d.write_latencies {
        if c < 0 {
            return c as u32;
        }
        lat = lat.max(c);
    }
    lat.unsigned_abs()
}

/// `MCSchedModel::getBypassDelayCycles`.
fn bypass_delay(d: &Desc) -> u32 {
    if d.advance.is_empty() {
        return 0;
    }
    let entries: Vec<(i32, u32)> = if d.write_latencies.is_empty() {
        d.writes
            .iter()
            .map(|w| {
                (
                    i32::try_from(w.latency).unwrap_or(i32::MAX),
                    w.write_resource,
                )
            })
            .collect()
    } else {
        d.write_latencies.clone()
    };
    let (mut max, mut res) = (0u32, 0u32);
    for (c, r) in entries {
        let c = c.max(0).unsigned_abs();
        if c > max {
            max = c;
            res = r;
        }
    }
    d.advance
        .iter()
        .find(|a| a.write_resource == res)
        .map_or(0, |a| a.cycles as u32)
}

/// `MCSchedModel::getReciprocalThroughput`.
fn rthroughput(p: &Processor, d: &Desc) -> f64 {
    let mut thr: Option<f64> = None;
    for &(res, release, acquire) in &d.write_proc_res {
        let cycles = if p.llvm >= 22 {
            if release == 0 || release == acquire {
                continue;
            }
            release.saturating_sub(acquire)
        } else {
            if release == 0 {
                continue;
            }
            release
        };
        let units = p.resources.get(usize::from(res)).map_or(0, |r| r.units);
        let t = f64::from(units) / f64::from(cycles);
        thr = Some(thr.map_or(t, |x| x.min(t)));
    }
    match thr {
        Some(t) => 1.0 / t,
        None => f64::from(d.uops) / f64::from(p.issue_width),
    }
}

/// The instruction-info columns of `instr`.
pub(crate) fn info_row(p: &Processor, instr: &Instr) -> InfoRow {
    let empty = Desc::default();
    let d = p.descs.get(instr.desc as usize).unwrap_or(&empty);
    let forwarding = d
        .advance
        .iter()
        .filter(|a| a.write_resource == 0)
        .fold(0i32, |m, a| m.min(a.cycles))
        .unsigned_abs();
    let latency = class_latency(d).wrapping_add(forwarding);
    let mut resources = String::new();
    for &(res, release, acquire) in &d.write_proc_res {
        if release == 0 {
            continue;
        }
        if !resources.is_empty() {
            resources.push(',');
        }
        let name = p
            .resources
            .get(usize::from(res))
            .map_or("", |r| r.name.as_str());
        let _ = match (release > 1, acquire > 0) {
            (true, true) => write!(resources, "{name}[{acquire},{release}]"),
            (true, false) => write!(resources, "{name}[{release}]"),
            _ => write!(resources, "{name}"),
        };
    }
    InfoRow {
        uops: d.uops,
        latency,
        rthroughput: rthroughput(p, d),
        load: instr.may_load,
        store: instr.may_store,
        side: instr.side_effects,
        bypass: latency.wrapping_sub(bypass_delay(d)),
        resources,
    }
}

/// The comment `--instruction-tables=full` prints after an instruction
/// (`InstructionInfoView::getComment`): from `rest`, the source from the
/// instruction to the end of its line (`None` when the line has no
/// newline), a `/* … */` or a `// …` comment. As LLVM does, a C comment is
/// cut to as many characters as the `*/` is far from the instruction.
pub fn source_comment(rest: Option<&str>) -> String {
    let Some(line) = rest else {
        return String::new();
    };
    if let (Some(start), Some(end)) = (line.find("/*"), line.find("*/")) {
        return line
            .get(start..)
            .map_or("", |t| t.get(..end).unwrap_or(t))
            .to_string();
    }
    line.find("//")
        .map_or(String::new(), |start| line[start..].to_string())
}

/// LLVM 14's fixed-width row.
fn info_row_14(o: &mut Out, row: &InfoRow) {
    let pad = |n: u64| match n {
        0..10 => "  ",
        10..100 => " ",
        _ => "",
    };
    let rt = row.rthroughput;
    let rtp = if rt < 10.0 {
        "  "
    } else if rt < 100.0 {
        " "
    } else {
        ""
    };
    o.put(&format!(
        " {}    {}{}   {}{:.2} {}",
        row.uops,
        pad(u64::from(row.uops)),
        row.latency,
        pad(u64::from(row.latency)),
        rt,
        rtp
    ));
    for (f, c) in [
        (row.load, " *     "),
        (row.store, " *     "),
        (row.side, " U     "),
    ] {
        o.put(if f { c } else { "       " });
    }
}

/// `InstructionInfoView`.
pub fn instruction_info(p: &Processor, kernel: &[Instr], texts: &[String]) -> String {
    info_view(p, kernel, texts, None)
}

/// `InstructionInfoView`; with `comments`, `--instruction-tables=full`'s
/// columns (LLVM 22) and each instruction's source comment.
pub(crate) fn info_view(
    p: &Processor,
    kernel: &[Instr],
    texts: &[String],
    comments: Option<&[String]>,
) -> String {
    let full = comments.is_some();
    let mut o = Out::default();
    if kernel.is_empty() {
        return String::new();
    }
    if full {
        full_resources(p, &mut o);
    }
    let mut fields = vec![
        "#uOps",
        "Latency",
        "RThroughput",
        "MayLoad",
        "MayStore",
        "HasSideEffects (U)",
    ];
    let mut pads = vec![0usize, 7, 14, 21, 28, 35, 42];
    if full {
        fields.extend([
            "Bypass Latency",
            "Resources (<Name> | <Name>[<ReleaseAtCycle>] | <Name>[<AcquireAtCycle>,<ReleaseAtCycle])",
            "LLVM Opcode Name",
        ]);
        pads.extend([49, 92, 119]);
    }
    o.put("\n\nInstruction Info:\n");
    for (i, f) in fields.iter().enumerate() {
        o.put(&format!("[{}]: {f}\n", i + 1));
    }
    o.put("\n");
    for (i, &pd) in pads.iter().enumerate() {
        if pd != 0 {
            o.pad(pd);
        }
        if i < fields.len() {
            o.put(&format!("[{}]", i + 1));
        } else {
            o.put("Instructions:");
        }
    }
    o.put("\n");
    for (k, instr) in kernel.iter().enumerate() {
        let row = info_row(p, instr);
        let text = texts.get(k).map_or("", String::as_str);
        if p.llvm < 22 {
            info_row_14(&mut o, &row);
            o.put(text);
            o.put("\n");
            continue;
        }
        info_row_22(&mut o, &row, &pads, full, &instr.opcode);
        o.put(text);
        if let Some(c) = comments {
            o.put("\t");
            o.put(c.get(k).map_or("", String::as_str));
        }
        o.put("\n");
    }
    o.s
}

/// LLVM 22's padded row, up to the instruction.
fn info_row_22(o: &mut Out, row: &InfoRow, pads: &[usize], full: bool, opcode: &str) {
    o.pad(pads[0] + 1);
    o.put(&row.uops.to_string());
    o.pad(pads[1] + 1);
    o.put(&row.latency.to_string());
    o.pad(pads[2]);
    o.put(&format!("{:.2}", row.rthroughput));
    for (i, (f, c)) in [(row.load, "*"), (row.store, "*"), (row.side, "U")]
        .into_iter()
        .enumerate()
    {
        o.pad(pads[3 + i] + 1);
        o.put(if f { c } else { " " });
    }
    if full {
        o.pad(pads[6] + 1);
        o.put(&row.bypass.to_string());
        o.pad(pads[7]);
        o.put(&row.resources);
        o.pad(pads[8]);
        o.put(opcode);
        o.pad(pads[9]);
    } else {
        o.pad(pads[6]);
    }
}

/// The "Resources:" list of `--instruction-tables=full`: every resource
/// and group with its units.
fn full_resources(p: &Processor, o: &mut Out) {
    o.put("\n\nResources:\n");
    let mut index = 0;
    for r in p.resources.iter().skip(1) {
        if r.units == 0 {
            continue;
        }
        o.put(&format!("[{index}]"));
        o.pad(6);
        o.put(&format!("- {}:{}", r.name, r.units));
        if r.is_group() {
            o.pad(20);
            let names: Vec<&str> = r
                .sub_units
                .iter()
                .map(|&s| {
                    p.resources
                        .get(usize::from(s))
                        .map_or("", |x| x.name.as_str())
                })
                .collect();
            o.put(&names.join(", "));
        }
        o.put("\n");
        index += 1;
    }
}

/// The pressure view's unit columns: `[index]` or `[index.unit]`.
fn column_names(p: &Processor, o: &mut Out) {
    let mut col = o.col;
    let mut index = 0;
    for r in p.resources.iter().skip(1) {
        if r.is_group() || r.units == 0 {
            continue;
        }
        for j in 0..r.units {
            col += 7;
            if r.units > 1 {
                o.put(&format!("[{index}.{j}]"));
            } else {
                o.put(&format!("[{index}]"));
            }
            o.pad(col);
        }
        index += 1;
    }
}

fn pressure_cell(o: &mut Out, v: f64, col: usize) {
    if v == 0.0 || v < 0.005 {
        o.put(" - ");
    } else {
        o.put(&rounded(v, 2));
    }
    o.pad(col);
}

/// A resource-cycle count as `ReleaseAtCycles` keeps it: a fraction
/// whose terms are added without reduction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Frac {
    /// Numerator.
    pub num: u64,
    /// Denominator.
    pub den: u64,
}

impl Default for Frac {
    fn default() -> Self {
        Frac { num: 0, den: 1 }
    }
}

impl Frac {
    /// `ReleaseAtCycles::operator+=`.
    pub fn add(&mut self, o: Frac) {
        if self.den == o.den {
            self.num += o.num;
            return;
        }
        let (mut a, mut b) = (self.den, o.den);
        while b != 0 {
            (a, b) = (b, a % b);
        }
        let lcm = self.den / a.max(1) * o.den;
        self.num = self.num * (lcm / self.den.max(1)) + o.num * (lcm / o.den.max(1));
        self.den = lcm;
    }

    /// `operator double`.
    pub fn value(self) -> f64 {
        if self.den == 1 {
            self.num as f64
        } else {
            self.num as f64 / self.den as f64
        }
    }
}

/// `ResourcePressureView` over `rows` (`[instruction][column]`) and their
/// accumulated `total`, divided by `executions`.
pub(crate) fn pressure_view(
    p: &Processor,
    texts: &[String],
    rows: &[Vec<Frac>],
    total: &[Frac],
    executions: f64,
) -> String {
    let mut o = Out::default();
    o.put("\n\nResources:\n");
    let mut index = 0;
    for r in p.resources.iter().skip(1) {
        if r.is_group() || r.units == 0 {
            continue;
        }
        for j in 0..r.units {
            if r.units > 1 {
                o.put(&format!("[{index}.{j}]"));
            } else {
                o.put(&format!("[{index}]"));
            }
            o.pad(6);
            o.put(&format!("- {}\n", r.name));
        }
        index += 1;
    }
    o.put("\n\nResource pressure per iteration:\n");
    column_names(p, &mut o);
    o.put("\n");
    for (c, t) in total.iter().enumerate() {
        pressure_cell(&mut o, t.value() / executions, (c + 1) * 7);
    }
    o.put("\n\nResource pressure by instruction:\n");
    column_names(p, &mut o);
    o.put("Instructions:\n");
    for (k, row) in rows.iter().enumerate() {
        for (c, v) in row.iter().enumerate() {
            pressure_cell(&mut o, v.value() / executions, (c + 1) * 7);
        }
        o.put(texts.get(k).map_or("", String::as_str));
        o.put("\n");
    }
    o.s
}

/// `ResourcePressureView` of a run.
pub fn resource_pressure(p: &Processor, texts: &[String], r: &Report) -> String {
    let rows: Vec<Vec<Frac>> = r
        .pressure
        .iter()
        .map(|row| row.iter().map(|&c| Frac { num: c, den: 1 }).collect())
        .collect();
    let ncols = rows.first().map_or(0, Vec::len);
    let total: Vec<Frac> = (0..ncols)
        .map(|c| Frac {
            num: r.pressure.iter().map(|row| row[c]).sum(),
            den: 1,
        })
        .collect();
    pressure_view(p, texts, &rows, &total, r.iterations as f64)
}

fn timeline_header(o: &mut Out, last: u64) {
    o.put("\n\nTimeline view:\n");
    if last >= 10 {
        o.pad(10);
        let line: String = (0..=last)
            .map(|i| {
                if (i / 10) & 1 == 0 {
                    ' '
                } else {
                    digit(i % 10)
                }
            })
            .collect();
        o.put(&line);
        o.put("\n");
    }
    o.put("Index");
    o.pad(10);
    let line: String = (0..=last)
        .map(|i| {
            if (i / 10) & 1 == 0 {
                digit(i % 10)
            } else {
                ' '
            }
        })
        .collect();
    o.put(&line);
    o.put("\n");
}

fn digit(d: u64) -> char {
    char::from_digit((d % 10) as u32, 10).unwrap_or('0')
}

/// One line of the timeline, up to the instruction text
/// (`printTimelineViewEntry`).
fn timeline_entry(e: &super::TimelineEntry, last: u64) -> String {
    let mut s = String::new();
    for i in 0..e.dispatched {
        s.push(if i % 5 == 0 { '.' } else { ' ' });
    }
    s.push('D');
    if e.dispatched != e.executed {
        for _ in e.dispatched + 1..e.issued {
            s.push('=');
        }
        if e.issued == e.executed {
            s.push('E');
        } else {
            if e.dispatched != e.issued {
                s.push('e');
            }
            for _ in e.issued + 1..e.executed {
                s.push('e');
            }
            s.push('E');
        }
    }
    for _ in e.executed + 1..e.retired {
        s.push('-');
    }
    if e.executed < e.retired {
        s.push('R');
    }
    for i in e.retired + 1..=last {
        s.push(if i % 5 == 0 || i == last { '.' } else { ' ' });
    }
    s
}

/// `TimelineView`: the timeline and the average wait times (`_p` is
/// there for symmetry: llvm-mca only reads the processor for colours).
pub fn timeline(_p: &Processor, texts: &[String], r: &Report) -> String {
    let mut o = Out::default();
    let n = r.wait_times.len().max(1);
    let last = r.timeline_last_cycle;
    timeline_header(&mut o, last);
    'lines: for (k, e) in r.timeline.iter().enumerate() {
        if e.retired == 0 && e.executed != 0 {
            o.put("Truncated display due to cycle limit\n");
            break 'lines;
        }
        let (it, src) = (k / n, k % n);
        if k == 0 {
            o.put("\n");
        }
        o.put(&format!("[{it},{src}]"));
        o.pad(10);
        o.put(&timeline_entry(e, last));
        o.put("   ");
        o.put(texts.get(src).map_or("", String::as_str));
        o.put("\n");
    }
    o.put(
        "\n\nAverage Wait times (based on the timeline view):\n[0]: Executions\n\
         [1]: Average time spent waiting in a scheduler's queue\n\
         [2]: Average time spent waiting in a scheduler's queue while ready\n\
         [3]: Average time elapsed from WB until retire stage\n\n      [0]    [1]    [2]    [3]\n",
    );
    let executions = (r.timeline.len() / n) as u64;
    for (k, w) in r.wait_times.iter().enumerate() {
        wait_row(&mut o, w, Some(k), executions, executions);
        o.put("   ");
        o.put(texts.get(k).map_or("", String::as_str));
        o.put("\n");
    }
    if n != 1 {
        let mut t = super::WaitTime::default();
        for w in &r.wait_times {
            t.in_queue += w.in_queue;
            t.ready_in_queue += w.ready_in_queue;
            t.after_write_back += w.after_write_back;
        }
        wait_row(&mut o, &t, None, executions, r.timeline.len() as u64);
        o.put("   <total>\n");
    }
    o.s
}

/// `printWaitTimeEntry`.
fn wait_row(
    o: &mut Out,
    w: &super::WaitTime,
    index: Option<usize>,
    executions: u64,
    cumulative: u64,
) {
    if let Some(k) = index {
        o.put(&format!("{k}."));
    }
    o.pad(7);
    o.put(&executions.to_string());
    let avg = |c: u64| ((c as u32).wrapping_mul(10)) as f64 / cumulative as f64;
    for (v, col) in [
        (w.in_queue, 13),
        (w.ready_in_queue, 20),
        (w.after_write_back, 27),
    ] {
        o.pad(col);
        o.put(&format!("{:.1}", (avg(v) + 0.5).floor() / 10.0));
    }
    o.pad(34);
}

/// The line that opens a region's report (`PipelinePrinter::printRegionHeader`),
/// printed when the source marks regions.
pub fn region_header(h: &RegionHeader) -> String {
    if h.name.is_empty() {
        format!("\n[{}] Code Region\n\n", h.index)
    } else {
        format!("\n[{}] Code Region - {}\n\n", h.index, h.name)
    }
}

/// One region's report in llvm-mca's order (summary, instruction info,
/// resource pressure, timeline), with its header when it has one.
pub fn region(
    p: &Processor,
    kernel: &[Instr],
    texts: &[String],
    r: &Report,
    views: ViewSet,
    header: Option<&RegionHeader>,
) -> String {
    let mut s = header.map_or(String::new(), region_header);
    if views.summary {
        s.push_str(&summary(r));
    }
    if views.instruction_info {
        s.push_str(&instruction_info(p, kernel, texts));
    }
    if views.resource_pressure {
        s.push_str(&resource_pressure(p, texts, r));
    }
    if views.timeline {
        s.push_str(&timeline(p, texts, r));
    }
    s
}
