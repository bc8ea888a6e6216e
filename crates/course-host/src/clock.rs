//! The wall clock: today's date for flashcards, the suffix of a moved-aside
//! state file, and a quiz seed nobody asked to repeat.
//!
//! "Today" is the local calendar date: an evening review in the Americas is
//! still today's, not tomorrow's UTC date. The date comes from the C
//! library's `localtime_r` (through the `libc` crate, which the build
//! already had through `getrandom` and `tempfile`), which applies `TZ` and
//! the system's zone rules. `chrono` or `time` would add a crate and its
//! features for this one call (and `time` refuses local offsets in
//! multi-threaded programs). Where there is no C library, the date is UTC.

use course_content::flash::Date;

/// The variable that fixes the clock (Unix seconds), so that a test can
/// script a history of reviews: `COURSE_NOW=1767614400 course practice`.
pub const NOW_VAR: &str = "COURSE_NOW";

/// The time [`NOW_VAR`] fixes, if it is set: an error when it is not an
/// integer number of seconds, so that a typo does not silently fall back
/// to the real clock.
pub fn fixed_now() -> Result<Option<i64>, String> {
    match std::env::var_os(NOW_VAR) {
        None => Ok(None),
        Some(v) => {
            let text = v.to_string_lossy();
            text.trim().parse::<i64>().map(Some).map_err(|_| {
                format!("{NOW_VAR}={text:?} is not a time: give Unix seconds, such as {NOW_VAR}=1767614400")
            })
        }
    }
}

/// Seconds since the Unix epoch (0 if the clock is before it), or the
/// time [`NOW_VAR`] fixes (the command line refuses a malformed one
/// before any command runs: [`fixed_now`]).
pub fn now_secs() -> i64 {
    if let Ok(Some(t)) = fixed_now() {
        return t;
    }
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

/// The local calendar date at Unix time `secs` (UTC where the local zone
/// cannot be known).
pub fn today(secs: i64) -> Date {
    local_date(secs).unwrap_or_else(|| Date::from_unix(secs))
}

#[cfg(unix)]
unsafe extern "C" {
    /// POSIX: reads `TZ` (localtime_r need not).
    fn tzset();
}

#[cfg(unix)]
fn local_date(secs: i64) -> Option<Date> {
    // musl marks `time_t` deprecated while its width changes (32 to 64
    // bits); `try_from` refuses a time that does not fit either way.
    #[allow(deprecated)]
    let t = libc::time_t::try_from(secs).ok()?;
    // SAFETY: `tm` is plain data that `localtime_r` fills in; both pointers
    // are valid for the call, and `localtime_r` keeps neither. `tzset` only
    // reads the environment, which nothing in this program changes.
    let tm = unsafe {
        tzset();
        let mut tm: libc::tm = std::mem::zeroed();
        if libc::localtime_r(&t, &mut tm).is_null() {
            return None;
        }
        tm
    };
    Date::from_ymd(
        i64::from(tm.tm_year) + 1900,
        u32::try_from(tm.tm_mon + 1).ok()?,
        u32::try_from(tm.tm_mday).ok()?,
    )
}

#[cfg(not(unix))]
fn local_date(_secs: i64) -> Option<Date> {
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn today_is_a_real_date_near_the_utc_one() {
        let now = now_secs();
        let d = today(now);
        let utc = Date::from_unix(now);
        assert!((d.0 - utc.0).abs() <= 1, "{d} vs {utc}");
    }
}
