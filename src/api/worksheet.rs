//! `course worksheet`: chosen drills for a list of seeds, or for each
//! student of a roster, as printable problem sheets with their worked
//! solutions apart (product.md §9, "Worksheets"), for paper exercises and
//! exams.
//!
//! Nothing here makes a problem: each one is [`api::drill::run`] at the
//! sheet's seed, asked twice, without and with its solution, so a sheet's
//! problem is what `course drill NAME --seed N` prints and its solution
//! what `--solution` adds ([`crate::view::worksheet`] renders both). A
//! sheet is a seed (`--seeds 1-3`) or a student of a roster (`--roster
//! FILE`), whose seed is `first_seed + i` ([`parse_roster`] says why).
//!
//! ```
//! use course::api::worksheet::{run, Sheets, WorksheetRequest};
//! use course_content::{data::Source, drill::Drill};
//! use course_engine::model::machine::Machine;
//! let m = Machine::toy();
//! let req = WorksheetRequest {
//!     drills: &[Drill::Mii],
//!     sheets: Sheets::Roster { text: "Ada\n# a comment\nAlan\n", file: "class.txt", first_seed: 7 },
//!     machine: &m,
//!     machine_arg: None,
//!     source: &Source::Embedded,
//! };
//! let w = run(&req).unwrap();
//! assert_eq!(w.sheets[1].student.as_deref(), Some("Alan"));
//! assert_eq!(w.sheets[1].items[0].command, "course drill mii --seed 8");
//! ```
//!
//! [`api::drill::run`]: crate::api::drill::run

use serde::Serialize;

use crate::api::drill::{self as drill_api, DrillOutput, DrillRequest};
use course_content::data::Source;
use course_content::drill::{Drill, Problem};
use course_engine::formats::diagnostic::Diagnostic;
use course_engine::model::machine::Machine;

/// The most sheets (seeds, or students) one worksheet may have.
pub const MAX_SHEETS: usize = 500;

/// The most problems (sheets × drills) one worksheet may have.
pub const MAX_PROBLEMS: usize = 1000;

/// The longest student name, in characters (it heads a page).
pub const MAX_NAME_CHARS: usize = 100;

/// The longest roster line, in characters (a CSV row with its other
/// columns).
pub const MAX_LINE_CHARS: usize = 1000;

/// The seed of a roster's first student unless told otherwise.
pub const DEFAULT_FIRST_SEED: u64 = 1;

/// Whom the sheets are for.
#[derive(Clone, Copy, Debug)]
pub enum Sheets<'a> {
    /// A sheet per seed, in this order.
    Seeds(&'a [u64]),
    /// A sheet per student of a roster ([`parse_roster`]): the text of
    /// `file`, the i-th student (from 0) at seed `first_seed + i`.
    Roster {
        text: &'a str,
        file: &'a str,
        first_seed: u64,
    },
}

/// What `course worksheet` asks for.
#[derive(Clone, Copy, Debug)]
pub struct WorksheetRequest<'a> {
    /// The drills of every sheet, in this order (at least one, none twice).
    pub drills: &'a [Drill],
    pub sheets: Sheets<'a>,
    /// The machine of the drills that take one (`--machine`).
    pub machine: &'a Machine,
    /// The machine as the user named it (`--machine skylake`, a file), to
    /// repeat in each problem's command; `None` or `toy` for the default.
    pub machine_arg: Option<&'a str>,
    /// Where the drills' generator parameters are read from.
    pub source: &'a Source,
}

/// A worksheet: every sheet's problems, each with its solution. Fields
/// are declared in alphabetical order (JSON key order).
#[derive(Clone, Debug, Serialize)]
pub struct Worksheet {
    pub drills: Vec<Drill>,
    /// The name of the machine the drills run on.
    pub machine: String,
    pub sheets: Vec<Sheet>,
}

/// One sheet: a seed, or a student and their seed.
#[derive(Clone, Debug, Serialize)]
pub struct Sheet {
    /// One problem per drill of the request, in its order.
    pub items: Vec<Item>,
    pub seed: u64,
    /// The student's name as the roster gives it (not escaped).
    pub student: Option<String>,
}

/// One problem of a sheet.
#[derive(Clone, Debug, Serialize)]
pub struct Item {
    /// The command that prints the problem, `course drill mii --seed 3`
    /// (with `--machine`, `--course-dir` when the worksheet had them).
    pub command: String,
    pub drill: Drill,
    /// The problem as `course drill NAME --seed N` states it.
    pub problem: Problem,
    /// The same problem with its solution (`--solution`).
    pub solved: Problem,
}

impl Worksheet {
    /// How many problems the worksheet has (sheets × drills).
    pub fn problems(&self) -> usize {
        self.sheets.iter().map(|s| s.items.len()).sum()
    }
}

/// Why a worksheet could not be made.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// No drill, a drill twice, no sheet, too many sheets or problems.
    #[error("{0}")]
    Request(String),
    /// A roster line that cannot be read, at `file:line:column`.
    #[error("{0}")]
    Roster(Diagnostic),
    /// A drill could not pose its problem (a machine that lacks what it
    /// needs, bad generator parameters under `--course-dir`).
    #[error("{command}: {error}")]
    Drill {
        command: String,
        error: drill_api::Error,
    },
}

/// Makes the worksheet: for each sheet, each drill's problem at the
/// sheet's seed, with and without its solution.
pub fn run(req: &WorksheetRequest<'_>) -> Result<Worksheet, Error> {
    check_drills(req.drills)?;
    let sheets: Vec<(Option<String>, u64)> = match req.sheets {
        Sheets::Seeds(seeds) => seeds.iter().map(|&s| (None, s)).collect(),
        Sheets::Roster {
            text,
            file,
            first_seed,
        } => roster_sheets(text, file, first_seed)?,
    };
    if sheets.is_empty() {
        return Err(Error::Request(
            "no seed given: a sheet per seed (1-3, or 1,4,7), or per student of a roster".into(),
        ));
    }
    check_size(sheets.len(), req.drills.len())?;
    let sheets = sheets
        .into_iter()
        .map(|(student, seed)| {
            let items = req
                .drills
                .iter()
                .map(|&d| item(req, d, seed))
                .collect::<Result<Vec<Item>, Error>>()?;
            Ok(Sheet {
                items,
                seed,
                student,
            })
        })
        .collect::<Result<Vec<Sheet>, Error>>()?;
    Ok(Worksheet {
        drills: req.drills.to_vec(),
        machine: req.machine.name().to_string(),
        sheets,
    })
}

/// At least one drill, none twice (the same seed would pose it twice).
fn check_drills(drills: &[Drill]) -> Result<(), Error> {
    if drills.is_empty() {
        let names: Vec<&str> = Drill::ALL.iter().map(|d| d.name()).collect();
        return Err(Error::Request(format!(
            "no drill chosen: give one or more of {} (`course drill list` says what each \
             practises)",
            names.join(", ")
        )));
    }
    for (i, d) in drills.iter().enumerate() {
        if drills[..i].contains(d) {
            return Err(Error::Request(format!(
                "the drill {} is chosen twice: at the same seed it would be the same problem",
                d.name()
            )));
        }
    }
    Ok(())
}

/// The sheets and problems within [`MAX_SHEETS`] and [`MAX_PROBLEMS`].
fn check_size(sheets: usize, drills: usize) -> Result<(), Error> {
    if sheets > MAX_SHEETS {
        return Err(Error::Request(format!(
            "{sheets} sheets: a worksheet has at most {MAX_SHEETS}; make several"
        )));
    }
    let problems = sheets.saturating_mul(drills);
    if problems > MAX_PROBLEMS {
        return Err(Error::Request(format!(
            "{sheets} sheets of {drills} drills are {problems} problems: a worksheet has at \
             most {MAX_PROBLEMS}; make several"
        )));
    }
    Ok(())
}

/// The roster's students with their seeds, `first_seed + i`.
fn roster_sheets(
    text: &str,
    file: &str,
    first_seed: u64,
) -> Result<Vec<(Option<String>, u64)>, Error> {
    let names = parse_roster(text, file).map_err(Error::Roster)?;
    let count = names.len() as u64;
    if first_seed.checked_add(count.saturating_sub(1)).is_none() {
        return Err(Error::Request(format!(
            "first seed {first_seed}: the seeds of {count} students would pass {}",
            u64::MAX
        )));
    }
    // (Not `zip(first_seed..)`: the range would step past u64::MAX after
    // the last student's seed; the check above bounds `first_seed + i`.)
    Ok(names
        .into_iter()
        .enumerate()
        .map(|(i, n)| (Some(n), first_seed + i as u64))
        .collect())
}

/// One problem: the drill asked at `seed` without and with its solution.
fn item(req: &WorksheetRequest<'_>, drill: Drill, seed: u64) -> Result<Item, Error> {
    let command = command(req, drill, seed);
    let ask = |solution: bool| {
        let r = DrillRequest {
            drill,
            seed: Some(seed),
            machine: req.machine,
            source: req.source,
            solution,
            check: None,
        };
        match drill_api::run(&r) {
            Ok(DrillOutput::Problem(p)) => Ok(*p),
            Ok(DrillOutput::Report(_)) => Err(Error::Request(format!(
                "{command}: a report instead of a problem"
            ))),
            Err(error) => Err(Error::Drill {
                command: command.clone(),
                error,
            }),
        }
    };
    let problem = ask(false)?;
    let solved = ask(true)?;
    Ok(Item {
        command,
        drill,
        problem,
        solved,
    })
}

/// `course drill NAME --seed N`, with the machine and course folder of
/// the request when they are not the defaults.
fn command(req: &WorksheetRequest<'_>, drill: Drill, seed: u64) -> String {
    let mut c = format!("course drill {} --seed {seed}", drill.name());
    if let Some(m) = req.machine_arg.filter(|m| *m != "toy") {
        c.push_str(" --machine ");
        c.push_str(&shell_word(m));
    }
    if let Source::Dir(dir) = req.source {
        c.push_str(" --course-dir ");
        c.push_str(&shell_word(&dir.display().to_string()));
    }
    c
}

/// A word as a POSIX shell reads it: as it is when it is plain, else in
/// single quotes.
fn shell_word(s: &str) -> String {
    let plain = !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./:=@%+,".contains(c));
    if plain {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', "'\\''"))
    }
}

/// The drill of that name (as `course drill list` names it); an unknown
/// name is refused with the closest one and the list.
pub fn drill_named(name: &str) -> Result<Drill, String> {
    if let Some(d) = Drill::ALL.into_iter().find(|d| d.name() == name) {
        return Ok(d);
    }
    let names: Vec<&str> = Drill::ALL.iter().map(|d| d.name()).collect();
    let closest = names
        .iter()
        // Levenshtein's distance, in characters.
        .map(|n| (strsim::levenshtein(&name.to_lowercase(), n), *n))
        .min()
        .filter(|&(d, n)| d <= (n.len() / 3).max(2))
        .map(|(_, n)| format!(" (did you mean `{n}`?)"))
        .unwrap_or_default();
    Err(format!(
        "unknown drill `{name}`{closest}; the drills: {}",
        names.join(", ")
    ))
}

/// Reads `--seeds`: numbers and ranges separated by commas (`1,4,7`,
/// `1-3`, `1-3,10`), in that order. A reversed range, or more than
/// [`MAX_SHEETS`] seeds in all, is refused before anything is made.
pub fn parse_seeds(spec: &str) -> Result<Vec<u64>, String> {
    let mut seeds = Vec::new();
    if spec.trim().is_empty() {
        return Err("no seed: write a list (1,4,7) or a range (1-3)".into());
    }
    for part in spec.split(',').map(str::trim) {
        let (from, to) = match part.split_once('-') {
            Some((a, b)) => (seed_number(a, part)?, seed_number(b, part)?),
            None => {
                let s = seed_number(part, part)?;
                (s, s)
            }
        };
        if from > to {
            return Err(format!("the range {part} is reversed: write {to}-{from}"));
        }
        let count = u128::from(to - from) + 1;
        if seeds.len() as u128 + count > MAX_SHEETS as u128 {
            return Err(format!(
                "{spec}: more than {MAX_SHEETS} seeds; a worksheet has at most {MAX_SHEETS} \
                 sheets (make several)"
            ));
        }
        seeds.extend(from..=to);
    }
    Ok(seeds)
}

/// One number of a seed list (`part` is the item it is in).
fn seed_number(s: &str, part: &str) -> Result<u64, String> {
    let s = s.trim();
    if s.is_empty() {
        return Err(format!(
            "'{part}' is not a seed or a range of seeds: seeds are whole numbers from 0 \
             (1,4,7 or 1-3)"
        ));
    }
    s.parse::<u64>().map_err(|_| {
        format!(
            "'{s}' is not a seed: seeds are whole numbers from 0 to {}",
            u64::MAX
        )
    })
}

/// Reads a roster: one student a line, the name in the first column
/// (a CSV row, its other columns ignored; a quoted first column may hold
/// commas, `"Lovelace, Ada"`). Blank lines and lines starting with `#`
/// are skipped, and so is a first row whose first column is a header
/// (`name`, `student`, `folder`: the roster of `course grade --roster`
/// reads as it is when `folder` is its first column). A line longer than [`MAX_LINE_CHARS`], a name longer
/// than [`MAX_NAME_CHARS`], a control character (bidirectional overrides
/// included) or more than [`MAX_SHEETS`] students is refused at
/// `file:line:column`; so is a roster without a student.
///
/// The i-th student (from 0) gets the seed `first_seed + i` rather than a
/// seed hashed from the name: small seeds are easy to type, distinct by
/// construction (hashes could give two students one problem), and
/// another first seed is another set of variants for a resit. Each
/// student's seed is printed on their sheet and in every problem line,
/// so a roster reordered later loses nothing.
pub fn parse_roster(text: &str, file: &str) -> Result<Vec<String>, Diagnostic> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut names = Vec::new();
    let mut first_row = true;
    for (i, line) in text.lines().enumerate() {
        let n = u32::try_from(i + 1).unwrap_or(u32::MAX);
        let at = |column: usize, message: String| {
            Diagnostic::new(file, n, u32::try_from(column).unwrap_or(u32::MAX), message)
        };
        if let Some((col, c)) = line.chars().enumerate().find(|&(_, c)| forbidden_char(c)) {
            return Err(at(
                col + 1,
                format!(
                    "a control character (U+{:04X}) in a roster line: one name a line, as plain \
                     text",
                    u32::from(c)
                ),
            ));
        }
        if line.chars().count() > MAX_LINE_CHARS {
            return Err(at(
                MAX_LINE_CHARS + 1,
                format!("a roster line longer than {MAX_LINE_CHARS} characters"),
            ));
        }
        let body = line.trim_start();
        if body.is_empty() || body.starts_with('#') {
            continue;
        }
        let start = line.chars().count() - body.chars().count() + 1;
        let name = first_column(body).map_err(|(col, msg)| at(start + col, msg))?;
        let header = ["name", "student", "folder"]
            .iter()
            .any(|h| name.eq_ignore_ascii_case(h));
        if std::mem::take(&mut first_row) && header {
            continue;
        }
        if name.is_empty() {
            return Err(at(start, "no name in the first column".into()));
        }
        if name.chars().count() > MAX_NAME_CHARS {
            return Err(at(
                start + MAX_NAME_CHARS,
                format!("a name longer than {MAX_NAME_CHARS} characters"),
            ));
        }
        if names.len() == MAX_SHEETS {
            return Err(at(
                1,
                format!("more than {MAX_SHEETS} students: split the roster"),
            ));
        }
        names.push(name);
    }
    if names.is_empty() {
        return Err(Diagnostic::new(
            file,
            1,
            1,
            "no student: one name a line (the first column of a CSV); blank lines and # \
             comments are skipped",
        ));
    }
    Ok(names)
}

/// A control character, or one that reorders text (bidirectional
/// embeddings, overrides and isolates), which a name must not hold.
fn forbidden_char(c: char) -> bool {
    c.is_control() || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

/// The first column of a CSV row, trimmed; a quoted one may hold commas
/// and doubled quotes. An error is its 0-based column and message.
fn first_column(row: &str) -> Result<String, (usize, String)> {
    let Some(quoted) = row.strip_prefix('"') else {
        return Ok(row.split(',').next().unwrap_or("").trim().to_string());
    };
    let mut name = String::new();
    let mut chars = quoted.chars().enumerate().peekable();
    while let Some((i, c)) = chars.next() {
        if c != '"' {
            name.push(c);
            continue;
        }
        if chars.next_if(|&(_, c)| c == '"').is_some() {
            name.push('"');
            continue;
        }
        // The closing quote: then the end of the row, or a comma.
        let rest: String = chars.map(|(_, c)| c).collect();
        let after = rest.trim_start();
        if !after.is_empty() && !after.starts_with(',') {
            let col = i + 2 + rest.chars().count() - after.chars().count();
            return Err((
                col,
                "text after the closing quote of the name (a comma ends the column)".into(),
            ));
        }
        return Ok(name.trim().to_string());
    }
    Err((0, "a quote that is not closed on its line".into()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::view;

    fn request<'a>(
        drills: &'a [Drill],
        sheets: Sheets<'a>,
        m: &'a Machine,
    ) -> WorksheetRequest<'a> {
        WorksheetRequest {
            drills,
            sheets,
            machine: m,
            machine_arg: None,
            source: &Source::Embedded,
        }
    }

    /// `course drill NAME --seed N [--solution]`'s text, as the CLI makes it.
    fn drill_text(drill: Drill, seed: u64, solution: bool) -> String {
        let m = Machine::toy();
        let req = DrillRequest {
            drill,
            seed: Some(seed),
            machine: &m,
            source: &Source::Embedded,
            solution,
            check: None,
        };
        match drill_api::run(&req).unwrap() {
            DrillOutput::Problem(p) => view::drill::problem_text(&p),
            DrillOutput::Report(_) => panic!("a problem was asked for"),
        }
    }

    #[test]
    fn each_problem_is_the_drill_at_the_sheets_seed() {
        let m = Machine::toy();
        let drills = [Drill::Mii, Drill::ListSchedule];
        let w = run(&request(&drills, Sheets::Seeds(&[3, 1]), &m)).unwrap();
        assert_eq!(w.problems(), 4);
        assert_eq!(w.machine, "toy");
        for (sheet, seed) in w.sheets.iter().zip([3, 1]) {
            assert_eq!(sheet.seed, seed);
            assert_eq!(sheet.student, None);
            for (item, &d) in sheet.items.iter().zip(&drills) {
                assert_eq!(item.drill, d);
                assert_eq!(
                    item.command,
                    format!("course drill {} --seed {seed}", d.name())
                );
                assert_eq!(
                    view::drill::problem_text(&item.problem),
                    drill_text(d, seed, false)
                );
                assert_eq!(
                    view::drill::problem_text(&item.solved),
                    drill_text(d, seed, true)
                );
            }
        }
    }

    #[test]
    fn the_commands_name_the_machine_and_the_course_folder() {
        let m = Machine::toy();
        let dir = Source::Dir("my course".into());
        let mut req = request(&[Drill::Forbidden], Sheets::Seeds(&[2]), &m);
        req.machine_arg = Some("toy");
        assert_eq!(
            command(&req, Drill::Forbidden, 2),
            "course drill forbidden --seed 2"
        );
        req.machine_arg = Some("machines/my vax.yaml");
        req.source = &dir;
        assert_eq!(
            command(&req, Drill::Mii, 2),
            "course drill mii --seed 2 --machine 'machines/my vax.yaml' --course-dir 'my course'"
        );
        assert_eq!(shell_word("it's"), r"'it'\''s'");
    }

    #[test]
    fn students_get_consecutive_seeds() {
        let m = Machine::toy();
        let roster = "\u{feff}# class of 2026\nname,email\n\nAda Lovelace,ada@x\n  \"Turing, Alan\" , alan@x\r\n";
        let sheets = Sheets::Roster {
            text: roster,
            file: "r.csv",
            first_seed: 10,
        };
        let w = run(&request(&[Drill::Rthroughput], sheets, &m)).unwrap();
        let got: Vec<(Option<&str>, u64)> = w
            .sheets
            .iter()
            .map(|s| (s.student.as_deref(), s.seed))
            .collect();
        assert_eq!(
            got,
            [(Some("Ada Lovelace"), 10), (Some("Turing, Alan"), 11)]
        );
        let last = Sheets::Roster {
            text: "a\nb\n",
            file: "r.csv",
            first_seed: u64::MAX,
        };
        let e = run(&request(&[Drill::Mii], last, &m)).unwrap_err();
        assert!(e.to_string().contains("would pass"), "{e}");
        // One student at the very last seed: no step past it.
        let got = roster_sheets("a\n", "r.csv", u64::MAX).unwrap();
        assert_eq!(got, [(Some("a".to_string()), u64::MAX)]);
    }

    #[test]
    fn bad_rosters_are_located() {
        let bad = |text: &str| parse_roster(text, "r.txt").unwrap_err().to_string();
        assert_eq!(
            bad(""),
            "r.txt:1:1: no student: one name a line (the first column of a CSV); blank lines \
             and # comments are skipped"
        );
        assert_eq!(bad("# only\n\n"), bad(""));
        assert!(bad("ada\nb\x1bob\n").starts_with("r.txt:2:2: a control character (U+001B)"));
        assert!(bad("ada\tx\n").starts_with("r.txt:1:4: a control character (U+0009)"));
        assert!(bad("a\u{202e}gnp.exe\n").starts_with("r.txt:1:2: a control character (U+202E)"));
        let long = "x".repeat(MAX_LINE_CHARS + 1);
        assert!(bad(&format!("ada\n{long}\n")).starts_with("r.txt:2:1001: a roster line longer"));
        let name = "y".repeat(MAX_NAME_CHARS + 1);
        assert!(bad(&format!("  {name},z\n")).starts_with("r.txt:1:103: a name longer"));
        assert!(bad("ada\n ,bob@x\n").starts_with("r.txt:2:2: no name"));
        assert!(bad("\"ada,x\n").starts_with("r.txt:1:1: a quote that is not closed"));
        assert!(bad("\"ada\" x,y\n").starts_with("r.txt:1:7: text after the closing quote"));
        let many: String = (0..=MAX_SHEETS).map(|i| format!("s{i}\n")).collect();
        assert!(bad(&many).starts_with("r.txt:501:1: more than 500 students"));
        // Names are kept as written, quotes undone; a header only first.
        let ok = parse_roster("\"a \"\"b\"\"\"\nname\n<script>x</script>\n", "r").unwrap();
        assert_eq!(ok, ["a \"b\"", "name", "<script>x</script>"]);
    }

    #[test]
    fn seed_lists_and_ranges() {
        assert_eq!(parse_seeds("1-3").unwrap(), [1, 2, 3]);
        assert_eq!(parse_seeds(" 1, 4,7 ").unwrap(), [1, 4, 7]);
        assert_eq!(parse_seeds("9,1-2").unwrap(), [9, 1, 2]);
        assert_eq!(parse_seeds("0-0").unwrap(), [0]);
        let max = u64::MAX;
        assert_eq!(parse_seeds(&format!("{max}")).unwrap(), [max]);
        let err = |s: &str| parse_seeds(s).unwrap_err();
        assert_eq!(err("3-1"), "the range 3-1 is reversed: write 1-3");
        assert!(err("1-1000000").contains("more than 500 seeds"));
        assert!(err(&format!("0-{max}")).contains("more than 500 seeds"));
        assert!(err("1-400,500-700").contains("more than 500 seeds"));
        assert!(err("").starts_with("no seed"));
        assert!(err("1,,2").starts_with("'' is not a seed or a range"));
        assert!(err("-3").starts_with("'-3' is not a seed or a range"));
        assert!(err("x").starts_with("'x' is not a seed"));
        assert!(err("1-2-3").starts_with("'2-3' is not a seed"));
        assert!(err("99999999999999999999").starts_with("'99999999999999999999' is not a seed"));
    }

    #[test]
    fn bad_requests_are_refused() {
        let m = Machine::toy();
        let e = run(&request(&[], Sheets::Seeds(&[1]), &m))
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("no drill chosen"), "{e}");
        for d in Drill::ALL {
            assert!(e.contains(d.name()), "{e}");
        }
        let twice = [Drill::Mii, Drill::Mii];
        let e = run(&request(&twice, Sheets::Seeds(&[1]), &m)).unwrap_err();
        assert!(e.to_string().contains("chosen twice"), "{e}");
        let e = run(&request(&[Drill::Mii], Sheets::Seeds(&[]), &m)).unwrap_err();
        assert!(e.to_string().starts_with("no seed given"), "{e}");
        let seeds: Vec<u64> = (0..400).collect();
        let three = [Drill::Mii, Drill::Modulo, Drill::Hazard];
        let e = run(&request(&three, Sheets::Seeds(&seeds), &m)).unwrap_err();
        assert!(e.to_string().contains("1200 problems"), "{e}");
        let seeds: Vec<u64> = (0..501).collect();
        let e = run(&request(&[Drill::Mii], Sheets::Seeds(&seeds), &m)).unwrap_err();
        assert!(e.to_string().starts_with("501 sheets"), "{e}");
    }

    #[test]
    fn unknown_drills_get_the_closest_name() {
        assert_eq!(drill_named("modulo").unwrap(), Drill::Modulo);
        let e = drill_named("mi").unwrap_err();
        assert!(
            e.starts_with(
                "unknown drill `mi` (did you mean `mii`?); the drills: list-schedule, mii"
            ),
            "{e}"
        );
        assert!(
            drill_named("List-Schedul")
                .unwrap_err()
                .contains("`list-schedule`?")
        );
        assert!(
            drill_named("throughput")
                .unwrap_err()
                .contains("`rthroughput`?")
        );
        assert!(
            !drill_named("xyzzy-plugh")
                .unwrap_err()
                .contains("did you mean")
        );
        assert_eq!(strsim::levenshtein("kitten", "sitting"), 3);
        // The distance counts characters, not bytes.
        assert_eq!(strsim::levenshtein("é", "e"), 1);
    }
}
