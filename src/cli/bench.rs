//! `course bench`: runs the scale benchmarks of [`course::bench`] and prints
//! their figures as a table or JSON.

use super::{print, print_json, CliError, CmdResult, Ctx};
use course::bench::{self, Options, Section};

#[derive(clap::Args, Debug)]
#[command(
    after_help = "Examples:\n  course bench --quick\n  course bench --only list-schedule\n  course bench --only mii-ladder --format json"
)]
pub struct BenchArgs {
    /// Run only this benchmark: list-schedule, mii, mii-ladder, hazard, grading, drill-latency.
    #[arg(long, value_name = "NAME")]
    pub only: Option<String>,
    /// Small sizes and single runs (a smoke test, not figures for the record).
    #[arg(long)]
    pub quick: bool,
    #[arg(long, value_enum, default_value_t = BenchFormat::Text)]
    pub format: BenchFormat,
}

#[derive(Clone, Copy, Debug, clap::ValueEnum, PartialEq, Eq)]
pub enum BenchFormat {
    Text,
    Json,
}

pub fn run(ctx: &Ctx, args: &BenchArgs) -> CmdResult {
    let names: Vec<&str> = match &args.only {
        Some(n) if bench::NAMES.contains(&n.as_str()) => vec![n.as_str()],
        Some(n) => {
            return Err(CliError(format!(
                "unknown benchmark '{n}' (expected one of: {})",
                bench::NAMES.join(", ")
            )))
        }
        None => bench::NAMES.to_vec(),
    };
    let exe = std::env::current_exe()
        .map_err(|e| CliError(format!("cannot locate the course binary: {e}")))?;
    let opts = Options { quick: args.quick };
    let mut sections = Vec::new();
    for name in names {
        let s = bench::run(name, &ctx.machine, opts, &exe).map_err(CliError)?;
        if args.format == BenchFormat::Text {
            print(&text(&s));
        }
        sections.push(s);
    }
    if args.format == BenchFormat::Json {
        print_json(&serde_json::to_value(&sections)?);
    }
    Ok(0)
}

fn duration(s: f64) -> String {
    if s >= 1.0 {
        format!("{s:.3} s")
    } else if s >= 1e-3 {
        format!("{:.3} ms", s * 1e3)
    } else {
        format!("{:.1} µs", s * 1e6)
    }
}

fn text(s: &Section) -> String {
    let mut rows = vec![vec![
        "measure".to_string(),
        "size".into(),
        "median".into(),
        "runs".into(),
        "peak heap".into(),
        "note".into(),
    ]];
    for m in &s.measurements {
        rows.push(vec![
            m.label.clone(),
            m.size.to_string(),
            duration(m.median_s),
            m.runs.to_string(),
            m.peak_bytes.map_or("-".into(), course::util::text::bytes),
            m.note.clone(),
        ]);
    }
    let mut out = format!("## {} ({})\n", s.title, s.name);
    out.push_str(&course::util::text::columns(&rows));
    for f in &s.fits {
        out.push_str(&format!(
            "slope of {} from {} to {}: {:.2}\n",
            f.label, f.from, f.to, f.slope
        ));
    }
    out
}
