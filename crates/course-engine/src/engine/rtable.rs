//! Reservation tables: every form of Algorithm 23.1.4 the engine books
//! resources with.
//!
//! # The definition
//!
//! A table keeps, for every resource `r` and cycle `c`, the number of units
//! in use, `used[r][c]`. An operation of class `o` issued at `t` holds one
//! unit of `r` in cycle `t + k` for every pair `(r, k)` of its reservation
//! table `RT(o)`. `Fits(o, t)` asks whether adding it keeps every count
//! within its resource's capacity; `Place(o, t)` adds it.
//!
//! Both walk the class's *folded* table ([`Class::folded`]): triples
//! `(r, k, n)` where `n` is how often `RT(o)` lists `(r, k)`. A pair listed
//! twice therefore counts twice, as the note under Algorithm 23.1.4 asks.
//! A modulo table maps cycle `c` to row `c mod II`, so two different offsets
//! of one class may land in the same row; such a class then needs the sum
//! of their counts in that row. That counting rule is written once in this
//! module, over a private storage trait, and every form below uses it.
//!
//! # The forms
//!
//! * [`GlobalTable`]: a sparse table (only cells in use are stored, so a
//!   submitted cycle of 10¹² costs nothing), over absolute cycles or modulo
//!   an initiation interval. It records which operations hold each cell, can
//!   take an operation back out ([`GlobalTable::remove`]), explains a refusal
//!   ([`GlobalTable::fits_why`]) and lists what an eviction must remove
//!   ([`GlobalTable::conflicts`]). The grader, the reservation-table view and
//!   the modulo scheduler use it.
//! * [`ModuloTable`]: the modulo form with one dense row per cycle mod II
//!   and, per resource, an index of the full rows, so that the first start
//!   cycle where a class fits ([`ModuloTable::first_fit`]) is found by
//!   jumping over runs of full rows instead of trying every cycle. The
//!   modulo scheduler uses it when II is not huge.
//! * [`WindowTable`]: a ring of rows that slides forward and forgets the
//!   past, for clients that never look back: the list scheduler and the
//!   simulator. Its memory is `O(|R| · D)` whatever the schedule length, and
//!   a row is found with a mask because the ring has a power-of-two size.
//!
//! Unlike the lesson's `Place`, ours do not require a prior `Fits`: a grader
//! places a whole submission and then lists every overflow, and the modulo
//! scheduler forces an operation in before evicting what it collides with.
//!
//! # Example
//!
//! On the toy machine a div holds the multiplier in its cycles 0–3:
//!
//! ```
//! use course_engine::{engine::rtable::{GlobalTable, WindowTable}, model::ids::OpId, model::machine::Machine};
//! let m = Machine::toy();
//! let div = m.class_by_opcode("div").unwrap();
//! let mul = m.class_by_opcode("mul").unwrap();
//!
//! // The global table, over absolute cycles.
//! let mut t = GlobalTable::new();
//! t.place(&m, div, 4, Some(OpId::new(0)));
//! assert!(!t.fits(&m, mul, 5)); // the div holds the multiplier in 4–7
//! assert!(t.fits(&m, mul, 8));
//! let why = t.fits_why(&m, mul, 7).unwrap();
//! assert_eq!((m.resource(why.resource).name.as_str(), why.cycle), ("mul", 7));
//! assert_eq!(why.owners, vec![OpId::new(0)]);
//!
//! // Modulo II = 2, cycles 4–7 are rows 0, 1, 0, 1: each row needs two
//! // units of a one-unit multiplier, so a div never fits at this II.
//! assert!(!GlobalTable::modulo(2).fits(&m, div, 0));
//! // Modulo II = 4 it fits; a mul then collides with it, and evicting the
//! // div makes room again.
//! let mut t = GlobalTable::modulo(4);
//! t.place(&m, div, 4, Some(OpId::new(0)));
//! assert_eq!(t.conflicts(&m, mul, 9), vec![OpId::new(0)]);
//! t.remove(&m, div, 4, OpId::new(0));
//! assert!(t.fits(&m, mul, 9));
//!
//! // The sliding window gives the global table's answers at its first cycle.
//! let mut w = WindowTable::new(&m);
//! w.advance_to(4);
//! w.place(&m, div, 4);
//! w.advance_to(7);
//! assert!(!w.fits(&m, mul, 7));
//! w.advance_to(8);
//! assert!(w.fits(&m, mul, 8));
//! ```
//!
//! [`Class::folded`]: crate::model::machine::Class::folded

use crate::model::ids::{ClassId, Cycle, OpId, ResourceId};
use crate::model::machine::{MAX_PAIRS, Machine};
use crate::util::name::NameMap;

/// One triple `(r, k, n)` of a folded reservation table.
type Pair = (ResourceId, u32, u32);

/// Where a table keeps its counts: the one thing the forms differ in.
trait Store {
    /// A cell: one resource in one row.
    type Key: Copy + PartialEq;
    /// `Some(II)` when rows are cycles modulo II, so that two pairs of one
    /// class may land in the same cell.
    fn period(&self) -> Option<u64>;
    /// The cell of pair `(r, k)` for an operation issued at `c`.
    fn key(&self, r: ResourceId, c: Cycle, k: u32) -> Self::Key;
    /// Units in use in a cell.
    fn used(&self, key: Self::Key) -> u32;
    /// Adds `n` units to a cell, held by `op` when given.
    fn add(&mut self, key: Self::Key, n: u32, op: Option<OpId>);
}

/// A cell that would overflow.
struct Overflow<K> {
    resource: ResourceId,
    key: K,
    needed: u32,
    capacity: u32,
}

/// The units `pairs` put into the cell of pair `(r, k)` of the same class
/// modulo `ii`: offsets of one resource congruent modulo II share a row
/// wherever the class issues. `pairs` is (a prefix of) a folded table,
/// sorted by resource and offset with each pair once, so a long table is
/// not walked whole: only the pairs of `r` at `k` itself, at most
/// `k − II` or at least `k + II` can share its row, and those ranges are
/// found by binary search (a class holding a unit for thousands of cycles
/// would otherwise cost a walk of its table per pair, on every `Fits`).
#[inline(always)]
fn demand(pairs: &[Pair], r: ResourceId, k: u32, ii: u64) -> u32 {
    let shares = |&&(r2, k2, _): &&Pair| {
        let d = u64::from(k.abs_diff(k2));
        r2 == r && (d == 0 || (d >= ii && d % ii == 0))
    };
    if pairs.len() <= 16 {
        return pairs.iter().filter(shares).map(|&(_, _, n)| n).sum();
    }
    let before =
        |key: (ResourceId, u64)| pairs.partition_point(|&(r2, k2, _)| (r2, u64::from(k2)) < key);
    let k64 = u64::from(k);
    let start = before((r, 0));
    let end = pairs.partition_point(|&(r2, _, _)| r2 <= r);
    // Offsets in (k − II, k + II): only k itself shares the row.
    let low = if k64 >= ii {
        before((r, k64 - ii + 1))
    } else {
        start
    };
    let high = before((r, k64 + ii));
    let own = pairs[low..high]
        .binary_search_by_key(&k, |&(_, k2, _)| k2)
        .map_or(0, |j| pairs[low + j].2);
    own + pairs[start..low]
        .iter()
        .chain(&pairs[high..end])
        .filter(shares)
        .map(|&(_, _, n)| n)
        .sum::<u32>()
}

/// The counting rule of Algorithm 23.1.4: walking the folded table in order,
/// the first cell where the units in use plus the units this class puts
/// there (through this pair and the earlier ones landing in the same cell)
/// exceed the capacity.
#[inline(always)]
fn overflow<S: Store>(
    s: &S,
    folded: &[Pair],
    c: Cycle,
    capacity: impl Fn(ResourceId) -> u32,
) -> Option<Overflow<S::Key>> {
    let period = s.period();
    for (i, &(r, k, n)) in folded.iter().enumerate() {
        let key = s.key(r, c, k);
        let mine = match period {
            Some(ii) => demand(&folded[..=i], r, k, ii),
            None => n,
        };
        let needed = s.used(key) + mine;
        let cap = capacity(r);
        if needed > cap {
            return Some(Overflow {
                resource: r,
                key,
                needed,
                capacity: cap,
            });
        }
    }
    None
}

/// `Place` over a folded table.
#[inline(always)]
fn book<S: Store>(s: &mut S, folded: &[Pair], c: Cycle, op: Option<OpId>) {
    for &(r, k, n) in folded {
        let key = s.key(r, c, k);
        s.add(key, n, op);
    }
}

/// The eviction rule shared by the tables with owners: for each cell of
/// the class's folded table (in table order), owners in the order the cell
/// lists them, one unit each, until the class's demand fits. `cell` gives
/// a cell's units in use and its owners.
fn conflicts<'a, S: Store>(
    s: &S,
    m: &Machine,
    class: ClassId,
    c: Cycle,
    cell: impl Fn(S::Key) -> (u32, &'a [OpId]),
) -> Vec<OpId> {
    let folded = &m.class(class).folded;
    let mut out: Vec<OpId> = Vec::new();
    for (i, &(r, k, n)) in folded.iter().enumerate() {
        let need = match s.period() {
            Some(ii) if demand(&folded[..i], r, k, ii) > 0 => continue, // counted before
            Some(ii) => demand(folded, r, k, ii),
            None => n,
        };
        let (mut used, owners) = cell(s.key(r, c, k));
        let cap = m.resource(r).capacity;
        for &o in owners {
            if used + need <= cap {
                break;
            }
            if !out.contains(&o) {
                out.push(o);
            }
            used = used.saturating_sub(1);
        }
    }
    out
}

/// One cell of a [`GlobalTable`]: how many units are used, and by which
/// operations.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Cell {
    /// Units of the resource in use in this cycle (`used[r][c]` of Algorithm 23.1.4).
    pub used: u32,
    /// One entry per pair placed here with an owner: modulo II an operation
    /// with two pairs in this cell is listed twice.
    owners: Vec<OpId>,
}

impl Cell {
    /// The operations holding this cell, each once, in placement order.
    /// A long list (a grader's cell holds every operation a submission
    /// put there) is deduplicated with a set, not by a scan per entry.
    pub fn holders(&self) -> impl Iterator<Item = OpId> + '_ {
        let mut seen: Option<std::collections::HashSet<OpId>> =
            (self.owners.len() > 16).then(Default::default);
        self.owners
            .iter()
            .enumerate()
            .filter(move |&(i, o)| match &mut seen {
                Some(seen) => seen.insert(*o),
                None => !self.owners[..i].contains(o),
            })
            .map(|(_, &o)| o)
    }
}

/// An overflow found by [`GlobalTable::fits_why`]: `resource` at `cycle`
/// would need `needed` units but has `capacity`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Conflict {
    /// The resource that would overflow.
    pub resource: ResourceId,
    /// The cycle, or the row of a modulo table.
    pub cycle: Cycle,
    /// Units the placement would need in that cycle.
    pub needed: u32,
    /// `cap(r)` (Definition 23.1.1).
    pub capacity: u32,
    /// The operations already holding the resource in that cycle.
    pub owners: Vec<OpId>,
}

/// Where a [`GlobalTable`] cell stops counting: any class's demand added
/// to it stays within a u32.
const SATURATED: u32 = u32::MAX - MAX_PAIRS as u32;

/// Algorithm 23.1.4 with a sparse store (a hash map keyed by resource and
/// cycle), optionally taken modulo an initiation interval, with owners.
///
/// **Invariant:** `cell(r, c).used` is the number of pairs `(i, k)` with
/// `(r, k) ∈ RT(x_i)` and `t_i + k ≡ c` over the operations placed and not
/// removed (`≡` is equality without an II, congruence modulo II with one).
#[derive(Clone, Debug, Default)]
pub struct GlobalTable {
    /// Keyed by cycles a student's submission chooses: the standard map's
    /// randomised hash, so no chosen set of cycles can make it collide
    /// (`NameMap`'s fixed hash serves tables keyed by the engine's own
    /// rows).
    cells: std::collections::HashMap<(ResourceId, Cycle), Cell>,
    ii: Option<u64>,
}

impl Store for GlobalTable {
    type Key = (ResourceId, Cycle);

    #[inline(always)]
    fn period(&self) -> Option<u64> {
        self.ii
    }

    #[inline(always)]
    fn key(&self, r: ResourceId, c: Cycle, k: u32) -> (ResourceId, Cycle) {
        (r, self.row(c.saturating_add(i64::from(k))))
    }

    #[inline(always)]
    fn used(&self, key: (ResourceId, Cycle)) -> u32 {
        self.cells.get(&key).map_or(0, |c| c.used)
    }

    #[inline(always)]
    fn add(&mut self, key: (ResourceId, Cycle), n: u32, op: Option<OpId>) {
        let cell = self.cells.entry(key).or_default();
        // A grader places every operation, fitting or not: stop counting
        // where adding one class's whole table ([`MAX_PAIRS`]) still fits
        // in a u32.
        cell.used = cell.used.saturating_add(n).min(SATURATED);
        if let Some(op) = op {
            cell.owners.push(op);
        }
    }
}

impl GlobalTable {
    /// An empty table over absolute cycles.
    pub fn new() -> GlobalTable {
        GlobalTable::default()
    }

    /// An empty modulo reservation table: cycle `c` is row `c mod ii`.
    pub fn modulo(ii: u64) -> GlobalTable {
        GlobalTable {
            cells: std::collections::HashMap::new(),
            ii: Some(ii.max(1)),
        }
    }

    /// `Some(II)` for a modulo table, `None` for a plain one.
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
        overflow(self, &m.class(class).folded, c, |r| m.resource(r).capacity).is_none()
    }

    /// `Fits(o, c)` with the reason when it says no: the first resource (in
    /// table order) that would overflow, and who holds it.
    pub fn fits_why(&self, m: &Machine, class: ClassId, c: Cycle) -> Option<Conflict> {
        let o = overflow(self, &m.class(class).folded, c, |r| m.resource(r).capacity)?;
        Some(Conflict {
            resource: o.resource,
            cycle: o.key.1,
            needed: o.needed,
            capacity: o.capacity,
            owners: self
                .cells
                .get(&o.key)
                .map(|cell| cell.holders().collect())
                .unwrap_or_default(),
        })
    }

    /// `Place(o, c)`; `op` is recorded as an owner when given.
    pub fn place(&mut self, m: &Machine, class: ClassId, c: Cycle, op: Option<OpId>) {
        book(self, &m.class(class).folded, c, op);
    }

    /// Undoes `place(m, class, c, Some(op))`.
    pub fn remove(&mut self, m: &Machine, class: ClassId, c: Cycle, op: OpId) {
        for &(r, k, n) in &m.class(class).folded {
            let key = self.key(r, c, k);
            if let Some(cell) = self.cells.get_mut(&key) {
                debug_assert!(cell.used >= n, "removing what was not placed");
                cell.used = cell.used.saturating_sub(n);
                if let Some(pos) = cell.owners.iter().position(|&o| o == op) {
                    cell.owners.swap_remove(pos);
                }
            }
        }
    }

    /// The operations an eviction must remove for `class` to fit at `c`:
    /// cell by cell (in table order), owners in the order the cell lists
    /// them, one unit each, until the class's demand fits.
    pub fn conflicts(&self, m: &Machine, class: ClassId, c: Cycle) -> Vec<OpId> {
        conflicts(self, m, class, c, |key| {
            self.cells
                .get(&key)
                .map_or((0, &[][..]), |cell| (cell.used, &cell.owners[..]))
        })
    }

    /// `used[r][c]` of Algorithm 23.1.4: units of `r` in use in cycle `c` (its row for a modulo table).
    pub fn used(&self, r: ResourceId, c: Cycle) -> u32 {
        self.cells.get(&(r, self.row(c))).map_or(0, |c| c.used)
    }

    /// The cell of `r` in cycle `c` (its row for a modulo table), if anything was placed there.
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

/// A set of rows `0..len` as a bitset with summary levels: bit `i` of a
/// level is set when word `i` of the level below is all ones. Finding the
/// first row not in the set from a given row costs `O(log₆₄ len)`.
#[derive(Clone, Debug)]
struct RowSet {
    /// `levels[0]` holds one bit per row; each further level summarises the
    /// one below; the last has one word. Bits past the end are set, so a
    /// search never returns them.
    levels: Vec<Vec<u64>>,
}

impl RowSet {
    fn new(len: usize) -> RowSet {
        let mut levels = Vec::new();
        let mut bits = len.max(1);
        loop {
            let words = bits.div_ceil(64);
            let mut level = vec![0u64; words];
            // Padding bits past the end count as members.
            if !bits.is_multiple_of(64) {
                level[words - 1] = !0u64 << (bits % 64);
            }
            levels.push(level);
            if words == 1 {
                break;
            }
            bits = words;
        }
        RowSet { levels }
    }

    fn insert(&mut self, mut i: usize) {
        for level in &mut self.levels {
            let w = &mut level[i / 64];
            *w |= 1 << (i % 64);
            if *w != !0 {
                return;
            }
            i /= 64;
        }
    }

    fn remove(&mut self, mut i: usize) {
        for level in &mut self.levels {
            let w = &mut level[i / 64];
            let was_full = *w == !0;
            *w &= !(1 << (i % 64));
            if !was_full {
                return;
            }
            i /= 64;
        }
    }

    /// The first row `≥ i` not in the set.
    fn next_absent(&self, i: usize) -> Option<usize> {
        self.next_absent_at(0, i)
    }

    fn next_absent_at(&self, level: usize, i: usize) -> Option<usize> {
        let words = self.levels.get(level)?;
        let w = i / 64;
        let here = !words.get(w)? & (!0u64 << (i % 64));
        if here != 0 {
            return Some(w * 64 + here.trailing_zeros() as usize);
        }
        // The next word with a free bit, from the level above.
        let w = self.next_absent_at(level + 1, w + 1)?;
        let free = !words[w];
        (free != 0).then(|| w * 64 + free.trailing_zeros() as usize)
    }
}

/// Algorithm 23.1.4 modulo an initiation interval over dense rows, with
/// owners, for the modulo scheduler. Besides the counts it keeps, per
/// resource, the set of full rows (every unit in use), so that
/// [`ModuloTable::first_fit`] skips a run of full rows in one step.
///
/// **Invariant:** as for [`GlobalTable`] modulo II, and row `w` is in
/// `full[r]` exactly when `used[r][w] ≥ cap(r)`.
#[derive(Clone, Debug)]
pub struct ModuloTable {
    ii: u64,
    nres: usize,
    counts: Vec<u32>,
    caps: Vec<u32>,
    /// Owners of the cells in use, in the order they were placed (a removal
    /// moves the last owner into the gap, as in [`GlobalTable`]).
    owners: NameMap<usize, Vec<OpId>>,
    full: Vec<RowSet>,
}

impl Store for ModuloTable {
    type Key = usize;

    #[inline(always)]
    fn period(&self) -> Option<u64> {
        Some(self.ii)
    }

    #[inline(always)]
    fn key(&self, r: ResourceId, c: Cycle, k: u32) -> usize {
        let row = c.saturating_add(i64::from(k)).rem_euclid(self.ii as i64) as usize;
        row * self.nres + r.index()
    }

    #[inline(always)]
    fn used(&self, key: usize) -> u32 {
        self.counts[key]
    }

    #[inline(always)]
    fn add(&mut self, key: usize, n: u32, op: Option<OpId>) {
        self.counts[key] += n;
        let r = key % self.nres;
        if self.counts[key] >= self.caps[r] {
            self.full[r].insert(key / self.nres);
        }
        if let Some(op) = op {
            self.owners.entry(key).or_default().push(op);
        }
    }
}

impl ModuloTable {
    /// Cells (rows × resources) a dense table may have before a caller
    /// should prefer the sparse [`GlobalTable::modulo`].
    pub const DENSE_CELLS: u64 = 1 << 22;

    /// An empty table for machine `m` with rows `0 … ii − 1`.
    pub fn new(m: &Machine, ii: u64) -> ModuloTable {
        let ii = ii.max(1);
        let nres = m.resources().len().max(1);
        ModuloTable {
            ii,
            nres,
            counts: vec![0; ii as usize * nres],
            caps: m.resources().iter().map(|r| r.capacity).collect(),
            owners: NameMap::default(),
            full: (0..nres).map(|_| RowSet::new(ii as usize)).collect(),
        }
    }

    /// The initiation interval.
    pub fn ii(&self) -> u64 {
        self.ii
    }

    /// `Fits(o, c)` with cycles taken mod II.
    pub fn fits(&self, m: &Machine, class: ClassId, c: Cycle) -> bool {
        overflow(self, &m.class(class).folded, c, |r| self.caps[r.index()]).is_none()
    }

    /// Units of `r` in use in the row of cycle `c`.
    pub fn used(&self, r: ResourceId, c: Cycle) -> u32 {
        self.counts[self.key(r, c, 0)]
    }

    /// The first cycle in `from … from + II − 1` where `class` fits, the
    /// answer of trying `fits` at each in turn. When a pair overflows in
    /// row `w`, every cycle that puts the pair in a full row after `w` is
    /// skipped at once.
    pub fn first_fit(&self, m: &Machine, class: ClassId, from: Cycle) -> Option<Cycle> {
        let folded = &m.class(class).folded;
        let ii = self.ii as i64;
        let end = from.saturating_add(ii);
        let mut c = from;
        while c < end {
            let Some(o) = overflow(self, folded, c, |r| self.caps[r.index()]) else {
                return Some(c);
            };
            let row = o.key / self.nres;
            let full = &self.full[o.resource.index()];
            // The next row of this resource that is not full, cyclically.
            let next = full.next_absent(row + 1).or_else(|| full.next_absent(0))?;
            let step = if next > row {
                next - row
            } else {
                next + self.ii as usize - row
            };
            c = c.saturating_add(step as i64);
        }
        None
    }

    /// `Place(o, c)`; `op` is recorded as an owner when given.
    pub fn place(&mut self, m: &Machine, class: ClassId, c: Cycle, op: Option<OpId>) {
        book(self, &m.class(class).folded, c, op);
    }

    /// Undoes `place(m, class, c, Some(op))`.
    pub fn remove(&mut self, m: &Machine, class: ClassId, c: Cycle, op: OpId) {
        for &(r, k, n) in &m.class(class).folded {
            let key = self.key(r, c, k);
            debug_assert!(self.counts[key] >= n, "removing what was not placed");
            self.counts[key] = self.counts[key].saturating_sub(n);
            if self.counts[key] < self.caps[r.index()] {
                self.full[r.index()].remove(key / self.nres);
            }
            if let Some(owners) = self.owners.get_mut(&key)
                && let Some(pos) = owners.iter().position(|&o| o == op)
            {
                owners.swap_remove(pos);
            }
        }
    }

    /// What [`GlobalTable::conflicts`] answers for the same placements.
    pub fn conflicts(&self, m: &Machine, class: ClassId, c: Cycle) -> Vec<OpId> {
        conflicts(self, m, class, c, |key| {
            (
                self.counts[key],
                self.owners.get(&key).map_or(&[][..], |v| &v[..]),
            )
        })
    }
}

/// Algorithm 23.1.4 over a sliding window of cycles, for clients that never
/// look back: cycles before the window's base are forgotten, so memory is
/// `O(|R| · D)` whatever the schedule length.
///
/// The rows form a ring of at least `D + 1 + lookahead` rows, rounded up to
/// a power of two so that finding a row is a mask. Queries and placements
/// are valid from the base to `base + lookahead` (the ring never wraps
/// onto a live row there).
#[derive(Clone, Debug)]
pub struct WindowTable {
    base: Cycle,
    mask: usize,
    nres: usize,
    counts: Vec<u32>,
    caps: Vec<u32>,
}

impl Store for WindowTable {
    type Key = usize;

    #[inline(always)]
    fn period(&self) -> Option<u64> {
        None
    }

    #[inline(always)]
    fn key(&self, r: ResourceId, c: Cycle, k: u32) -> usize {
        ((c as usize).wrapping_add(k as usize) & self.mask) * self.nres + r.index()
    }

    #[inline(always)]
    fn used(&self, key: usize) -> u32 {
        self.counts[key]
    }

    #[inline(always)]
    fn add(&mut self, key: usize, n: u32, _op: Option<OpId>) {
        self.counts[key] += n;
    }
}

impl WindowTable {
    /// A window for machine `m` that answers queries at its first cycle.
    pub fn new(m: &Machine) -> WindowTable {
        WindowTable::with_lookahead(m, 0)
    }

    /// A window that also answers queries up to `lookahead` cycles past its
    /// first cycle.
    pub fn with_lookahead(m: &Machine, lookahead: usize) -> WindowTable {
        let rows = (m.max_offset() as usize + 1 + lookahead).next_power_of_two();
        let nres = m.resources().len();
        WindowTable {
            base: 0,
            mask: rows - 1,
            nres,
            counts: vec![0; rows * nres],
            caps: m.resources().iter().map(|r| r.capacity).collect(),
        }
    }

    /// Moves the window so that it starts at `cycle` (never backwards),
    /// clearing the rows it leaves behind.
    #[inline]
    pub fn advance_to(&mut self, cycle: Cycle) {
        if cycle <= self.base {
            return;
        }
        let steps = (cycle - self.base) as u64;
        if steps > self.mask as u64 {
            self.counts.iter_mut().for_each(|c| *c = 0);
        } else {
            for s in 0..steps as usize {
                let row = (self.base as usize).wrapping_add(s) & self.mask;
                self.counts[row * self.nres..(row + 1) * self.nres]
                    .iter_mut()
                    .for_each(|c| *c = 0);
            }
        }
        self.base = cycle;
    }

    /// `Fits(o, c)` for `base ≤ c ≤ base + lookahead`.
    #[inline]
    pub fn fits(&self, m: &Machine, class: ClassId, c: Cycle) -> bool {
        debug_assert!(c >= self.base);
        overflow(self, &m.class(class).folded, c, |r| self.caps[r.index()]).is_none()
    }

    /// `Place(o, c)` for `base ≤ c ≤ base + lookahead`.
    #[inline]
    pub fn place(&mut self, m: &Machine, class: ClassId, c: Cycle) {
        debug_assert!(c >= self.base);
        book(self, &m.class(class).folded, c, None);
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
        assert_eq!((why.cycle, why.needed, why.capacity), (0, 2, 1));
        assert!(GlobalTable::modulo(4).fits(&m, div, 3));
        let mut t = GlobalTable::modulo(4);
        t.place(&m, div, 3, Some(OpId(0)));
        assert!(!t.fits(&m, m.class_by_opcode("mul").unwrap(), 100));
    }

    #[test]
    fn an_operation_sharing_a_row_with_itself_is_listed_once() {
        let m = Machine::toy();
        let div = m.class_by_opcode("div").unwrap();
        let mul = m.class_by_opcode("mul").unwrap();
        let mut t = GlobalTable::modulo(2);
        t.place(&m, div, 0, Some(OpId(7)));
        assert_eq!(t.used(m.resource_by_name("mul").unwrap(), 1), 2);
        assert_eq!(t.fits_why(&m, mul, 1).unwrap().owners, vec![OpId(7)]);
        assert_eq!(t.conflicts(&m, mul, 1), vec![OpId(7)]);
        t.remove(&m, div, 0, OpId(7));
        assert!(t.fits(&m, mul, 1));
        assert_eq!(t.occupied_rows(), Vec::<Cycle>::new());
    }

    #[test]
    fn counts_saturate_instead_of_wrapping() {
        // A grader places every submitted operation, fitting or not: with
        // a class of 4M pairs all in the one row of II 1, about a thousand
        // placements would pass u32::MAX units in a cell.
        let m = Machine::toy();
        let a = m.resource_by_name("mul").unwrap();
        let mut t = GlobalTable::modulo(1);
        t.add((a, 0), SATURATED - 5, Some(OpId(0)));
        t.add((a, 0), 10, Some(OpId(1)));
        assert_eq!(t.used(a, 0), SATURATED);
        let most = MAX_PAIRS as u32;
        let o = overflow(&t, &[(a, 0, most)], 0, |_| 65536).unwrap();
        assert_eq!((o.needed, o.capacity), (u32::MAX, 65536));
    }

    #[test]
    fn demand_on_a_long_table_is_the_walk_of_a_short_one() {
        // Folded tables of up to 200 pairs over three resources, sorted and
        // distinct as a machine folds them, against the plain filter.
        let mut x = 99usize;
        for len in [0usize, 5, 16, 17, 40, 200] {
            for ii in [1u64, 2, 3, 7, 64, 1000] {
                let mut pairs: Vec<Pair> = (0..len)
                    .map(|_| {
                        x = x
                            .wrapping_mul(6364136223846793005)
                            .wrapping_add(1442695040888963407);
                        let r = ResourceId::from_index((x >> 40) % 3);
                        (r, ((x >> 20) % 300) as u32, ((x >> 8) % 4) as u32 + 1)
                    })
                    .collect();
                pairs.sort_unstable();
                pairs.dedup_by_key(|p| (p.0, p.1));
                for i in 0..pairs.len() {
                    for cut in [i, i + 1, pairs.len()] {
                        let (r, k, _) = pairs[i];
                        let part = &pairs[..cut];
                        let want: u32 = part
                            .iter()
                            .filter(|&&(r2, k2, _)| r2 == r && u64::from(k.abs_diff(k2)) % ii == 0)
                            .map(|p| p.2)
                            .sum();
                        assert_eq!(demand(part, r, k, ii), want, "len {len} ii {ii} i {i}");
                    }
                }
            }
        }
    }

    #[test]
    fn row_set_finds_the_next_absent_row() {
        for len in [1usize, 5, 63, 64, 65, 200, 4097, 70_000] {
            let mut set = RowSet::new(len);
            let mut model = vec![false; len];
            let mut x = 12345usize;
            for step in 0..3000 {
                x = x
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let i = (x >> 33) % len;
                // Long runs of members, so the summary levels fill up.
                if step % 3 == 0 {
                    set.remove(i);
                    model[i] = false;
                } else {
                    for (j, member) in model.iter_mut().enumerate().take(i + 300).skip(i) {
                        set.insert(j);
                        *member = true;
                    }
                }
                let from = (x >> 13) % (len + 1);
                let want = (from..len).find(|&j| !model[j]);
                assert_eq!(set.next_absent(from), want, "len {len} from {from}");
            }
        }
    }

    #[test]
    fn dense_modulo_table_agrees_with_the_sparse_one() {
        let wide = Machine::from_yaml(
            "issue_width: 3\nresources:\n  - { name: a, capacity: 2 }\n  - { name: b, capacity: 1 }\nclasses:\n  - { name: x, latency: 4, opcodes: [x], reservation: [[a, 0], [b, 1], [a, 3], [a, 3]] }\n  - { name: y, latency: 1, opcodes: [y], unit: b, occupancy: 1 }\n  - { name: z, latency: 2, opcodes: [z], unit: a, occupancy: 2 }\n",
            "wide.yaml",
        )
        .unwrap();
        for m in [Machine::toy(), wide] {
            let classes: Vec<ClassId> = m.class_ids().collect();
            for ii in [1u64, 2, 3, 5, 8, 13] {
                let mut dense = ModuloTable::new(&m, ii);
                let mut sparse = GlobalTable::modulo(ii);
                let mut placed: Vec<(ClassId, Cycle, OpId)> = Vec::new();
                let mut x = ii as usize;
                for op in 0..200u32 {
                    x = x
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    let class = classes[(x >> 40) % classes.len()];
                    let c = ((x >> 20) % 40) as Cycle - 7;
                    let scan = (c..c + ii as Cycle).find(|&t| sparse.fits(&m, class, t));
                    assert_eq!(dense.first_fit(&m, class, c), scan, "ii {ii} op {op}");
                    assert_eq!(dense.fits(&m, class, c), sparse.fits(&m, class, c));
                    assert_eq!(
                        dense.conflicts(&m, class, c),
                        sparse.conflicts(&m, class, c)
                    );
                    if (x >> 8).is_multiple_of(4) && !placed.is_empty() {
                        let (cl, t, o) = placed.swap_remove((x >> 10) % placed.len());
                        dense.remove(&m, cl, t, o);
                        sparse.remove(&m, cl, t, o);
                    } else {
                        let t = scan.unwrap_or(c);
                        dense.place(&m, class, t, Some(OpId(op)));
                        sparse.place(&m, class, t, Some(OpId(op)));
                        placed.push((class, t, OpId(op)));
                    }
                }
            }
        }
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
