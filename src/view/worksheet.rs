//! A worksheet ([`Worksheet`], made by [`crate::api::worksheet`]) as plain
//! text and as one printable HTML page: every sheet's problems, then
//! every sheet's worked solutions apart, so the problem pages can be
//! handed out and the solutions kept.
//!
//! A problem is [`drill::problem_text`] of the problem, byte for byte what
//! `course drill NAME --seed N` prints; its solution is what `--solution`
//! prints after that text (the drills append their solution to the
//! problem), headed by the command that reproduces it.
//!
//! The page is self-contained (inline CSS, no script, nothing fetched, a
//! Content-Security-Policy that allows nothing else) and light: black on
//! white. Printed, the solutions start on a new page, so does each sheet,
//! and a problem is not split across pages when it fits on one. Every
//! string is escaped: student names come from a roster file.

use std::fmt::Write as _;

use crate::api::worksheet::{Item, Sheet, Worksheet};
use crate::view::class_report::esc;
use crate::view::drill;
use course_engine::util::rng::GENERATOR_VERSION;

/// The page's style sheet: light colours, page breaks for print.
const STYLE: &str = "\
:root { color-scheme: light; }
body { margin: 2rem auto; max-width: 52rem; padding: 0 1rem; color: #000; background: #fff;
  font: 11pt/1.4 system-ui, -apple-system, \"Segoe UI\", Roboto, sans-serif; }
h1 { font-size: 1.6rem; margin: 0 0 .3rem; }
h2 { font-size: 1.35rem; margin: 1.5rem 0 .5rem; border-bottom: 2px solid #000; }
h3 { font-size: 1.15rem; margin: 1.2rem 0 .6rem; }
h4 { font-size: 1rem; margin: 0 0 .3rem; }
h2, h3, h4 { break-after: avoid; page-break-after: avoid; }
.meta { margin: 0 0 1rem; color: #333; }
code, pre { font-family: ui-monospace, \"DejaVu Sans Mono\", Menlo, Consolas, monospace; }
pre { margin: 0; padding: .5rem .75rem; font-size: 9.5pt; line-height: 1.3;
  white-space: pre-wrap; overflow-wrap: anywhere; background: #f6f6f6; border: 1px solid #bbb; }
.problem { margin: 0 0 1.2rem; break-inside: avoid; page-break-inside: avoid; }
.sheet + .sheet { break-before: page; page-break-before: always; }
.solutions { break-before: page; page-break-before: always; }
@page { margin: 15mm; }
@media print {
  body { margin: 0; max-width: none; padding: 0; font-size: 10.5pt; }
  pre { background: #fff; border-color: #888; }
}
";

/// A problem's text and its solution's, as `course drill` prints them.
struct Rendered {
    problem: String,
    solution: String,
}

/// What `--solution` prints after the problem: the solved problem's text
/// without the problem's (all of it, should a drill ever print its
/// solution elsewhere than after the problem).
fn render(item: &Item) -> Rendered {
    let problem = drill::problem_text(&item.problem);
    let full = drill::problem_text(&item.solved);
    let solution = match full.strip_prefix(&problem) {
        Some(rest) => rest.trim_start_matches('\n').to_string(),
        None => full,
    };
    Rendered { problem, solution }
}

/// Every sheet's problems, rendered once for both parts.
fn render_all(w: &Worksheet) -> Vec<Vec<Rendered>> {
    w.sheets
        .iter()
        .map(|s| s.items.iter().map(render).collect())
        .collect()
}

/// `Worksheet: mii, list-schedule`.
fn title(w: &Worksheet) -> String {
    let names: Vec<&str> = w.drills.iter().map(|d| d.name()).collect();
    format!("Worksheet: {}", names.join(", "))
}

/// `3 sheets · 6 problems · machine toy · generator v2` (students when
/// the sheets are a roster's).
fn summary(w: &Worksheet) -> String {
    let n = w.sheets.len();
    let who = match (w.sheets.iter().any(|s| s.student.is_some()), n) {
        (true, 1) => "student",
        (true, _) => "students",
        (false, 1) => "sheet",
        (false, _) => "sheets",
    };
    let seeds: Vec<u64> = w.sheets.iter().map(|s| s.seed).collect();
    let problems = w.problems();
    format!(
        "{n} {who} · {problems} problem{} · seed{} {} · machine {} · generator v{GENERATOR_VERSION}",
        if problems == 1 { "" } else { "s" },
        if n == 1 { "" } else { "s" },
        seed_ranges(&seeds),
        w.machine
    )
}

/// `1-3, 7`: consecutive seeds as ranges.
fn seed_ranges(nums: &[u64]) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut i = 0;
    while i < nums.len() {
        let mut j = i;
        while j + 1 < nums.len() && nums[j].checked_add(1) == Some(nums[j + 1]) {
            j += 1;
        }
        parts.push(match j - i {
            0 => nums[i].to_string(),
            _ => format!("{}-{}", nums[i], nums[j]),
        });
        i = j + 1;
    }
    parts.join(", ")
}

/// `Ada Lovelace · seed 4`, or `seed 4` without a roster (not escaped).
fn sheet_heading(s: &Sheet) -> String {
    match &s.student {
        Some(name) => format!("{name} · seed {}", s.seed),
        None => format!("seed {}", s.seed),
    }
}

/// The worksheet as plain text: a title, the problems of every sheet,
/// a line, then the solutions of every sheet.
pub fn text(w: &Worksheet) -> String {
    let rendered = render_all(w);
    let mut out = String::with_capacity(rendered.len() * 8192);
    let _ = write!(out, "{}\n{}\n\nPROBLEMS\n", title(w), summary(w));
    text_part(&mut out, w, &rendered, false);
    out.push('\n');
    out.push_str(&"=".repeat(80));
    out.push_str("\n\nSOLUTIONS\n");
    text_part(&mut out, w, &rendered, true);
    out
}

/// One part of the text: each sheet under its heading, each problem (or
/// solution) under its command.
fn text_part(out: &mut String, w: &Worksheet, rendered: &[Vec<Rendered>], solutions: bool) {
    for (sheet, texts) in w.sheets.iter().zip(rendered) {
        let _ = write!(out, "\n=== {} ===\n", sheet_heading(sheet));
        for (item, r) in sheet.items.iter().zip(texts) {
            let (flag, body) = match solutions {
                false => ("", &r.problem),
                true => (" --solution", &r.solution),
            };
            let _ = write!(out, "\n--- {}{flag} ---\n\n{body}", item.command);
            if !body.ends_with('\n') {
                out.push('\n');
            }
        }
    }
}

/// The worksheet as one printable HTML page: a Problems part and a
/// Solutions part (from a new page), each sheet from a new page under
/// its student's name and seed, each problem in a `<pre>` under its
/// command.
pub fn html(w: &Worksheet) -> String {
    let rendered = render_all(w);
    let mut s = String::with_capacity(rendered.len() * 12288);
    let title = esc(&title(w));
    let _ = write!(
        s,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <meta name=\"color-scheme\" content=\"light\">\n\
         <title>{title}</title>\n<style>\n{STYLE}</style>\n</head>\n<body>\n\
         <h1>{title}</h1>\n<p class=\"meta\">{}</p>\n",
        esc(&summary(w))
    );
    html_part(&mut s, w, &rendered, false);
    html_part(&mut s, w, &rendered, true);
    s.push_str("</body>\n</html>\n");
    s
}

/// One part of the page, `<section class="problems">` or
/// `<section class="solutions">`.
fn html_part(s: &mut String, w: &Worksheet, rendered: &[Vec<Rendered>], solutions: bool) {
    let (class, heading, flag) = match solutions {
        false => ("problems", "Problems", ""),
        true => ("solutions", "Solutions", " --solution"),
    };
    let _ = writeln!(s, "<section class=\"{class}\">\n<h2>{heading}</h2>");
    for (sheet, texts) in w.sheets.iter().zip(rendered) {
        let _ = writeln!(
            s,
            "<section class=\"sheet\" data-seed=\"{}\">\n<h3>{}</h3>",
            sheet.seed,
            esc(&sheet_heading(sheet))
        );
        for (item, r) in sheet.items.iter().zip(texts) {
            let body = if solutions { &r.solution } else { &r.problem };
            let _ = writeln!(
                s,
                "<article class=\"problem\" data-drill=\"{}\" data-seed=\"{}\">\n\
                 <h4><code>{}{flag}</code></h4>\n<pre>{}</pre>\n</article>",
                item.drill.name(),
                sheet.seed,
                esc(&item.command),
                esc(body.trim_end_matches('\n'))
            );
        }
        s.push_str("</section>\n");
    }
    s.push_str("</section>\n");
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::worksheet::{Sheets, WorksheetRequest, run};
    use course_content::data::Source;
    use course_content::drill::Drill;
    use course_engine::model::machine::Machine;

    fn worksheet(drills: &[Drill], sheets: Sheets<'_>) -> Worksheet {
        let m = Machine::toy();
        run(&WorksheetRequest {
            drills,
            sheets,
            machine: &m,
            machine_arg: None,
            source: &Source::Embedded,
        })
        .unwrap()
    }

    /// Every drill, on a few seeds and machines: the solved text is the
    /// problem's and then the solution, so the solution part is exact.
    #[test]
    fn every_solution_follows_its_problem() {
        for machine in ["toy", "skylake-div", "dot-fma", "skylake"] {
            let m = match course_content::data::builtin_machine(machine) {
                Some(t) => Machine::from_yaml(t, "m.yaml").unwrap(),
                None => Machine::toy(),
            };
            for drill in Drill::ALL {
                let w = run(&WorksheetRequest {
                    drills: &[drill],
                    sheets: Sheets::Seeds(&[1, 2, 3, 4]),
                    machine: &m,
                    machine_arg: Some(machine),
                    source: &Source::Embedded,
                });
                // The hazard drill needs mul and div on one unit.
                let w = match w {
                    Err(crate::api::worksheet::Error::Drill { .. }) if machine != "toy" => continue,
                    w => w.unwrap(),
                };
                for item in w.sheets.iter().flat_map(|s| &s.items) {
                    let problem = drill::problem_text(&item.problem);
                    let full = drill::problem_text(&item.solved);
                    let r = render(item);
                    assert!(full.starts_with(&problem), "{}", item.command);
                    assert!(
                        r.solution.starts_with("Solution"),
                        "{}: {}",
                        item.command,
                        r.solution
                    );
                    assert_eq!(full, format!("{problem}\n{}", r.solution));
                }
            }
        }
    }

    #[test]
    fn the_text_has_problems_then_a_line_then_solutions() {
        let w = worksheet(&[Drill::Mii, Drill::Forbidden], Sheets::Seeds(&[1, 2]));
        let t = text(&w);
        let (problems, solutions) = t.split_once(&format!("\n{}\n", "=".repeat(80))).unwrap();
        assert!(t.starts_with(
            "Worksheet: mii, forbidden\n2 sheets · 4 problems · seeds 1-2 · machine toy"
        ));
        for sheet in &w.sheets {
            for item in &sheet.items {
                let r = render(item);
                let head = format!("--- {} ---\n\n{}", item.command, r.problem);
                assert!(problems.contains(&head), "{head}");
                let head = format!("--- {} --solution ---\n\n{}", item.command, r.solution);
                assert!(solutions.contains(&head), "{head}");
                assert!(!solutions.contains(&r.problem));
            }
        }
        assert!(problems.contains("=== seed 2 ===\n"));
        assert!(!problems.contains("\nSolution"));
    }

    #[test]
    fn the_page_is_printable_and_escapes_names() {
        let roster = "<script>alert(1)</script>\nO'Brien & \"Sons\"\n";
        let sheets = Sheets::Roster {
            text: roster,
            file: "r.txt",
            first_seed: 5,
        };
        let w = worksheet(&[Drill::ListSchedule], sheets);
        let h = html(&w);
        assert!(h.starts_with("<!DOCTYPE html>\n<html lang=\"en\">"));
        assert!(h.contains("<title>Worksheet: list-schedule</title>"));
        assert!(!h.contains("<script"), "{h}");
        assert!(h.contains("<h3>&lt;script&gt;alert(1)&lt;/script&gt; · seed 5</h3>"));
        assert!(h.contains("<h3>O&#39;Brien &amp; &quot;Sons&quot; · seed 6</h3>"));
        for rule in [
            ".solutions { break-before: page;",
            ".sheet + .sheet { break-before: page;",
            ".problem { margin: 0 0 1.2rem; break-inside: avoid;",
            "@media print {",
        ] {
            assert!(h.contains(rule), "{rule}");
        }
        for absent in [
            "<script",
            "<link",
            "<img",
            "src=",
            "url(",
            "http:",
            "https:",
            "display: none",
        ] {
            assert!(!h.contains(absent), "{absent}");
        }
        // Headings in order: h1, then h2 (a part), h3 (a sheet), h4 (a problem).
        let mut last = 0;
        for (i, _) in h.match_indices("<h") {
            let level = h[i + 2..].chars().next().and_then(|c| c.to_digit(10));
            if let Some(level) = level {
                assert!(level <= last + 1, "h{level} after h{last}");
                last = level;
            }
        }
        let problems = h.find("<section class=\"problems\">").unwrap();
        let solutions = h.find("<section class=\"solutions\">").unwrap();
        assert!(problems < solutions);
        let item = &w.sheets[1].items[0];
        let r = render(item);
        assert!(
            h[problems..solutions].contains(&format!("<pre>{}</pre>", esc(r.problem.trim_end())))
        );
        assert!(h[solutions..].contains(&format!("<pre>{}</pre>", esc(r.solution.trim_end()))));
        assert!(h.contains("<h4><code>course drill list-schedule --seed 6 --solution</code></h4>"));
        // The text keeps the names as written.
        assert!(text(&w).contains("=== <script>alert(1)</script> · seed 5 ===\n"));
    }

    #[test]
    fn seeds_are_summed_up_as_ranges() {
        assert_eq!(seed_ranges(&[1, 2, 3, 7, 9, 10]), "1-3, 7, 9-10");
        assert_eq!(seed_ranges(&[5, 4]), "5, 4");
        assert_eq!(
            seed_ranges(&[u64::MAX - 1, u64::MAX]),
            format!("{}-{}", u64::MAX - 1, u64::MAX)
        );
    }
}
