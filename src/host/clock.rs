//! The wall clock: today's date for flashcards, the suffix of a moved-aside
//! state file, and a quiz seed nobody asked to repeat.

/// Seconds since the Unix epoch (0 if the clock is before it).
pub fn now_secs() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64)
}

/// A seed for a quiz nobody asked to repeat: the clock, kept short to type.
pub fn fresh_seed() -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    (nanos ^ u64::from(std::process::id()).rotate_left(32)) % 1_000_000
}
