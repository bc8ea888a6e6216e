//! What the test modules share: running the real `course` binary, and
//! snapshot names that stay those of the files in `tests/snapshots/`.

use std::io::Write;
use std::process::{Command, Stdio};

pub struct Output {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

/// Runs `course ARGS` with `stdin`, from the repository root, colour off.
pub fn course(args: &[&str], stdin: &str) -> Output {
    course_env(args, stdin, &[])
}

/// [`course`] with extra environment variables (`XDG_DATA_HOME` is cleared
/// unless given, so no test touches the user's data folder by accident).
pub fn course_env(args: &[&str], stdin: &str, env: &[(&str, &str)]) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_course"));
    cmd.args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("NO_COLOR", "1")
        .env_remove("XDG_DATA_HOME");
    for (k, v) in env {
        cmd.env(k, v);
    }
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the course binary runs");
    if let Some(mut s) = child.stdin.take() {
        let _ = s.write_all(stdin.as_bytes());
    }
    let out = child
        .wait_with_output()
        .expect("the course binary finishes");
    Output {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// `course ARGS` must succeed; its stdout.
pub fn ok(args: &[&str]) -> String {
    let o = course(args, "");
    assert_eq!(o.code, 0, "course {args:?} failed:\n{}", o.stderr);
    o.stdout
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
