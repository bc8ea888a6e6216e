//! The `course` binary: parses arguments, calls the library, prints.

mod cli;

/// Counts heap bytes while `course bench` measures; otherwise a plain
/// forward to the system allocator.
#[global_allocator]
static HEAP: course::util::heap::Counting = course::util::heap::Counting;

fn main() -> std::process::ExitCode {
    cli::main()
}
