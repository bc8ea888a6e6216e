//! The processor resources of an out-of-order run, booked the way llvm-mca's
//! ResourceManager books them (Definition 23.1.8): resource kinds with
//! several interchangeable units, and groups (ProcResGroup) whose micro-op
//! takes a free unit of any member. Which member a group picks matters for
//! later cycles, so the choice follows llvm-mca's round-robin strategy: the
//! highest-numbered ready member not used since the sequence last restarted.
//!
//! Units of one kind are interchangeable, so a kind keeps one count per
//! future cycle instead of a state per unit: a sliding window of
//! `(cycle, units busy)` cells, as in Algorithm 23.1.4. Each kind's window
//! reaches as far as the offsets booked on it (directly or through a group),
//! so one long reservation does not widen every kind's window.

use crate::model::ids::{Cycle, ResourceId};
use crate::model::machine::{ISSUE, Machine};

/// One resource a class books: a kind or a group, at some offsets after
/// issue (`0..ReleaseAtCycles` for an LLVM-style use).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Booking {
    /// The kind or group.
    pub res: ResourceId,
    /// The offsets, ascending.
    pub offsets: Vec<u32>,
    /// For a group: how many of its members must have a free unit for the
    /// class to issue (llvm-mca's NumUnits; more than one when the class
    /// also books some of the group's members directly).
    pub units: u32,
}

/// The bookings of a class in llvm-mca's order, after llvm-mca's rule that a
/// group's cycles already covered by its members' own bookings are not
/// booked again (InstrBuilder's "remove cycles contributed by smaller
/// resources"). Units come first, then smaller groups, then larger ones.
pub(super) fn bookings(m: &Machine, class: crate::model::ids::ClassId) -> Vec<Booking> {
    let c = m.class(class);
    let mut list: Vec<Booking> = Vec::new();
    for &(r, k) in &c.reservation {
        if r == ISSUE {
            continue;
        }
        match list.iter_mut().find(|b| b.res == r) {
            Some(b) => b.offsets.push(k),
            None => list.push(Booking {
                res: r,
                offsets: vec![k],
                units: 1,
            }),
        }
    }
    for b in &mut list {
        b.offsets.sort_unstable();
    }
    let size = |r: ResourceId| {
        let res = m.resource(r);
        if res.is_group() {
            res.members.len() + 1
        } else {
            1
        }
    };
    list.sort_by_key(|b| (size(b.res), b.res));
    let llvm_style = list
        .iter()
        .all(|b| b.offsets.iter().enumerate().all(|(i, &k)| k as usize == i));
    if !llvm_style {
        return list;
    }
    let covers = |outer: ResourceId, inner: ResourceId| -> bool {
        let o = m.resource(outer);
        if !o.is_group() || outer == inner {
            return false;
        }
        let i = m.resource(inner);
        if i.is_group() {
            i.members.iter().all(|x| o.members.contains(x))
        } else {
            o.members.contains(&inner)
        }
    };
    let mut out = Vec::new();
    for i in 0..list.len() {
        let cycles = list[i].offsets.len();
        if cycles == 0 {
            continue;
        }
        out.push(list[i].clone());
        for j in i + 1..list.len() {
            if covers(list[j].res, list[i].res) {
                let left = list[j].offsets.len().saturating_sub(cycles);
                list[j].offsets.truncate(left);
                list[j].units += 1;
            }
        }
    }
    out
}

/// llvm-mca's DefaultResourceStrategy for one group, over its members' bits.
#[derive(Clone, Debug)]
struct Strategy {
    all: u64,
    next: u64,
    removed: u64,
}

impl Strategy {
    fn new(all: u64) -> Strategy {
        Strategy {
            all,
            next: all,
            removed: 0,
        }
    }

    fn pick(candidates: u64, next: &mut u64) -> u64 {
        let c = 1u64 << (63 - candidates.leading_zeros());
        *next &= c | (c - 1);
        c
    }

    /// The member to use among the `ready` ones (never 0).
    fn select(&mut self, ready: u64) -> u64 {
        let c = ready & self.next;
        if c != 0 {
            return Self::pick(c, &mut self.next);
        }
        self.next = self.all ^ self.removed;
        self.removed = 0;
        let c = ready & self.next;
        if c != 0 {
            return Self::pick(c, &mut self.next);
        }
        self.next = self.all;
        Self::pick(ready & self.next, &mut self.next)
    }

    /// A member has no free unit left.
    fn used(&mut self, mask: u64) {
        if mask > self.next {
            self.removed |= mask;
            return;
        }
        self.next &= !mask;
        if self.next == 0 {
            self.next = self.all ^ self.removed;
            self.removed = 0;
        }
    }
}

/// Resource state of one run.
#[derive(Clone, Debug)]
pub(super) struct Ports {
    /// Per kind (by dense index): where its rows start in `cells` and the
    /// mask of its power-of-two row count.
    rows: Vec<(usize, usize)>,
    /// `(cycle, busy units)` per kind and row.
    cells: Vec<(Cycle, u32)>,
    /// Per resource id: the dense index of a kind, or `u32::MAX`.
    slot: Vec<u32>,
    caps: Vec<u32>,
    /// Per resource id: the member bit of a kind (its rank among kinds).
    bit: Vec<u64>,
    /// Per resource id: the strategy of a group.
    strategy: Vec<Option<Strategy>>,
    /// Per resource id of a kind: the groups that contain it, ascending.
    groups_of: Vec<Vec<ResourceId>>,
    members: Vec<Vec<ResourceId>>,
    /// Per resource id of a group: its members' bits.
    group_bits: Vec<u64>,
    /// Every class books its resources from offset 0 on, as llvm-mca does,
    /// and there are at most 64 kinds: then a kind's busy units never grow
    /// with the offset, so "free now" decides, kept as one bit per kind.
    fast: bool,
    /// The cycle `free` describes.
    now: Cycle,
    /// Kinds with a free unit at `now` (fast mode).
    free: u64,
    /// Every kind's bit.
    all_bits: u64,
    /// The kind of each bit.
    kind_of_bit: Vec<ResourceId>,
}

impl Ports {
    pub fn new(m: &Machine) -> Ports {
        let n = m.resources().len();
        // Per resource: one past the largest offset booked on it; a group's
        // offsets land on its members.
        let mut span = vec![0usize; n];
        for c in m.classes() {
            for &(r, k) in &c.reservation {
                span[r.index()] = span[r.index()].max(k as usize + 1);
            }
        }
        for (r, res) in m.resources().iter().enumerate() {
            let reach = span[r];
            for x in &res.members {
                span[x.index()] = span[x.index()].max(reach);
            }
        }
        let mut slot = vec![u32::MAX; n];
        let mut bit = vec![0u64; n];
        let mut kinds = 0u32;
        let mut rows: Vec<(usize, usize)> = Vec::new();
        let mut cells = 0usize;
        for r in m.resource_ids() {
            if !m.resource(r).is_group() {
                slot[r.index()] = kinds;
                if kinds < 64 {
                    bit[r.index()] = 1u64 << kinds;
                }
                kinds += 1;
                // Cycles `t … t + span − 1` are live at once: more rows
                // than that, so no two of them share a row.
                let len = (span[r.index()] + 1).next_power_of_two();
                rows.push((cells, len - 1));
                cells += len;
            }
        }
        let strategy = m
            .resource_ids()
            .map(|r| {
                let res = m.resource(r);
                res.is_group()
                    .then(|| Strategy::new(res.members.iter().fold(0, |a, x| a | bit[x.index()])))
            })
            .collect();
        // Each resource's offsets in a class are 0, 1, 2, … in order:
        // `next` counts the pairs of each resource seen so far.
        let mut next = vec![0u32; n];
        let fast = kinds <= 64
            && m.classes().iter().all(|c| {
                let pairs = c.reservation.iter().filter(|(r, _)| *r != ISSUE);
                let from_zero = pairs.clone().all(|&(r, k)| {
                    let seen = &mut next[r.index()];
                    *seen += 1;
                    k + 1 == *seen
                });
                pairs.for_each(|&(r, _)| next[r.index()] = 0);
                from_zero
            });
        let group_bits = m
            .resources()
            .iter()
            .map(|r| r.members.iter().fold(0, |a, x| a | bit[x.index()]))
            .collect();
        let free = (0..kinds.min(64)).fold(0u64, |a, i| a | 1u64 << i);
        let kind_of_bit = m
            .resource_ids()
            .filter(|&r| slot[r.index()] != u32::MAX)
            .take(64)
            .collect();
        Ports {
            all_bits: free,
            kind_of_bit,
            group_bits,
            fast,
            now: 0,
            free,
            rows,
            cells: vec![(-1, 0); cells],
            slot,
            caps: m.resources().iter().map(|r| r.capacity).collect(),
            bit,
            strategy,
            groups_of: m.resource_ids().map(|r| m.groups_of(r).collect()).collect(),
            members: m.resources().iter().map(|r| r.members.clone()).collect(),
        }
    }

    /// The cell of `kind` for cycle `t`.
    #[inline]
    fn cell(&self, kind: ResourceId, t: Cycle) -> usize {
        let (start, mask) = self.rows[self.slot[kind.index()] as usize];
        start + (t as usize & mask)
    }

    #[inline]
    fn busy(&self, kind: ResourceId, t: Cycle) -> u32 {
        let (c, n) = self.cells[self.cell(kind, t)];
        if c == t { n } else { 0 }
    }

    #[inline]
    fn fits_kind(&self, kind: ResourceId, t: Cycle, offsets: &[u32]) -> bool {
        let cap = self.caps[kind.index()];
        offsets
            .iter()
            .all(|&k| self.busy(kind, t + Cycle::from(k)) < cap)
    }

    /// Moves to cycle `t` (never backwards): which kinds have a free unit.
    pub fn set_cycle(&mut self, t: Cycle) {
        if !self.fast || t == self.now {
            return;
        }
        self.now = t;
        // A kind free before stays free (bookings start at their issue
        // cycle); only the busy ones need a look.
        let mut busy = !self.free & self.all_bits;
        while busy != 0 {
            let b = busy.trailing_zeros() as usize;
            busy &= busy - 1;
            let r = self.kind_of_bit[b];
            if self.busy(r, t) < self.caps[r.index()] {
                self.free |= 1u64 << b;
            }
        }
    }

    fn ready_members(&self, group: ResourceId, t: Cycle, offsets: &[u32]) -> u64 {
        if self.fast {
            return self.free & self.group_bits[group.index()];
        }
        self.members[group.index()]
            .iter()
            .filter(|&&x| self.fits_kind(x, t, offsets))
            .fold(0, |a, x| a | self.bit[x.index()])
    }

    /// Whether every booking can be made at cycle `t`.
    pub fn available(&self, list: &[Booking], t: Cycle) -> bool {
        if self.fast {
            return list.iter().all(|b| {
                let bits = self.group_bits[b.res.index()];
                if bits != 0 {
                    (self.free & bits).count_ones() >= b.units
                } else {
                    self.free & self.bit[b.res.index()] != 0
                }
            });
        }
        list.iter().all(|b| {
            if self.strategy[b.res.index()].is_some() {
                self.ready_members(b.res, t, &b.offsets).count_ones() >= b.units
            } else {
                self.fits_kind(b.res, t, &b.offsets)
            }
        })
    }

    /// Makes the bookings at cycle `t` (they must be available) and calls
    /// `booked(kind, cycles)` for each unit taken.
    pub fn book(&mut self, list: &[Booking], t: Cycle, mut booked: impl FnMut(ResourceId, u32)) {
        for b in list {
            let kind = if self.strategy[b.res.index()].is_some() {
                let ready = self.ready_members(b.res, t, &b.offsets);
                let Some(s) = self.strategy[b.res.index()].as_mut() else {
                    continue;
                };
                let chosen = s.select(ready);
                match self.kind_of_bit.get(chosen.trailing_zeros() as usize) {
                    Some(&k) => k,
                    None => continue,
                }
            } else {
                b.res
            };
            for &k in &b.offsets {
                let c = t + Cycle::from(k);
                let i = self.cell(kind, c);
                let n = if self.cells[i].0 == c {
                    self.cells[i].1
                } else {
                    0
                };
                self.cells[i] = (c, n + 1);
            }
            booked(kind, b.offsets.len() as u32);
            // A kind with no free unit left now: its groups skip it in their
            // round-robin sequence (llvm-mca's ResourceManager::use).
            if self.busy(kind, t) >= self.caps[kind.index()] {
                let bit = self.bit[kind.index()];
                self.free &= !bit;
                let Ports {
                    groups_of,
                    strategy,
                    ..
                } = self;
                for g in &groups_of[kind.index()] {
                    if let Some(s) = strategy[g.index()].as_mut() {
                        s.used(bit);
                    }
                }
            }
        }
    }
}

impl Ports {
    /// Appends the state that decides every later cycle, relative to
    /// `now`: each kind's busy units at `now, now + 1, …` over its window,
    /// then each group's round-robin state. Cells of earlier cycles are
    /// never read again, and `free` follows from the busy units at `now`.
    pub fn encode(&self, now: Cycle, out: &mut Vec<i64>) {
        for &(start, mask) in &self.rows {
            for d in 0..=mask as Cycle {
                let t = now + d;
                let (c, n) = self.cells[start + (t as usize & mask)];
                out.push(if c == t { i64::from(n) } else { 0 });
            }
        }
        for s in self.strategy.iter().flatten() {
            out.push(s.next as i64);
            out.push(s.removed as i64);
        }
    }

    /// The inverse of [`Ports::encode`] at another cycle: the resources
    /// as they were, moved to `now`. Returns the words read.
    pub fn restore(&mut self, now: Cycle, data: &[i64]) -> usize {
        let mut i = 0;
        for &(start, mask) in &self.rows {
            for d in 0..=mask as Cycle {
                let t = now + d;
                self.cells[start + (t as usize & mask)] = (t, data[i] as u32);
                i += 1;
            }
        }
        for s in self.strategy.iter_mut().flatten() {
            s.next = data[i] as u64;
            s.removed = data[i + 1] as u64;
            i += 2;
        }
        self.now = now;
        self.free = 0;
        for (b, &r) in self.kind_of_bit.iter().enumerate() {
            if self.busy(r, now) < self.caps[r.index()] {
                self.free |= 1u64 << b;
            }
        }
        i
    }

    /// The first cycle after `now` (the cycle last set) at which a class
    /// that cannot issue now might: when a kind with no free unit frees
    /// one. Where offsets start later than 0 a booking can fit at any
    /// later cycle, so that is the next one.
    pub fn next_free(&self, now: Cycle) -> Cycle {
        if !self.fast {
            return now + 1;
        }
        let mut next = Cycle::MAX;
        let mut busy = !self.free & self.all_bits;
        while busy != 0 {
            let b = busy.trailing_zeros() as usize;
            busy &= busy - 1;
            let r = self.kind_of_bit[b];
            let (_, mask) = self.rows[self.slot[r.index()] as usize];
            let cap = self.caps[r.index()];
            // Busy units never grow with the cycle here (every booking
            // starts at its issue cycle), and the window ends free.
            let t = (1..=mask as Cycle + 1)
                .map(|d| now + d)
                .find(|&t| self.busy(r, t) < cap)
                .unwrap_or(now + mask as Cycle + 1);
            next = next.min(t);
        }
        next.max(now + 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_robin_starts_at_the_highest_member() {
        // A member stays first in the sequence until it runs out of units.
        let mut s = Strategy::new(0b1111);
        assert_eq!(s.select(0b1111), 0b1000);
        assert_eq!(s.select(0b1111), 0b1000);
        s.used(0b1000);
        assert_eq!(s.select(0b0111), 0b0100);
        s.used(0b0100);
        assert_eq!(s.select(0b0011), 0b0010);
        s.used(0b0010);
        s.used(0b0001);
        // Everything used: the sequence starts over at the top.
        assert_eq!(s.select(0b1111), 0b1000);
    }

    #[test]
    fn one_long_reservation_widens_only_its_own_kinds() {
        // 60 kinds, one class holding u0 for 60000 cycles, one holding the
        // group of u1 and u2 for 4096.
        let units: String = (0..60)
            .map(|i| format!("  - {{ name: u{i}, capacity: 1 }}\n"))
            .collect();
        let yaml = format!(
            "issue_width: 2\nmicro_op_buffer_size: 8\nresources:\n{units}  - {{ name: g, group: [u1, u2] }}\nclasses:\n  - {{ name: slow, latency: 60000, opcodes: [slow], unit: u0, occupancy: 60000 }}\n  - {{ name: wide, latency: 5000, opcodes: [wide], uses: [[g, 4096]] }}\n"
        );
        let m = Machine::from_yaml(&yaml, "long.yaml").unwrap();
        let ports = Ports::new(&m);
        let slow = 65536 + 2 * 8192;
        assert!(ports.cells.len() <= slow + 60 * 2, "{}", ports.cells.len());
        // Each kind's window still covers its own offsets.
        let u0 = m.resource_by_name("u0").unwrap();
        let u1 = m.resource_by_name("u1").unwrap();
        let (_, mask0) = ports.rows[ports.slot[u0.index()] as usize];
        let (_, mask1) = ports.rows[ports.slot[u1.index()] as usize];
        assert!(mask0 >= 60000 && mask1 >= 4096, "{mask0} {mask1}");
    }
}
