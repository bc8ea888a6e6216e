//! `course autograder`: the Gradescope bundle (`gradescope`) and what its
//! `run_autograder` does for each submission (`run`).
//!
//! `run` always leaves a `results.json`: a submission that is empty,
//! wrongly named or wrongly placed gets a zero per input with the expected
//! names and the near misses found; a failure of the grader itself (even a
//! panic) gets a zero with a message for the student, and the details go
//! to standard output, which Gradescope shows to instructors only.

use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::api::grade::{Feedback, Gradescope, RunRequest, fenced, gradescope_student};
use course_content::data::Source;
use course_content::lab::{self, Lab, StudentReport};
use course_host::autograder as disk;
use course_host::run;
use course_host::students::Mode;
use course_host::zip;

/// How the student's work is graded: the `.sched` files of the upload, or
/// a scheduler of theirs that the autograder runs.
#[derive(Clone, Debug)]
pub struct RunConfig {
    /// The `--run` command as written.
    pub command: String,
    pub hidden: usize,
    /// The secret, copied into the bundle (never into the outputs).
    pub secret: Option<String>,
    /// The limit flags, as `course grade` takes them (`--time-limit=10`).
    pub limits: Vec<String>,
}

/// One file of the bundle. Fields in alphabetical order.
#[derive(Clone, Debug, Serialize)]
pub struct BundleFile {
    pub bytes: u64,
    /// Unix permissions, octal.
    pub mode: String,
    pub name: String,
}

/// What `course autograder gradescope` wrote. Fields in alphabetical order.
#[derive(Clone, Debug, Serialize)]
pub struct Bundle {
    pub files: Vec<BundleFile>,
    pub lab: String,
    pub out: String,
}

/// What `run_autograder` did. Fields in alphabetical order.
#[derive(Clone, Debug, Serialize)]
pub struct Outcome {
    /// Details for the instructor.
    pub log: Vec<String>,
    pub results: Gradescope,
    /// Where `results.json` was written, or why it could not be.
    pub written: Result<String, String>,
}

/// A request for a bundle.
pub struct BundleRequest<'a> {
    pub source: &'a Source,
    pub lab: &'a str,
    pub out: &'a Path,
    /// The `course` program to ship (default: this one).
    pub binary: Option<&'a Path>,
    pub run: Option<RunConfig>,
}

/// Quotes a word for a POSIX shell script.
fn sh_quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', "'\\''"))
}

/// The `run_autograder` script.
fn run_script(lab: &str, course_dir: bool, run: Option<&RunConfig>) -> String {
    let mut args = String::new();
    if course_dir {
        args.push_str(" --course-dir \"$SRC/course-data\"");
    }
    args.push_str(&format!(
        " autograder run --root \"$ROOT\" --lab {}",
        sh_quote(lab)
    ));
    if let Some(r) = run {
        args.push_str(&format!(" --run {}", sh_quote(&r.command)));
        for l in &r.limits {
            args.push(' ');
            args.push_str(&sh_quote(l));
        }
        if r.hidden > 0 {
            args.push_str(&format!(
                " --hidden {} --secret-seed-file \"$SRC/secret-seed\"",
                r.hidden
            ));
        }
    }
    format!(
        r#"#!/bin/sh
# Gradescope runs this once per submission (made by `course autograder
# gradescope`). It grades ROOT/submission and always leaves
# ROOT/results/results.json. COURSE_AUTOGRADER_ROOT stands in for
# /autograder when the bundle is tried out locally.
ROOT="${{COURSE_AUTOGRADER_ROOT:-/autograder}}"
SRC="$ROOT/source"
mkdir -p "$ROOT/results"
"$SRC/course"{args}
if [ ! -s "$ROOT/results/results.json" ]; then
  printf '%s\n' '{{"output": "The autograder could not grade this submission. This is not your mistake: please tell the course staff.", "score": 0, "tests": []}}' > "$ROOT/results/results.json"
fi
exit 0
"#
    )
}

const SETUP_SH: &str = r#"#!/usr/bin/env bash
# Gradescope runs this once, when it builds the autograder image. The
# bundled course is a static program: nothing needs installing. Students'
# programs run as uid 60000 (a user made here, for names in ps), which may
# neither read the bundle (course, the secret) nor write the results.
set -e
chmod 700 /autograder/source
chmod 700 /autograder/source/course /autograder/source/run_autograder
[ ! -e /autograder/source/secret-seed ] || chmod 600 /autograder/source/secret-seed
getent passwd 60000 >/dev/null || useradd --system --uid 60000 --no-create-home --shell /usr/sbin/nologin course-student 2>/dev/null || true
/autograder/source/course --version
/autograder/source/course grade --check-sandbox || true
"#;

/// Builds the Gradescope bundle: `setup.sh`, `run_autograder`, the static
/// `course`, and (with `--course-dir`) the lab's files, (with hidden
/// inputs) the secret seed.
pub fn gradescope(req: &BundleRequest) -> Result<Bundle, String> {
    if let Some(r) = &req.run {
        run::split_command(&r.command).map_err(|e| format!("--run: {e}"))?;
        if let Some(why) = crate::api::grade::hidden_problem(r.hidden, r.secret.as_deref()) {
            return Err(why);
        }
    }
    let lab = lab::load_lab(req.source, req.lab)?;
    let binary: PathBuf = match req.binary {
        Some(b) => b.to_path_buf(),
        None => std::env::current_exe().map_err(|e| format!("this program's path: {e}"))?,
    };
    if let Some(problem) = disk::static_binary_problem(&binary)? {
        return Err(problem);
    }
    let course_dir = matches!(req.source, Source::Dir(_));
    let mut entries = vec![
        zip::Entry {
            name: "setup.sh".into(),
            mode: 0o755,
            data: SETUP_SH.as_bytes().to_vec(),
        },
        zip::Entry {
            name: "run_autograder".into(),
            mode: 0o755,
            data: run_script(req.lab, course_dir, req.run.as_ref()).into_bytes(),
        },
        zip::Entry {
            name: "course".into(),
            mode: 0o755,
            data: disk::read_bytes(&binary)?,
        },
    ];
    if course_dir {
        let name = req.lab;
        let manifest = format!("labs/{name}/lab.yaml");
        let text = req.source.read(&manifest)?;
        let m: lab::Manifest =
            course_engine::formats::yaml::from_str(&text, &manifest).map_err(|d| d.to_string())?;
        let mut files = vec![manifest, format!("labs/{name}/machines/{}.yaml", m.machine)];
        files.extend(
            m.inputs
                .iter()
                .map(|s| format!("labs/{name}/inputs/{s}.txt")),
        );
        for f in files {
            entries.push(zip::Entry {
                name: format!("course-data/{f}"),
                mode: 0o644,
                data: req.source.read(&f)?.into_bytes(),
            });
        }
    }
    if let Some(secret) = req.run.as_ref().and_then(|r| r.secret.as_ref())
        && req.run.as_ref().is_some_and(|r| r.hidden > 0)
    {
        entries.push(zip::Entry {
            name: "secret-seed".into(),
            mode: 0o600,
            data: secret.as_bytes().to_vec(),
        });
    }
    let bytes = zip::write(&entries)?;
    disk::write_file(req.out, &bytes)?;
    Ok(Bundle {
        files: entries
            .iter()
            .map(|e| BundleFile {
                bytes: e.data.len() as u64,
                mode: format!("{:o}", e.mode),
                name: e.name.clone(),
            })
            .collect(),
        lab: lab.name,
        out: req.out.display().to_string(),
    })
}

/// The results of a submission the autograder could not grade.
fn failed() -> Gradescope {
    Gradescope {
        output: fenced(
            "The autograder could not grade this submission. This is not your mistake: please tell the course staff.\n",
        ),
        output_format: "md",
        score: 0.0,
        test_output_format: "md",
        tests: Vec::new(),
    }
}

/// Grades the upload in `ROOT/submission` on the lab `name` and writes
/// `ROOT/results/results.json`, whatever happens; each test's text is
/// `feedback` (the text view's, `course::view::grade::feedback`).
pub fn run(
    source: &Source,
    name: &str,
    root: &Path,
    req: Option<&RunRequest>,
    feedback: Feedback,
) -> Outcome {
    let mut log = Vec::new();
    let graded = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        grade_upload(source, name, root, req, feedback)
    }));
    let results = match graded {
        Ok(Ok(r)) => r,
        Ok(Err(e)) => {
            log.push(format!("grading failed: {e}"));
            failed()
        }
        Err(_) => {
            log.push("grading failed: the grader panicked".into());
            failed()
        }
    };
    let json = serde_json::to_string_pretty(&results).unwrap_or_default();
    let written = disk::write_results(root, &format!("{json}\n")).map(|p| p.display().to_string());
    Outcome {
        log,
        results,
        written,
    }
}

fn grade_upload(
    source: &Source,
    name: &str,
    root: &Path,
    req: Option<&RunRequest>,
    feedback: Feedback,
) -> Result<Gradescope, String> {
    let upload = root.join("submission");
    let mut notes = Vec::new();
    let (lab, report) = match req {
        None => {
            let lab = lab::load_lab(source, name)?;
            let wanted: Vec<String> = lab
                .inputs
                .iter()
                .map(|i| format!("{}.sched", i.stem))
                .collect();
            let (dir, note) = disk::locate(&upload, &wanted);
            notes.extend(note);
            let st = crate::api::grade::student(&lab, "submission", &dir);
            let missing = st.inputs.iter().any(|i| {
                i.violations
                    .first()
                    .is_some_and(|v| v.message.starts_with("no submission file"))
            });
            if missing {
                expected_note(&lab, &upload, &mut notes);
            }
            (lab, st)
        }
        Some(req) => {
            let words = &req.spec.words;
            let wanted: Vec<String> = words
                .iter()
                .filter(|w| !w.contains(run::INPUT) && !Path::new(w).is_absolute())
                .map(|w| w.trim_start_matches("./").to_string())
                .collect();
            let (dir, note) = disk::locate(&upload, &wanted);
            notes.extend(note);
            let g = crate::api::grade::run_lab(source, name, &dir, Mode::Student, req)?;
            let st = g.students.into_iter().next().ok_or("no student graded")?;
            (g.lab, st)
        }
    };
    if disk::is_empty_upload(&upload) {
        notes.insert(0, "The submission is empty: no file was uploaded.".into());
    }
    let st = StudentReport::new("submission", report.inputs);
    Ok(gradescope_student(&lab, &st, &notes, feedback))
}

/// The names the lab expects and what the upload holds, for a submission
/// with missing files.
fn expected_note(lab: &Lab, upload: &Path, notes: &mut Vec<String>) {
    let names: Vec<String> = lab
        .inputs
        .iter()
        .map(|i| format!("{}.sched", i.stem))
        .collect();
    notes.push(format!(
        "Expected one file per lab input: {} (the .sched files at the top of the upload or in one folder).",
        names.join(", ")
    ));
    let found = disk::top_names(upload);
    if !found.is_empty() {
        notes.push(format!("Found: {}.", found.join(", ")));
    }
}
