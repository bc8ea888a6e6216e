//! Peak heap measurement for `course-bench`.
//!
//! [`Counting`] is a global allocator that forwards every call to the
//! system allocator. While [`peak_during`] runs a closure it also keeps the
//! net number of bytes allocated since the closure started and the largest
//! value that net reached; outside a measurement it costs one relaxed load
//! per call. The `course-bench` binary installs it; where it is not installed
//! (unit tests, other binaries) [`peak_during`] reports `None`.
//!
//! Counting heap bytes rather than resident memory makes the figure exact
//! and repeatable: memory the allocator kept from earlier work, which the
//! kernel's high-water mark cannot see, still counts.
//!
//! Measurements are not reentrant, and allocations of other threads made
//! during one are counted too.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicBool, AtomicIsize, Ordering::Relaxed};

/// The counting allocator (`#[global_allocator] static A: Counting = Counting;`).
#[derive(Clone, Copy, Debug, Default)]
pub struct Counting;

static ON: AtomicBool = AtomicBool::new(false);
static NET: AtomicIsize = AtomicIsize::new(0);
static PEAK: AtomicIsize = AtomicIsize::new(0);

#[inline]
fn grew(bytes: usize) {
    if ON.load(Relaxed) {
        let now = NET.fetch_add(bytes as isize, Relaxed) + bytes as isize;
        if now > PEAK.load(Relaxed) {
            PEAK.store(now, Relaxed);
        }
    }
}

#[inline]
fn shrank(bytes: usize) {
    if ON.load(Relaxed) {
        NET.fetch_sub(bytes as isize, Relaxed);
    }
}

// SAFETY: every method forwards to `System` with the caller's arguments
// unchanged; the bookkeeping touches only atomics and never allocates.
unsafe impl GlobalAlloc for Counting {
    #[inline]
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        grew(layout.size());
        // SAFETY: the caller upholds `GlobalAlloc::alloc`'s contract.
        unsafe { System.alloc(layout) }
    }

    #[inline]
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        grew(layout.size());
        // SAFETY: as for `alloc`.
        unsafe { System.alloc_zeroed(layout) }
    }

    #[inline]
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        shrank(layout.size());
        // SAFETY: `ptr` came from `System` with this layout (every
        // allocation of this allocator is `System`'s).
        unsafe { System.dealloc(ptr, layout) }
    }

    #[inline]
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if new_size >= layout.size() {
            grew(new_size - layout.size());
        } else {
            shrank(layout.size() - new_size);
        }
        // SAFETY: as for `dealloc`; the caller upholds `realloc`'s contract.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

/// Runs `f` and returns its result with the most heap memory (in bytes) it
/// held at once beyond what was allocated when it started; `None` when
/// [`Counting`] is not the global allocator.
pub fn peak_during<T>(f: impl FnOnce() -> T) -> (T, Option<u64>) {
    NET.store(0, Relaxed);
    PEAK.store(0, Relaxed);
    ON.store(true, Relaxed);
    let probe = std::hint::black_box(Box::new(0u64));
    let installed = NET.load(Relaxed) > 0;
    drop(probe);
    NET.store(0, Relaxed);
    PEAK.store(0, Relaxed);
    let out = f();
    ON.store(false, Relaxed);
    let peak = PEAK.load(Relaxed).max(0) as u64;
    (out, installed.then_some(peak))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn not_installed_in_unit_tests_reports_none() {
        let (v, peak) = peak_during(|| vec![0u8; 1 << 20].len());
        assert_eq!(v, 1 << 20);
        assert_eq!(peak, None);
    }
}
