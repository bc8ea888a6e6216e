//! The `course` binary: parses arguments, calls the library, prints.

mod cli;

fn main() -> std::process::ExitCode {
    cli::main()
}
