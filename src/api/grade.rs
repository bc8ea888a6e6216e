//! `course grade`: one submission on one input, or a student or class
//! folder on a whole lab.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

use serde::{Serialize, Serializer};

#[cfg(unix)]
use course_content::data::Source;
use course_content::lab::{self, InputReport, Lab, LabInput, StudentReport, Unread};
#[cfg(unix)]
use course_content::text::escape_name;
use course_engine::formats::diagnostic::Diagnostics;
use course_engine::model::machine::Machine;
use course_engine::model::program;
use course_host::roster::Roster;
#[cfg(target_os = "linux")]
use course_host::run::RunSpec;
#[cfg(target_os = "linux")]
use course_host::sandbox::{self, Isolation, Sandbox};
#[cfg(unix)]
use course_host::students::{self, Mode, Refusal};

/// Every student graded on a lab (`course grade --lab NAME DIR`). Serializes
/// as `{"students": [...]}`.
#[derive(Clone, Debug, Serialize)]
pub struct Grades {
    pub students: Vec<StudentReport>,
    /// The lab, for the feedback views.
    #[serde(skip)]
    pub lab: Lab,
    /// Notes for the grader (entries ignored), printed on standard error.
    #[serde(skip)]
    pub notes: Vec<String>,
    /// A warning that heads the report (the students' programs ran
    /// without a sandbox).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub warning: Option<String>,
}

impl Grades {
    /// True when every submitted schedule is valid.
    pub fn valid(&self) -> bool {
        self.students.iter().all(StudentReport::valid)
    }

    /// Every grading error as `student: input: why`.
    pub fn grading_errors(&self) -> Vec<String> {
        self.students
            .iter()
            .flat_map(|st| {
                st.grading_errors()
                    .map(move |(input, why)| format!("{}: {input}: {why}", st.student))
            })
            .collect()
    }
}

/// One submission graded on one input (`course grade INPUT SUBMISSION`).
/// Serializes as that input's report.
#[derive(Clone, Debug)]
pub struct InputGrade {
    grades: Grades,
}

impl InputGrade {
    /// The grade of `student`'s submission on the only input of `lab`.
    pub fn new(lab: Lab, student: &str, report: InputReport) -> InputGrade {
        InputGrade {
            grades: Grades {
                students: vec![StudentReport::new(student, vec![report])],
                lab,
                notes: Vec::new(),
                warning: None,
            },
        }
    }

    /// The input's report.
    pub fn report(&self) -> &InputReport {
        &self.grades.students[0].inputs[0]
    }

    /// The same grade as a one-student, one-input [`Grades`], for the text,
    /// CSV and Gradescope views.
    pub fn grades(&self) -> &Grades {
        &self.grades
    }
}

impl Serialize for InputGrade {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.report().serialize(s)
    }
}

/// The points of an input graded on its own.
pub const SINGLE_POINTS: f64 = 10.0;

/// Grades the submission file `submission` on the lab-format input
/// `input_text` (named `input` in diagnostics; its file stem names the
/// input). The submission is read first: one that cannot be read (over the
/// size limit, not a regular file, …) is refused before the reference
/// schedule is computed.
#[cfg(unix)]
pub fn input(
    input_text: &str,
    input: &str,
    submission: &Path,
    m: &Machine,
) -> Result<InputGrade, Diagnostics> {
    use std::os::unix::ffi::OsStrExt;
    let shown = escape_name(submission.as_os_str().as_bytes());
    let student = submission
        .file_name()
        .map(students::shown)
        .unwrap_or_else(|| shown.clone());
    let text = students::read_submission(submission, &shown, lab::MAX_SUBMISSION_BYTES);
    grade_read(
        input_text,
        input,
        &student,
        text.as_deref().map_err(unread),
        m,
    )
}

/// A refusal of the host's read as the lab grades it.
#[cfg(unix)]
fn unread(why: &Refusal) -> Unread {
    match why {
        Refusal::Student(why) => Unread::Student(why.clone()),
        Refusal::Grader(why) => Unread::Grader(why.clone()),
        Refusal::TooLarge(shown) => lab::too_large(shown),
    }
}

/// The stems of the lab's inputs, the files a student folder is read for.
#[cfg(unix)]
fn stems(lab: &Lab) -> Vec<&str> {
    lab.inputs.iter().map(|li| li.stem.as_str()).collect()
}

/// Grades what was read for `student`, one submission (or refusal) per
/// input of the lab in order.
#[cfg(unix)]
fn grade_student(
    lab: &Lab,
    student: &str,
    read: impl IntoIterator<Item = Result<String, Refusal>>,
) -> StudentReport {
    let inputs = lab
        .inputs
        .iter()
        .zip(read)
        .map(|(li, text)| {
            let text = text.as_deref().map_err(unread);
            lab::grade_submission(li, &lab.machine, lab.points, text)
        })
        .collect();
    StudentReport::new(student, inputs)
}

/// Grades one student folder on `lab` (one `STEM.sched` per input; a
/// missing file is an invalid submission, with a hint when something close
/// was found).
#[cfg(unix)]
pub fn student(lab: &Lab, student: &str, dir: &Path) -> StudentReport {
    let read = students::read_student(dir, &stems(lab), lab::MAX_SUBMISSION_BYTES);
    grade_student(lab, student, read)
}

/// Grades a submission given as text (`name` is how reports name it, e.g.
/// an uploaded file's name), as [`input`] grades a file: the same size
/// limit, checks and feedback.
pub fn input_text(
    input_text: &str,
    input: &str,
    name: &str,
    submission: &str,
    m: &Machine,
) -> Result<InputGrade, Diagnostics> {
    let text = if submission.len() as u64 > lab::MAX_SUBMISSION_BYTES {
        Err(lab::too_large(name))
    } else {
        Ok(submission)
    };
    grade_read(input_text, input, name, text, m)
}

/// Grades a submission as read (or why it could not be read, in which case
/// no reference schedule is computed) on the input `input_text`.
fn grade_read(
    input_text: &str,
    input: &str,
    student: &str,
    submission: Result<&str, Unread>,
    m: &Machine,
) -> Result<InputGrade, Diagnostics> {
    let p = program::parse(input_text, input, m)?;
    let stem = Path::new(input)
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| p.name().to_string());
    let (li, report) = match submission {
        Ok(text) => {
            let li = LabInput::new(&stem, p, m);
            let r = lab::grade_submission(&li, m, SINGLE_POINTS, Ok(text));
            (li, r)
        }
        Err(why) => (
            LabInput::unscheduled(&stem, p),
            lab::refused(&stem, SINGLE_POINTS, why),
        ),
    };
    Ok(InputGrade::new(
        Lab::single(li, m, SINGLE_POINTS),
        student,
        report,
    ))
}

/// Grades a student folder or a class folder on the lab `name` (read from
/// `source`), the folder taken as `mode` says.
#[cfg(unix)]
pub fn lab(source: &Source, name: &str, dir: &Path, mode: Mode) -> Result<Grades, String> {
    let lab = lab::load_lab(source, name)?;
    let (list, notes) = students::find(dir, mode)?;
    let stems = stems(&lab);
    let students = list
        .iter()
        .map(|st| {
            let read = st.read(&stems, lab::MAX_SUBMISSION_BYTES);
            grade_student(&lab, &st.name, read)
        })
        .collect();
    Ok(Grades {
        students,
        lab,
        notes,
        warning: None,
    })
}

/// What the class gets wrong (`course grade --report`, `--format stats`):
/// [`course_content::class_report::class_report`] over the graded
/// students, with the roster's ids and its students without a folder.
/// `g` is the report as graded (hidden inputs not yet redacted: the class
/// report names their kinds only).
pub fn class_report(
    g: &Grades,
    roster: Option<&Roster>,
) -> course_content::class_report::ClassReport {
    let entries: Option<Vec<(String, String)>> = roster.map(|r| {
        r.entries
            .iter()
            .map(|(folder, id, _)| (folder.clone(), id.clone()))
            .collect()
    });
    course_content::class_report::class_report(&g.lab, &g.students, entries.as_deref())
}

/// Gradescope's `results.json` for one student. Fields are declared in
/// alphabetical order. Outputs are Markdown with the text in a fenced
/// block, so tables stay monospace.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Gradescope {
    pub output: String,
    pub output_format: &'static str,
    pub score: f64,
    pub test_output_format: &'static str,
    pub tests: Vec<GradescopeTest>,
}

/// One input as a Gradescope test.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GradescopeTest {
    pub max_score: f64,
    pub name: String,
    /// The feedback text.
    pub output: String,
    pub score: f64,
    /// `passed` or `failed`.
    pub status: &'static str,
    /// `visible`: students see every test.
    pub visibility: &'static str,
}

/// One student's results, or an object of them keyed by student.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum GradescopeResults {
    Student(Gradescope),
    Class(BTreeMap<String, Gradescope>),
}

/// `text` in a Markdown code fence longer than any run of backticks in it.
pub fn fenced(text: &str) -> String {
    let mut longest = 0;
    let mut run = 0;
    for c in text.chars() {
        run = if c == '`' { run + 1 } else { 0 };
        longest = longest.max(run);
    }
    let fence = "`".repeat((longest + 1).max(3));
    let body = text.strip_suffix('\n').unwrap_or(text);
    format!("{fence}text\n{body}\n{fence}\n")
}

/// The feedback text of one input, as a Gradescope test shows it: the text
/// view's (`course::view::grade::feedback`), passed in by the caller, since
/// rendering is the views' business.
pub type Feedback = fn(&Lab, &InputReport) -> String;

/// One student's Gradescope results; `notes` come first in the overall
/// output (what was found in the submission, near misses), and each
/// input's test has `feedback` as its text.
pub fn gradescope_student(
    lab: &Lab,
    st: &StudentReport,
    notes: &[String],
    feedback: Feedback,
) -> Gradescope {
    let mut output = String::new();
    for n in notes {
        output.push_str(n);
        output.push('\n');
    }
    let _ = writeln!(
        output,
        "{}: {}/{} ({} of {} inputs valid)",
        st.student,
        st.score,
        st.max_score,
        st.inputs.iter().filter(|i| i.valid).count(),
        st.inputs.len()
    );
    Gradescope {
        output: fenced(&output),
        output_format: "md",
        // Never above the maximum, whatever a report holds.
        score: st.score.clamp(0.0, st.max_score),
        test_output_format: "md",
        tests: st
            .inputs
            .iter()
            .map(|i| GradescopeTest {
                max_score: i.max_score,
                name: i.input.clone(),
                output: fenced(&feedback(lab, i)),
                score: i.score.clamp(0.0, i.max_score),
                status: if i.valid { "passed" } else { "failed" },
                visibility: "visible",
            })
            .collect(),
    }
}

/// Gradescope's results: one student's object, or (for a class, an export
/// for the grader's records, not something to upload) an object of them
/// keyed by student name; each test's text is `feedback`.
pub fn gradescope(g: &Grades, feedback: Feedback) -> GradescopeResults {
    match g.students.as_slice() {
        [st] => GradescopeResults::Student(gradescope_student(&g.lab, st, &[], feedback)),
        students => GradescopeResults::Class(
            students
                .iter()
                .map(|st| {
                    (
                        st.student.clone(),
                        gradescope_student(&g.lab, st, &[], feedback),
                    )
                })
                .collect(),
        ),
    }
}

/// The most hidden inputs a `--run` may ask for (the lab's own bound).
pub use course_content::lab::MAX_HIDDEN;

/// Why `hidden` inputs cannot be generated with `secret`, if they cannot.
pub fn hidden_problem(hidden: usize, secret: Option<&str>) -> Option<String> {
    if hidden > MAX_HIDDEN {
        Some(format!("--hidden: at most {MAX_HIDDEN} hidden inputs"))
    } else if hidden > 0 && secret.is_none() {
        Some(
            "hidden inputs need the secret seed: --secret-seed-file FILE or COURSE_SECRET_SEED"
                .into(),
        )
    } else {
        None
    }
}

/// What `course grade --run` needs besides the lab and the folder.
#[cfg(target_os = "linux")]
#[derive(Clone, Debug)]
pub struct RunRequest {
    /// The student's program, its limits and isolation.
    pub spec: RunSpec,
    /// How many hidden inputs to generate from the secret.
    pub hidden: usize,
    /// The instructor's secret (any text), needed when `hidden` > 0.
    pub secret: Option<String>,
    /// Paths hidden from the programs (the course data, the secret file).
    pub masks: Vec<std::path::PathBuf>,
}

/// How a folder is taken in `--run` mode: as `mode` says, or one student
/// when it holds a file that the command names (`./sched`, `sched.py`),
/// else a class.
#[cfg(target_os = "linux")]
fn run_mode(dir: &Path, words: &[String], mode: Mode) -> Mode {
    if mode != Mode::Detect {
        return mode;
    }
    let named = words
        .iter()
        .filter(|w| !w.contains(sandbox::INPUT) && !w.is_empty() && !Path::new(w).is_absolute())
        .any(|w| std::fs::symlink_metadata(dir.join(w)).is_ok());
    if named { Mode::Student } else { Mode::Class }
}

/// The sandbox of a `--run`, its isolation tried for real once, before
/// anyone is graded; and the program checked to be startable at all (a
/// program no student could start is the grader's error, said once).
/// `jobs` workers, one sandbox uid each.
#[cfg(target_os = "linux")]
pub fn prepare_sandbox(req: &RunRequest, jobs: usize) -> Result<Sandbox, String> {
    let helper = std::env::current_exe().map_err(|e| format!("this program's path: {e}"))?;
    let mut masks = req.masks.clone();
    masks.push(helper.clone());
    let mut sb = Sandbox::new(
        req.spec.limits.clone(),
        req.spec.binds.clone(),
        masks,
        helper,
    )?;
    sb.open_parallel = req.spec.open_parallel;
    if req.spec.wanted != sandbox::Wanted::Off {
        sb.uids = std::sync::Arc::new(sandbox::claim_uids(req.spec.uid_base, jobs)?);
    }
    sandbox::resolve(&sb, &req.spec.words)?;
    sandbox::choose(&mut sb, req.spec.wanted)?;
    Ok(sb)
}

/// What each isolation does on this machine (`--check-sandbox`), tried
/// with the default limits.
#[cfg(target_os = "linux")]
pub fn check_sandbox() -> Result<course_host::sandbox::SandboxCheck, String> {
    let helper = std::env::current_exe().map_err(|e| format!("this program's path: {e}"))?;
    let mut sb = Sandbox::new(
        sandbox::Limits::default(),
        Vec::new(),
        vec![helper.clone()],
        helper,
    )?;
    sb.uids = std::sync::Arc::new(sandbox::claim_uids(sandbox::DEFAULT_UID_BASE, 1)?);
    Ok(sandbox::check(&sb))
}

/// Grades a student's scheduler (or each student's, for a class folder)
/// by running it on every input of the lab `name` and on `req.hidden`
/// inputs generated from the secret, each in the sandbox and under the
/// limits of `req.spec`; what it prints is graded as a submission.
/// `req.spec.jobs` students are graded at once; the report keeps the
/// folder's order.
#[cfg(target_os = "linux")]
pub fn run_lab(
    source: &Source,
    name: &str,
    dir: &Path,
    mode: Mode,
    req: &RunRequest,
) -> Result<Grades, String> {
    if let Some(why) = hidden_problem(req.hidden, req.secret.as_deref()) {
        return Err(why);
    }
    let mut lab = lab::load_lab(source, name)?;
    let hidden = match &req.secret {
        Some(secret) if req.hidden > 0 => lab::hidden_inputs(
            &lab,
            course_engine::util::rng::seed_from_text(secret),
            req.hidden,
        )?,
        _ => Vec::new(),
    };
    let mut files = Vec::new();
    for li in &lab.inputs {
        let text = source.read(&format!("labs/{name}/inputs/{}.txt", li.stem))?;
        files.push((text, false));
    }
    for (_, text) in &hidden {
        files.push((text.clone(), true));
    }
    lab.inputs.extend(hidden.into_iter().map(|(li, _)| li));
    let mode = run_mode(dir, &req.spec.words, mode);
    let (list, mut notes) = students::find(dir, mode)?;
    // No more workers (and uids) than students.
    let jobs = req.spec.jobs.min(list.len()).max(1);
    let sb = prepare_sandbox(req, jobs)?;
    if sb.isolation == Isolation::Uid
        && sb.landlock == 0
        && list.len() > 1
        && sandbox::open_to_others(dir)
    {
        return Err(format!(
            "--run: with uid separation alone (no namespaces), each student's program could read the other students' folders in {}: chmod o-rwx it first",
            dir.display()
        ));
    }
    if sb.isolation != Isolation::Off {
        notes.push(format!("sandbox: {}", sb.describe()));
    }
    let students = in_parallel(&list, jobs, |slot, st| match &st.dir {
        Err(why) => grade_student(&lab, &st.name, lab.inputs.iter().map(|_| Err(why.clone()))),
        Ok(d) => run_student(&lab, &files, &sb, &req.spec.words, slot, &st.name, d),
    });
    let warning = (sb.isolation == Isolation::Off).then(|| {
        "unsandboxed: the students' programs ran with the grader's rights (--unsandboxed); only the limits held".to_string()
    });
    Ok(Grades {
        students,
        lab,
        notes,
        warning,
    })
}

/// Runs one student's program on every input.
#[cfg(target_os = "linux")]
fn run_student(
    lab: &Lab,
    files: &[(String, bool)],
    sb: &Sandbox,
    words: &[String],
    slot: usize,
    student: &str,
    dir: &Path,
) -> StudentReport {
    let inputs = lab
        .inputs
        .iter()
        .zip(files)
        .map(|(li, (text, hidden))| {
            let job = sandbox::Job {
                words,
                folder: dir,
                stem: &li.stem,
                text,
                slot,
            };
            let out = sandbox::run(sb, &job);
            let mut r = lab::grade_submission(
                li,
                &lab.machine,
                lab.points,
                out.as_deref().map_err(Clone::clone),
            );
            r.hidden = *hidden;
            r
        })
        .collect();
    StudentReport::new(student, inputs)
}

/// `f` on every item with `jobs` threads (each with its slot number), the
/// results in the items' order.
#[cfg(target_os = "linux")]
fn in_parallel<T: Sync, R: Send>(
    items: &[T],
    jobs: usize,
    f: impl Fn(usize, &T) -> R + Sync,
) -> Vec<R> {
    use std::sync::Mutex;
    use std::sync::atomic::{AtomicUsize, Ordering};
    let jobs = jobs.clamp(1, items.len().max(1));
    let next = AtomicUsize::new(0);
    let done: Mutex<Vec<(usize, R)>> = Mutex::new(Vec::with_capacity(items.len()));
    std::thread::scope(|s| {
        for slot in 0..jobs {
            let (next, done, f) = (&next, &done, &f);
            s.spawn(move || {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(item) = items.get(i) else { break };
                    let r = f(slot, item);
                    if let Ok(mut d) = done.lock() {
                        d.push((i, r));
                    }
                }
            });
        }
    });
    let mut done = done.into_inner().unwrap_or_default();
    done.sort_by_key(|(i, _)| *i);
    done.into_iter().map(|(_, r)| r).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_submission_is_invalid_and_a_class_folder_is_graded_whole() {
        let m = Machine::toy();
        let g = input(
            course_content::data::RUNNING_TXT,
            "labs/ch23-sched/inputs/running.txt",
            Path::new("/nonexistent/alice.sched"),
            &m,
        )
        .unwrap();
        assert_eq!(g.report().input, "running");
        assert!(!g.report().valid);
        // Refused before the reference was computed.
        assert_eq!(g.report().reference, None);
        assert_eq!(g.grades().students[0].student, "alice.sched");
        let dir = std::env::temp_dir().join(format!("course-api-grade-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("bob")).unwrap();
        let graded = lab(&Source::Embedded, "ch23-sched", &dir, Mode::Detect).unwrap();
        assert_eq!(graded.students.len(), 1);
        assert!(!graded.valid());
        assert!(lab(&Source::Embedded, "no-such-lab", &dir, Mode::Detect).is_err());
        let text = "c 0\na 1\nb 2\ne 3\nf 4\nd 5\ng 5\nh 6\ni 8\nj 9\n";
        let g = input_text(
            course_content::data::RUNNING_TXT,
            "running.txt",
            "me",
            text,
            &m,
        )
        .unwrap();
        assert!(g.report().valid);
        let big = "#".repeat(2 << 20);
        let g = input_text(
            course_content::data::RUNNING_TXT,
            "running.txt",
            "me",
            &big,
            &m,
        )
        .unwrap();
        assert!(g.report().violations[0].message.contains("limit"));
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn each_student_of_a_class_is_graded_on_what_was_read() {
        let dir = std::env::temp_dir().join(format!("course-api-class-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        for st in ["zoe", "amy"] {
            std::fs::create_dir_all(dir.join(st)).unwrap();
        }
        let l = lab::load_lab(&Source::Embedded, "ch23-sched").unwrap();
        let li = &l.inputs[0];
        std::fs::write(
            dir.join("amy").join(format!("{}.sched", li.stem)),
            li.reference_text(),
        )
        .unwrap();
        std::os::unix::fs::symlink(dir.join("amy"), dir.join("bob")).unwrap();
        let g = lab(&Source::Embedded, "ch23-sched", &dir, Mode::Class).unwrap();
        let names: Vec<&str> = g.students.iter().map(|s| s.student.as_str()).collect();
        assert_eq!(names, ["amy", "bob", "zoe"]);
        let amy = &g.students[0];
        assert!(amy.inputs[0].valid && !amy.inputs[1].valid);
        assert_eq!(amy.score, l.points);
        assert_eq!(g.students[1].score, 0.0);
        assert!(
            g.students[1].inputs[0].violations[0]
                .message
                .contains("bob is a symbolic link")
        );
        assert_eq!(student(&l, "amy", &dir.join("amy")), *amy);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn fences_outlast_backticks() {
        assert_eq!(fenced("a\n"), "```text\na\n```\n");
        assert!(fenced("x ```` y").starts_with("`````text\n"));
    }
}
