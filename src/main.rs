//! The `course` binary: parses arguments, calls the library, prints.

mod cli;

fn main() -> std::process::ExitCode {
    // The keeper of a sandboxed run (`host::sandbox`): `course` started
    // again by the grader, before any argument parsing.
    #[cfg(target_os = "linux")]
    {
        let first = std::env::args_os().nth(1);
        if first.as_deref() == Some(std::ffi::OsStr::new(course_host::sandbox::HELPER_ARG)) {
            course_host::sandbox::keeper_main();
        }
    }
    cli::main()
}
