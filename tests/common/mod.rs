//! A small builder for end-to-end tests of the real `course` binary.
#![allow(dead_code)]

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
