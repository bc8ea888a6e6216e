//! The `course` binary: parses arguments, calls the library, prints.

mod cli;

fn main() -> std::process::ExitCode {
    // The keeper of a sandboxed run (`host::sandbox`): `course` started
    // again by the grader, before any argument parsing.
    #[cfg(target_os = "linux")]
    {
        let mut args = std::env::args_os().skip(1);
        if args.next().as_deref() == Some(std::ffi::OsStr::new(course::host::sandbox::HELPER_ARG)) {
            let config = args.next().unwrap_or_default();
            course::host::sandbox::keeper_main(&config.to_string_lossy());
        }
    }
    cli::main()
}
