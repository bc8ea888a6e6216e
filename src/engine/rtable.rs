//! Reservation tables: the global table of Algorithm 23.1.4, its modulo
//! variant, and a sliding window for top-down schedulers.
//!
//! All three answer `Fits(o, c)` and perform `Place(o, c)` over a class's
//! folded reservation table, so a pair that a class lists twice counts twice
//! (the note under Alg 23.1.4).
//!
//! ```
//! use course::{model::machine::Machine, engine::rtable::GlobalTable};
//! let m = Machine::toy();
//! let div = m.class_by_opcode("div").unwrap();
//! let mul = m.class_by_opcode("mul").unwrap();
//! let mut t = GlobalTable::new();
//! t.place(&m, div, 4, None);
//! assert!(!t.fits(&m, mul, 5)); // the div holds the multiplier in 4–7
//! assert!(t.fits(&m, mul, 8));
//! ```

use std::collections::HashMap;

use crate::model::ids::{ClassId, Cycle, OpId, ResourceId};
use crate::model::machine::Machine;

/// One cell of the table: how many units are used, and by which operations.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Cell {
    pub used: u32,
    pub owners: Vec<OpId>,
}

/// An overflow found by [`GlobalTable::fits_why`]: `resource` at `cycle`
/// would need `needed` units but has `capacity`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Conflict {
    pub resource: ResourceId,
    pub cycle: Cycle,
    pub needed: u32,
    pub capacity: u32,
    /// The operations already holding the resource in that cycle.
    pub owners: Vec<OpId>,
}

/// Algorithm 23.1.4 with a sparse store (a hash map keyed by resource and
/// cycle), optionally taken modulo an initiation interval.
///
/// **Invariant:** `cells[(r, c)].used` is the number of pairs `(i, k)` with
/// `(r, k) ∈ RT(x_i)` and `t_i + k ≡ c` over the operations placed so far.
/// Unlike the lesson's `Place`, ours does not require a prior `Fits`, so a
/// grader can place a whole submission and then list every overflow.
#[derive(Clone, Debug, Default)]
pub struct GlobalTable {
    cells: HashMap<(ResourceId, Cycle), Cell>,
    ii: Option<u64>,
}

impl GlobalTable {
    /// An empty table over absolute cycles.
    pub fn new() -> GlobalTable {
        GlobalTable::default()
    }

    /// An empty modulo reservation table: cycle `c` is row `c mod ii`.
    pub fn modulo(ii: u64) -> GlobalTable {
        GlobalTable {
            cells: HashMap::new(),
            ii: Some(ii.max(1)),
        }
    }

    pub fn ii(&self) -> Option<u64> {
        self.ii
    }

    /// The row a cycle maps to.
    #[inline]
    pub fn row(&self, c: Cycle) -> Cycle {
        match self.ii {
            Some(ii) => c.rem_euclid(ii as i64),
            None => c,
        }
    }

    /// `Fits(o, c)`.
    pub fn fits(&self, m: &Machine, class: ClassId, c: Cycle) -> bool {
        self.fits_why(m, class, c).is_none()
    }

    /// `Fits(o, c)` with the reason when it says no: the first resource (in
    /// table order) that would overflow.
    pub fn fits_why(&self, m: &Machine, class: ClassId, c: Cycle) -> Option<Conflict> {
        // With a modulo table two offsets of one class can land in the same row.
        let mut extra: Vec<((ResourceId, Cycle), u32)> = Vec::new();
        for &(r, k, n) in &m.class(class).folded {
            let key = (r, self.row(c.saturating_add(i64::from(k))));
            let mine = match extra.iter_mut().find(|(kk, _)| *kk == key) {
                Some((_, cnt)) => {
                    *cnt += n;
                    *cnt
                }
                None => {
                    extra.push((key, n));
                    n
                }
            };
            let cell = self.cells.get(&key);
            let used = cell.map_or(0, |c| c.used);
            let cap = m.resource(r).capacity;
            if used + mine > cap {
                return Some(Conflict {
                    resource: r,
                    cycle: key.1,
                    needed: used + mine,
                    capacity: cap,
                    owners: cell.map(|c| c.owners.clone()).unwrap_or_default(),
                });
            }
        }
        None
    }

    /// `Place(o, c)`; `op` is recorded as an owner when given.
    pub fn place(&mut self, m: &Machine, class: ClassId, c: Cycle, op: Option<OpId>) {
        for &(r, k, n) in &m.class(class).folded {
            let key = (r, self.row(c.saturating_add(i64::from(k))));
            let cell = self.cells.entry(key).or_default();
            cell.used += n;
            if let Some(op) = op {
                if !cell.owners.contains(&op) {
                    cell.owners.push(op);
                }
            }
        }
    }

    pub fn used(&self, r: ResourceId, c: Cycle) -> u32 {
        self.cells.get(&(r, self.row(c))).map_or(0, |c| c.used)
    }

    pub fn cell(&self, r: ResourceId, c: Cycle) -> Option<&Cell> {
        self.cells.get(&(r, self.row(c)))
    }

    /// The cycles (rows) with anything reserved, sorted.
    pub fn occupied_rows(&self) -> Vec<Cycle> {
        let mut v: Vec<Cycle> = self
            .cells
            .iter()
            .filter(|(_, c)| c.used > 0)
            .map(|(&(_, c), _)| c)
            .collect();
        v.sort_unstable();
        v.dedup();
        v
    }

    /// The largest cycle (or row) with anything reserved.
    pub fn last_cycle(&self) -> Option<Cycle> {
        self.cells.keys().map(|&(_, c)| c).max()
    }
}

/// A table over a sliding window of cycles, for schedulers that never look
/// back: cycles before the window's base are forgotten, so memory is
/// `O(|R| · D)` whatever the schedule length.
#[derive(Clone, Debug)]
pub struct WindowTable {
    base: Cycle,
    size: usize,
    nres: usize,
    counts: Vec<u32>,
    caps: Vec<u32>,
}

impl WindowTable {
    /// A window of `D + 1` cycles for machine `m`: enough for queries at
    /// the window's first cycle.
    pub fn new(m: &Machine) -> WindowTable {
        WindowTable::with_lookahead(m, 0)
    }

    /// A window that also answers queries up to `lookahead` cycles past its
    /// first cycle.
    pub fn with_lookahead(m: &Machine, lookahead: usize) -> WindowTable {
        let size = m.max_offset() as usize + 1 + lookahead;
        let nres = m.resources.len();
        WindowTable {
            base: 0,
            size,
            nres,
            counts: vec![0; size * nres],
            caps: m.resources.iter().map(|r| r.capacity).collect(),
        }
    }

    /// Moves the window so that it starts at `cycle` (never backwards).
    pub fn advance_to(&mut self, cycle: Cycle) {
        if cycle <= self.base {
            return;
        }
        let steps = (cycle - self.base) as u64;
        if steps >= self.size as u64 {
            self.counts.iter_mut().for_each(|c| *c = 0);
        } else {
            for s in 0..steps as i64 {
                let row = ((self.base + s) as usize) % self.size;
                self.counts[row * self.nres..(row + 1) * self.nres]
                    .iter_mut()
                    .for_each(|c| *c = 0);
            }
        }
        self.base = cycle;
    }

    #[inline]
    fn slot(&self, r: ResourceId, c: Cycle) -> usize {
        ((c as usize) % self.size) * self.nres + r.index()
    }

    /// `Fits(o, c)` for `base ≤ c ≤ base + lookahead`.
    pub fn fits(&self, m: &Machine, class: ClassId, c: Cycle) -> bool {
        debug_assert!(c >= self.base);
        m.class(class).folded.iter().all(|&(r, k, n)| {
            self.counts[self.slot(r, c + i64::from(k))] + n <= self.caps[r.index()]
        })
    }

    /// `Place(o, c)` for `base ≤ c`.
    pub fn place(&mut self, m: &Machine, class: ClassId, c: Cycle) {
        for &(r, k, n) in &m.class(class).folded {
            let s = self.slot(r, c + i64::from(k));
            self.counts[s] += n;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn modulo_rows_wrap_and_count_within_one_op() {
        let m = Machine::toy();
        let div = m.class_by_opcode("div").unwrap();
        // II = 2: a div covers rows 0,1,0,1 of the multiplier: two per row.
        let t = GlobalTable::modulo(2);
        let why = t.fits_why(&m, div, 0).unwrap();
        assert_eq!(m.resource(why.resource).name, "mul");
        assert!(GlobalTable::modulo(4).fits(&m, div, 3));
        let mut t = GlobalTable::modulo(4);
        t.place(&m, div, 3, Some(OpId(0)));
        assert!(!t.fits(&m, m.class_by_opcode("mul").unwrap(), 100));
    }

    #[test]
    fn window_agrees_with_global() {
        let m = Machine::toy();
        let mut g = GlobalTable::new();
        let mut w = WindowTable::with_lookahead(&m, 5);
        let seq = [
            "div", "mul", "mul", "load", "store", "add", "add", "add", "div", "mul",
        ];
        let mut c = 0;
        for (i, op) in seq.iter().cycle().take(200).enumerate() {
            let class = m.class_by_opcode(op).unwrap();
            if i % 3 == 0 {
                c += 1;
                w.advance_to(c);
            }
            for d in 0..6 {
                assert_eq!(g.fits(&m, class, c + d), w.fits(&m, class, c + d));
            }
            if g.fits(&m, class, c) {
                g.place(&m, class, c, None);
                w.place(&m, class, c);
            }
        }
    }
}
