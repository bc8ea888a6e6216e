//! The terminal: how wide prose may be. A terminal's own width when stdout
//! is one, else 80 columns, so piped and captured output (tests included)
//! never depends on the window it came from.

use std::io::IsTerminal;

/// The width used when stdout is not a terminal.
pub const DEFAULT_WIDTH: usize = 80;

/// Narrower terminals still get this many columns: below it, wrapping
/// would make prose harder to read than the terminal's own line breaks.
pub const MIN_WIDTH: usize = 40;

/// The columns to wrap prose to.
pub fn width() -> usize {
    let out = std::io::stdout();
    if !out.is_terminal() {
        return DEFAULT_WIDTH;
    }
    match terminal_size::terminal_size_of(&out) {
        Some((terminal_size::Width(w), _)) => usize::from(w).max(MIN_WIDTH),
        None => DEFAULT_WIDTH,
    }
}
