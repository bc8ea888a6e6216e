//! What the test modules share: running the real `course` binary,
//! temporary folders, expectations kept in files (rewritten under
//! `COURSE_BLESS=1`), and snapshot names that stay those of the files in
//! `tests/snapshots/`.

use std::ffi::{OsStr, OsString};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The repository root, where every run starts unless told otherwise.
pub fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// One run of the real `course` binary, built up and then [`run`]:
///
/// ```ignore
/// let out = Course::new(["drill", "mii", "--seed", "2", "--check", "-"])
///     .stdin("mii 1\n")
///     .code(1)
///     .stdout_has("✗")
///     .run();
/// ```
///
/// It runs from the repository root with `NO_COLOR=1`, `XDG_DATA_HOME`
/// removed and `HOME` a folder under the build's temporary folder (so no
/// test touches the user's data folder, where the quiz keeps its last
/// result; a test sets its own with [`env`]). [`run`] asserts the exit code (0 unless [`code`] or
/// [`any_code`] says otherwise), every expected piece of stdout and stderr,
/// and that nothing panicked; on failure it prints the command and both
/// streams.
///
/// [`run`]: Course::run
/// [`env`]: Course::env
/// [`code`]: Course::code
/// [`any_code`]: Course::any_code
#[must_use = "nothing runs until `.run()`"]
pub struct Course {
    args: Vec<OsString>,
    stdin: Vec<u8>,
    env: Vec<(OsString, OsString)>,
    removed: Vec<OsString>,
    program: Option<Vec<OsString>>,
    exe: Option<PathBuf>,
    timeout: Option<std::time::Duration>,
    dir: PathBuf,
    code: Option<i32>,
    stdout_has: Vec<String>,
    stdout_wrapped: Vec<String>,
    stderr_has: Vec<String>,
}

/// What a run printed, and its exit code.
pub struct Output {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

impl Output {
    /// Stdout parsed as JSON.
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.stdout)
            .unwrap_or_else(|e| panic!("stdout is not JSON ({e}):\n{}{}", self.stdout, self.stderr))
    }
}

impl Course {
    pub fn new<I, S>(args: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: AsRef<OsStr>,
    {
        Course {
            args: Vec::new(),
            stdin: Vec::new(),
            env: Vec::new(),
            removed: Vec::new(),
            program: None,
            exe: None,
            timeout: None,
            dir: root().to_path_buf(),
            code: Some(0),
            stdout_has: Vec::new(),
            stdout_wrapped: Vec::new(),
            stderr_has: Vec::new(),
        }
        .args(args)
    }

    /// More arguments after those given so far.
    pub fn args<I, S>(mut self, args: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: AsRef<OsStr>,
    {
        self.args
            .extend(args.into_iter().map(|a| a.as_ref().to_owned()));
        self
    }

    /// Bytes for standard input (empty by default).
    pub fn stdin(mut self, input: impl AsRef<[u8]>) -> Self {
        self.stdin = input.as_ref().to_vec();
        self
    }

    /// One more argument.
    pub fn arg(mut self, arg: impl AsRef<OsStr>) -> Self {
        self.args.push(arg.as_ref().to_owned());
        self
    }

    /// One more argument: a path, which may not be UTF-8.
    pub fn arg_path(mut self, path: impl AsRef<Path>) -> Self {
        self.args.push(path.as_ref().as_os_str().to_owned());
        self
    }

    /// Runs `course` through `wrapper` (a program and its arguments, such
    /// as `setpriv --reuid=…`), which is given the binary's path and then
    /// the arguments.
    pub fn wrapped<I, S>(mut self, wrapper: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: AsRef<OsStr>,
    {
        self.program = Some(wrapper.into_iter().map(|a| a.as_ref().to_owned()).collect());
        self
    }

    /// Runs this copy of `course` instead of the one cargo built (a
    /// bundle's, say).
    pub fn binary(mut self, exe: impl AsRef<Path>) -> Self {
        self.exe = Some(exe.as_ref().to_path_buf());
        self
    }

    /// Kills the run after `secs` seconds and fails the test: for inputs
    /// that once made the grader hang.
    pub fn timeout(mut self, secs: u64) -> Self {
        self.timeout = Some(std::time::Duration::from_secs(secs));
        self
    }

    /// A variable removed from the environment of the run.
    pub fn env_remove(mut self, key: impl AsRef<OsStr>) -> Self {
        self.removed.push(key.as_ref().to_owned());
        self
    }

    pub fn env(mut self, key: impl AsRef<OsStr>, value: impl AsRef<OsStr>) -> Self {
        self.env
            .push((key.as_ref().to_owned(), value.as_ref().to_owned()));
        self
    }

    pub fn current_dir(mut self, dir: impl AsRef<Path>) -> Self {
        self.dir = dir.as_ref().to_path_buf();
        self
    }

    /// The exit code the run must end with.
    pub fn code(mut self, code: i32) -> Self {
        self.code = Some(code);
        self
    }

    /// Any exit code will do (the test looks at it itself).
    pub fn any_code(mut self) -> Self {
        self.code = None;
        self
    }

    /// A piece stdout must contain.
    pub fn stdout_has(mut self, piece: impl Into<String>) -> Self {
        self.stdout_has.push(piece.into());
        self
    }

    /// A piece stderr must contain.
    /// Stdout must contain `piece` once its lines are joined with blanks:
    /// prose wrapped at 80 columns without an indent (the quiz's prompts),
    /// looked for whole. A line break in `piece` matches a blank too.
    pub fn stdout_has_wrapped(mut self, piece: impl Into<String>) -> Self {
        self.stdout_wrapped.push(piece.into().replace('\n', " "));
        self
    }

    pub fn stderr_has(mut self, piece: impl Into<String>) -> Self {
        self.stderr_has.push(piece.into());
        self
    }

    /// Runs the binary to its end and checks what was asked.
    pub fn run(self) -> Output {
        let exe = self
            .exe
            .clone()
            .unwrap_or_else(|| PathBuf::from(env!("CARGO_BIN_EXE_course")));
        let mut cmd = match &self.program {
            Some(w) => {
                let mut c = Command::new(&w[0]);
                c.args(&w[1..]).arg(&exe);
                c
            }
            None => Command::new(&exe),
        };
        cmd.args(&self.args)
            .current_dir(&self.dir)
            .env("NO_COLOR", "1")
            .env_remove("XDG_DATA_HOME")
            .env("HOME", Path::new(env!("CARGO_TARGET_TMPDIR")).join("home"))
            .envs(self.env.iter().map(|(k, v)| (k, v)))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        for k in &self.removed {
            cmd.env_remove(k);
        }
        // A copy of the binary just written may still be open for writing
        // in a process another test forked meanwhile: try again a moment later.
        let mut tries = 0;
        let mut child = loop {
            match cmd.spawn() {
                Err(e) if e.kind() == std::io::ErrorKind::ExecutableFileBusy && tries < 50 => {
                    tries += 1;
                    std::thread::sleep(std::time::Duration::from_millis(20));
                }
                r => break r.expect("the course binary runs"),
            }
        };
        // Written from another thread, so a child that prints before it
        // reads everything cannot block on a full pipe.
        let mut pipe = child.stdin.take().expect("stdin is piped");
        let input = self.stdin;
        let writer = std::thread::spawn(move || {
            let _ = pipe.write_all(&input);
        });
        let finished = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let killed = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        if let Some(limit) = self.timeout {
            let (finished, killed, pid) = (finished.clone(), killed.clone(), child.id());
            std::thread::spawn(move || {
                let start = std::time::Instant::now();
                while start.elapsed() < limit {
                    if finished.load(std::sync::atomic::Ordering::Acquire) {
                        return;
                    }
                    std::thread::sleep(std::time::Duration::from_millis(20));
                }
                if !finished.load(std::sync::atomic::Ordering::Acquire) {
                    killed.store(true, std::sync::atomic::Ordering::Release);
                    // SAFETY: kill has no memory effects.
                    unsafe {
                        libc::kill(pid as i32, libc::SIGKILL);
                    }
                }
            });
        }
        let out = child
            .wait_with_output()
            .expect("the course binary finishes");
        finished.store(true, std::sync::atomic::Ordering::Release);
        let _ = writer.join();
        let o = Output {
            code: out.status.code().unwrap_or(-1),
            stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        };
        let shown = || {
            let args: Vec<_> = self.args.iter().map(|a| a.to_string_lossy()).collect();
            format!(
                "course {}\nexit {}\n--- stdout\n{}--- stderr\n{}",
                args.join(" "),
                o.code,
                o.stdout,
                o.stderr
            )
        };
        assert!(
            !killed.load(std::sync::atomic::Ordering::Acquire),
            "still running after {:?}: killed\n{}",
            self.timeout,
            shown()
        );
        assert!(!o.stderr.contains("panicked"), "a panic:\n{}", shown());
        if let Some(code) = self.code {
            assert_eq!(o.code, code, "wrong exit code:\n{}", shown());
        }
        for piece in &self.stdout_has {
            assert!(
                o.stdout.contains(piece) || joined(&o.stdout).contains(piece),
                "stdout lacks {piece:?}:\n{}",
                shown()
            );
        }
        let flat = o.stdout.replace('\n', " ");
        for piece in &self.stdout_wrapped {
            assert!(
                flat.contains(piece),
                "stdout lacks {piece:?} (lines joined):\n{}",
                shown()
            );
        }
        for piece in &self.stderr_has {
            assert!(
                o.stderr.contains(piece),
                "stderr lacks {piece:?}:\n{}",
                shown()
            );
        }
        o
    }
}

/// `course ARGS` must succeed; its stdout.
pub fn ok<I, S>(args: I) -> String
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    Course::new(args).run().stdout
}

/// `course drill DRILL --seed SEED --solution --format json`.
pub fn drill_solution(drill: &str, seed: u64) -> serde_json::Value {
    Course::new(["drill", drill, "--seed", &seed.to_string(), "--solution"])
        .args(["--format", "json"])
        .run()
        .json()
}

/// The right answer of the forbidden drill for `seed`, from its JSON
/// solution: the `F(o,o') = {…}` lines, then the `CV(o) = bits` lines.
pub fn forbidden_answer(seed: u64) -> (String, String) {
    let j = drill_solution("forbidden", seed);
    let mut sets = String::new();
    for (k, f) in j["solution"]["forbidden"].as_object().unwrap() {
        let v: Vec<String> = f
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.to_string())
            .collect();
        sets.push_str(&format!("{k} = {{{}}}\n", v.join(", ")));
    }
    let vectors = j["solution"]["collision_vectors"]
        .as_object()
        .unwrap()
        .iter()
        .map(|(c, v)| format!("CV({c}) = {}\n", v.as_str().unwrap()))
        .collect();
    (sets, vectors)
}

/// Whether the tests run under CI: `CI` set to anything but empty, `0` or
/// `false` (`.ci/run` sets `CI=true`, as CI services do). Under CI a check
/// that cannot run for want of a tool or a kernel feature fails; elsewhere
/// it says SKIP ([`missing`], [`tool`]).
pub fn under_ci() -> bool {
    std::env::var_os("CI").is_some_and(|v| {
        let v = v.to_string_lossy().trim().to_ascii_lowercase();
        !matches!(v.as_str(), "" | "0" | "false")
    })
}

/// A check that cannot run here for want of a tool or a kernel feature:
/// a failure under CI (which provides them, [`under_ci`]), SKIP on
/// standard error elsewhere.
pub fn missing(msg: impl std::fmt::Display) {
    assert!(
        !under_ci(),
        "{msg}\nunder CI (CI={:?}) this fails: CI provides it",
        std::env::var_os("CI").unwrap_or_default()
    );
    note(format!("SKIP {msg}"));
}

/// An external program a differential test compares `course` with.
#[derive(Clone, Copy, Debug)]
pub struct Tool {
    /// The command, looked up on `PATH`.
    pub name: &'static str,
    /// A piece of what its `--version` prints, so that another release
    /// under the same name does not count.
    pub version: &'static str,
    /// Where it comes from, for the message when it is missing.
    pub install: &'static str,
}

/// LLVM 14's llvm-mca (`skylake-llvm14`, `cortex-a57`, the lab-format
/// corpus).
pub const LLVM_MCA_14: Tool = Tool {
    name: "llvm-mca-14",
    version: "LLVM version 14.",
    install: "Debian's llvm-14",
};

/// LLVM 22's llvm-mca (`skylake`, `znver4`, `neoverse-v2`, `apple-m1`, the
/// lesson's boxes).
pub const LLVM_MCA_22: Tool = Tool {
    name: "llvm-mca-22",
    version: "LLVM version 22.",
    install: "Debian's llvm-22",
};

/// The variable that names another binary for `t`: `COURSE_` and the
/// name in capitals, `-` as `_` (`COURSE_LLVM_MCA_14`).
pub fn tool_var(t: Tool) -> String {
    format!("COURSE_{}", t.name.to_ascii_uppercase().replace('-', "_"))
}

/// Where `t` runs, or why it does not: the binary its variable
/// ([`tool_var`]) names, else `t.name` on `PATH`, and only if its
/// `--version` succeeds and prints `t.version`. A variable naming a
/// binary that does not work is a failure everywhere: someone chose it.
fn find_tool(t: Tool) -> Result<PathBuf, String> {
    let var = tool_var(t);
    let chosen = std::env::var_os(&var).filter(|v| !v.is_empty());
    let bin = chosen
        .clone()
        .map_or_else(|| PathBuf::from(t.name), PathBuf::from);
    let why = match Command::new(&bin).arg("--version").output() {
        Ok(o) if o.status.success() => {
            let text = String::from_utf8_lossy(&o.stdout);
            if text.contains(t.version) {
                return Ok(bin);
            }
            let first = text.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
            format!(
                "{} is not {:?} (it prints {:?})",
                bin.display(),
                t.version,
                first.trim()
            )
        }
        Ok(o) => format!("`{} --version` exits with {}", bin.display(), o.status),
        Err(e) if chosen.is_none() && e.kind() == std::io::ErrorKind::NotFound => {
            format!("{} is not on PATH", t.name)
        }
        Err(e) => format!("{} does not run: {e}", bin.display()),
    };
    assert!(chosen.is_none(), "{var}: {why}");
    Err(why)
}

/// The binaries of `tools` (in their order) for the check `what` (the
/// test, named as `module::test`), if every one is here; otherwise
/// [`missing`]: under CI ([`under_ci`]) the test fails naming every
/// missing tool, elsewhere one `SKIP what: …` line on standard error and
/// `None`, and the test returns without comparing.
///
/// A tool is found by name on `PATH`, so a run whose `PATH` lacks it
/// behaves as a machine without it; `COURSE_LLVM_MCA_14` (in general
/// [`tool_var`]) names another binary instead.
pub fn tools(what: &str, tools: &[Tool]) -> Option<Vec<PathBuf>> {
    let mut found = Vec::new();
    let mut why = Vec::new();
    for &t in tools {
        match find_tool(t) {
            Ok(bin) => found.push(bin),
            Err(w) => why.push(format!(
                "{w} (install {}, or name a binary in {})",
                t.install,
                tool_var(t)
            )),
        }
    }
    if why.is_empty() {
        return Some(found);
    }
    missing(format!(
        "{what}: {}; the comparison did not run",
        why.join("; ")
    ));
    None
}

/// [`tools`] with one tool.
pub fn tool(what: &str, t: Tool) -> Option<PathBuf> {
    tools(what, &[t]).and_then(|mut v| v.pop())
}

/// A visible note (a SKIP, say): written to the real standard error,
/// past the test harness's capture, so a passing run shows it too.
pub fn note(msg: impl std::fmt::Display) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "{msg}");
}

/// The flags a test of grading (not of isolation) gives `--run` to grade
/// here: none where the namespace sandbox works; `--unsandboxed`, said
/// once, where the kernel refuses namespaces (`tests/it/sandbox.rs` tests
/// every isolation this machine has, uid separation included).
pub fn run_isolation() -> &'static [&'static str] {
    static FLAGS: std::sync::OnceLock<&'static [&'static str]> = std::sync::OnceLock::new();
    FLAGS.get_or_init(|| {
        let check = Course::new(["grade", "--check-sandbox", "--format", "json"])
            .any_code()
            .run()
            .json();
        if check["namespaces"].is_null() {
            &[]
        } else {
            note(format!(
                "SKIP the namespace sandbox in the tests of grading: {}; they run --unsandboxed",
                check["namespaces"]
            ));
            &["--unsandboxed"]
        }
    })
}

/// A temporary folder, removed when dropped (also when a test panics).
pub fn tempdir() -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix("course-test-")
        .tempdir()
        .expect("a temporary folder")
}

/// Copies every reference solution of the lab `ch23-sched` into `dir`
/// (made if missing): a student folder that earns every point.
pub fn references(dir: &Path) {
    std::fs::create_dir_all(dir).unwrap();
    let sol = root().join("solutions/ch23-sched");
    for e in std::fs::read_dir(&sol).unwrap().flatten() {
        if e.path().extension().is_some_and(|x| x == "sched") {
            std::fs::copy(e.path(), dir.join(e.file_name())).unwrap();
        }
    }
}

/// Whether expectation files are to be rewritten (`COURSE_BLESS=1`).
pub fn bless() -> bool {
    std::env::var_os("COURSE_BLESS").is_some_and(|v| !v.is_empty() && v != "0")
}

/// Compares `actual` with the expectation file `path`. Under [`bless`] a
/// missing or different file is written (review the diff); otherwise the
/// difference is returned as a message for the test to report.
pub fn expect_file(path: &Path, actual: &str) -> Result<(), String> {
    let want = std::fs::read_to_string(path).ok();
    if want.as_deref() == Some(actual) {
        return Ok(());
    }
    if bless() {
        std::fs::write(path, actual).map_err(|e| format!("{}: {e}", path.display()))?;
        return Ok(());
    }
    let shown = path.strip_prefix(root()).unwrap_or(path).display();
    Err(match want {
        None => {
            format!("{shown} is missing (COURSE_BLESS=1 writes it); the run printed:\n{actual}")
        }
        Some(want) => format!(
            "{shown} differs (COURSE_BLESS=1 rewrites it):\n{}",
            similar::TextDiff::from_lines(want.as_str(), actual)
                .unified_diff()
                .header("expected", "actual")
        ),
    })
}

/// `insta::assert_snapshot!(NAME, VALUE)` against
/// `tests/snapshots/MODULE__NAME.snap`, where MODULE is the calling test
/// module (`drill_snapshots`, …): the names the snapshots had when each
/// module was a test crate of its own.
macro_rules! snapshot {
    ($name:expr, $value:expr $(,)?) => {{
        let (settings, name) = $crate::common::snapshot_settings(module_path!(), &$name);
        settings.bind(|| insta::assert_snapshot!(name, $value));
    }};
}
pub(crate) use snapshot;

/// Settings that read and write `tests/snapshots/` (next to this folder)
/// with no module prefix of insta's own, and the full snapshot name
/// `MODULE__NAME` for a call from `module_path` (`it::MODULE`).
pub fn snapshot_settings(module_path: &str, name: &str) -> (insta::Settings, String) {
    let module = module_path
        .strip_prefix("it::")
        .unwrap_or(module_path)
        .replace("::", "__");
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path("../snapshots");
    settings.set_prepend_module_to_snapshot(false);
    (settings, format!("{module}__{name}"))
}

/// `text` with every line break that is followed by blanks made one space:
/// a message broken to 80 columns (its continuations indented) reads as the
/// one line it was, so tests can look for it whole.
pub fn joined(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for (i, line) in text.split('\n').enumerate() {
        let body = line.trim_start_matches(' ');
        if i > 0 && body.len() < line.len() {
            out.push(' ');
            out.push_str(body);
        } else {
            if i > 0 {
                out.push('\n');
            }
            out.push_str(line);
        }
    }
    out
}

/// The student `name` of a graded class (`--format json`).
pub fn student<'a>(j: &'a serde_json::Value, name: &str) -> &'a serde_json::Value {
    j["students"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["student"] == name)
        .unwrap_or_else(|| panic!("no student {name} in {j}"))
}

/// The first violation's message of an input's report, or "".
pub fn first_message(report: &serde_json::Value) -> String {
    report["violations"][0]["message"]
        .as_str()
        .unwrap_or("")
        .to_string()
}

/// The report of the input `name` in a student's JSON report.
pub fn input<'a>(student: &'a serde_json::Value, name: &str) -> &'a serde_json::Value {
    student["inputs"]
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["input"] == name)
        .unwrap_or_else(|| panic!("no input {name}: {student}"))
}
