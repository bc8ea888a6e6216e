//! The counting allocator as the binary installs it: `peak_during` sees the
//! heap a closure holds at its peak, not what it frees or what existed
//! before.
//!
//! The allocator is installed for the whole test executable (it only
//! forwards to the system allocator), but a measurement counts every
//! thread's allocations, so the test runs itself again in a process of its
//! own with no other test beside it.

use std::process::Command;

use course_bench::heap::peak_during;

#[global_allocator]
static HEAP: course_bench::heap::Counting = course_bench::heap::Counting;

/// Set in the child process that runs the measurement.
const ALONE: &str = "COURSE_TEST_HEAP_ALONE";

#[test]
fn peak_counts_what_the_closure_holds_at_once() {
    if std::env::var_os(ALONE).is_none() {
        let name = "peak_counts_what_the_closure_holds_at_once";
        let exe = std::env::current_exe().expect("the test executable");
        let out = Command::new(exe)
            .args([name, "--exact", "--test-threads", "1"])
            .env(ALONE, "1")
            .output()
            .expect("the test executable runs");
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success() && stdout.contains("1 passed"),
            "{stdout}{}",
            String::from_utf8_lossy(&out.stderr)
        );
        return;
    }
    const MIB: usize = 1 << 20;
    // Two 1 MiB buffers alive together, then a third after both are gone.
    let (_, peak) = peak_during(|| {
        let a = std::hint::black_box(vec![1u8; MIB]);
        let b = std::hint::black_box(vec![2u8; MIB]);
        drop((a, b));
        std::hint::black_box(vec![3u8; MIB]).len()
    });
    let peak = peak.expect("installed as the global allocator") as usize;
    assert!((2 * MIB..2 * MIB + 64 * 1024).contains(&peak), "{peak}");

    // Growing a vector counts its final capacity (reallocation moves the
    // figure by the difference).
    let (v, peak) = peak_during(|| {
        let mut v: Vec<u64> = Vec::new();
        for i in 0..100_000 {
            v.push(i);
        }
        v
    });
    let peak = peak.expect("installed") as usize;
    assert!(peak >= v.capacity() * 8, "{peak} < {}", v.capacity() * 8);
    assert!(peak < 2 * v.capacity() * 8, "{peak}");

    // The figure is relative to the heap at the start: freeing 4 MiB that
    // existed before and then holding 1 MiB stays below that level.
    let old = vec![0u8; 4 * MIB];
    let (_, peak) = peak_during(move || {
        drop(old);
        std::hint::black_box(vec![0u8; MIB]).len()
    });
    assert_eq!(peak, Some(0));
}
