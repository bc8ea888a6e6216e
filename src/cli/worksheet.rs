//! `course worksheet`: reads the seeds or the roster, makes the worksheet
//! with [`api::worksheet::run`] and prints it as text or HTML with
//! [`view::worksheet`], or writes it to `--output`.

use std::path::{Path, PathBuf};

use clap::ValueEnum;
use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};

use course::api::{self, worksheet::Sheets};
use course::view;
use course_content::drill::Drill;

use super::commands::origin;
use super::{CliError, CmdResult, Ctx, print, read_file};

#[derive(clap::Args, Debug)]
pub struct WorksheetArgs {
    /// A drill of every sheet (repeat, or separate with commas), in the
    /// order the sheets pose them.
    #[arg(long = "drill", value_name = "NAME", value_delimiter = ',', value_parser = drill_parser())]
    pub drills: Vec<Drill>,
    /// A sheet per seed: a list (1,4,7), a range (1-3) or both (1-3,10);
    /// at most 500.
    #[arg(long, value_name = "LIST", conflicts_with = "roster")]
    pub seeds: Option<String>,
    /// A sheet per student: a text file, one name a line (a CSV's first
    /// column; blank lines and # comments skipped); the i-th student, from
    /// 0, gets the seed FIRST + i (`--first-seed`).
    #[arg(long, value_name = "FILE")]
    pub roster: Option<String>,
    /// With --roster: the first student's seed (default 1).
    #[arg(long, value_name = "FIRST", requires = "roster")]
    pub first_seed: Option<u64>,
    #[arg(long, value_enum, default_value_t = SheetFormat::Text)]
    pub format: SheetFormat,
    /// Write the worksheet to FILE instead of standard output.
    #[arg(long, short = 'o', value_name = "FILE")]
    pub output: Option<PathBuf>,
}

/// What `course worksheet` prints.
#[derive(Clone, Copy, Debug, ValueEnum, PartialEq, Eq, Default)]
pub enum SheetFormat {
    /// Plain text: problems, a line, solutions.
    #[default]
    Text,
    /// One printable HTML page (no script, nothing fetched).
    Html,
}

/// `--drill NAME`: the names of `course drill list`, with clap's
/// suggestion of the closest for a misspelt one.
fn drill_parser() -> impl TypedValueParser<Value = Drill> {
    let names = Drill::ALL.map(|d| PossibleValue::new(d.name()).help(d.summary()));
    PossibleValuesParser::new(names).try_map(|s| api::worksheet::drill_named(&s))
}

pub fn run(ctx: &Ctx, a: &WorksheetArgs) -> CmdResult {
    // clap lets `requires` go when a conflicting flag (--seeds) is given.
    if a.first_seed.is_some() && a.roster.is_none() {
        return Err(CliError(
            "--first-seed numbers a roster's students; with --seeds, list the seeds".into(),
        ));
    }
    let seeds = match &a.seeds {
        Some(spec) => api::worksheet::parse_seeds(spec).map_err(|e| format!("--seeds: {e}"))?,
        None => Vec::new(),
    };
    let roster = match &a.roster {
        Some(path) => Some((read_file(path)?, origin(path))),
        None if a.seeds.is_none() && !a.drills.is_empty() => {
            return Err(CliError(
                "whose sheets? Give --seeds LIST (1-3, or 1,4,7) or --roster FILE".into(),
            ));
        }
        None => None,
    };
    let sheets = match &roster {
        Some((text, file)) => Sheets::Roster {
            text,
            file,
            first_seed: a.first_seed.unwrap_or(api::worksheet::DEFAULT_FIRST_SEED),
        },
        None => Sheets::Seeds(&seeds),
    };
    let w = api::worksheet::run(&api::worksheet::WorksheetRequest {
        drills: &a.drills,
        sheets,
        machine: &ctx.machine,
        machine_arg: ctx.machine_name.as_deref(),
        source: &ctx.source,
    })?;
    let out = match a.format {
        SheetFormat::Text => view::worksheet::text(&w),
        SheetFormat::Html => view::worksheet::html(&w),
    };
    match &a.output {
        None => print(&out),
        Some(path) => {
            refuse_overwriting_the_roster(path, a.roster.as_deref())?;
            std::fs::write(path, out).map_err(|e| CliError(format!("{}: {e}", path.display())))?;
            eprintln!(
                "course: wrote {} ({} sheets, {} problems)",
                path.display(),
                w.sheets.len(),
                w.problems()
            );
        }
    }
    Ok(0)
}

/// `--output` naming the roster itself would replace the class list.
fn refuse_overwriting_the_roster(out: &Path, roster: Option<&str>) -> Result<(), CliError> {
    let Some(roster) = roster.filter(|r| *r != "-") else {
        return Ok(());
    };
    let same = match (out.canonicalize(), Path::new(roster).canonicalize()) {
        (Ok(o), Ok(r)) => o == r,
        _ => false,
    };
    if same {
        return Err(CliError(format!(
            "--output {}: that is the roster; write the worksheet to another file",
            out.display()
        )));
    }
    Ok(())
}
