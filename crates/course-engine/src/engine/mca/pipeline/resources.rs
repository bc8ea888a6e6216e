//! Processor resources, groups and their buffers, as `mca::ResourceManager`
//! tracks them.
//!
//! Resources are addressed by mask (`computeProcResourceMasks`): a unit has
//! one bit, a group its own bit and its members' bits; the state of a
//! resource lives at the index of its highest bit
//! (`getResourceStateIndex`). A pipe is a pair (resource mask, unit bit
//! within it). Units of a multi-unit resource and members of a group are
//! picked round-robin, highest bit first (`DefaultResourceStrategy`).

use super::Usage;

/// `getResourceStateIndex`: the position of the highest set bit.
pub(super) fn state_index(mask: u64) -> usize {
    if mask == 0 {
        0
    } else {
        63 - mask.leading_zeros() as usize
    }
}

/// `llvm::bit_floor`.
fn bit_floor(mask: u64) -> u64 {
    if mask == 0 { 0 } else { 1 << state_index(mask) }
}

/// `DefaultResourceStrategy`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct Strategy {
    unit_mask: u64,
    next: u64,
    removed: u64,
}

impl Strategy {
    fn new(unit_mask: u64) -> Strategy {
        Strategy {
            unit_mask,
            next: unit_mask,
            removed: 0,
        }
    }

    /// `selectImpl`.
    fn pick(&mut self, candidates: u64) -> u64 {
        let c = bit_floor(candidates);
        self.next &= c | c.wrapping_sub(1);
        c
    }

    /// `DefaultResourceStrategy::select`.
    fn select(&mut self, ready: u64) -> u64 {
        let c = ready & self.next;
        if c != 0 {
            return self.pick(c);
        }
        self.next = self.unit_mask ^ self.removed;
        self.removed = 0;
        let c = ready & self.next;
        if c != 0 {
            return self.pick(c);
        }
        self.next = self.unit_mask;
        self.pick(ready & self.next)
    }

    /// `DefaultResourceStrategy::used`.
    fn used(&mut self, mask: u64) {
        if mask > self.next {
            self.removed |= mask;
            return;
        }
        self.next &= !mask;
        if self.next != 0 {
            return;
        }
        self.next = self.unit_mask ^ self.removed;
        self.removed = 0;
    }
}

/// `ResourceState`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
struct State {
    /// The resource's index in `Processor::resources` (0: no resource has
    /// this bit).
    proc_idx: u16,
    ready_mask: u64,
    buffer_size: i32,
    available_slots: u32,
    reserved: bool,
    group: bool,
    strategy: Option<Strategy>,
}

impl State {
    fn is_ready(&self, units: u32) -> bool {
        (!self.reserved || self.buffer_size == 0) && self.ready_mask.count_ones() >= units
    }

    fn num_units(&self, size_mask: u64) -> u32 {
        if self.group {
            1
        } else {
            size_mask.count_ones()
        }
    }
}

/// Why an instruction cannot enter the scheduler (`ResourceStateEvent`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum BufferCheck {
    /// Every buffer it needs has room.
    Available,
    /// A buffer is full.
    Full,
    /// An in-order (BufferSize = 0) resource is reserved.
    Reserved,
}

/// The resource a pipe belongs to and the unit within it, with the cycles
/// it is held: what `HWInstructionIssuedEvent` reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Used {
    /// Index in `Processor::resources`.
    pub resource: u16,
    /// Unit number within the resource.
    pub unit: u32,
    /// Cycles held.
    pub cycles: u32,
}

/// `mca::ResourceManager`.
#[derive(Clone, Debug)]
pub(super) struct ResourceManager {
    states: Vec<State>,
    /// Per state index: the units of a multi-unit resource, or the members
    /// of a group (`ResourceSizeMask`).
    size_masks: Vec<u64>,
    /// Per state index of a unit: the groups containing it.
    groups_of: Vec<u64>,
    unit_mask: u64,
    available_units: u64,
    reserved_groups: u64,
    available_buffers: u64,
    reserved_buffers: u64,
    /// `BusyResources`: (resource mask, unit bit) and cycles left.
    busy: Vec<(u64, u64, u32)>,
    v22: bool,
}

impl ResourceManager {
    /// The resources of `masks` (per `Processor::resources` index: mask,
    /// units, buffer size); `v22` picks LLVM 22's behaviour.
    pub fn new(res: &[(u64, u32, i32)], v22: bool) -> ResourceManager {
        let n = res.len().saturating_sub(1).max(1);
        let mut states = vec![State::default(); n];
        let mut size_masks = vec![0; n];
        for (i, &(mask, units, buffer)) in res.iter().enumerate().skip(1) {
            let s = state_index(mask);
            let group = mask.count_ones() > 1;
            let size = if group {
                mask ^ (1 << s)
            } else if units >= 64 {
                u64::MAX
            } else {
                (1u64 << units) - 1
            };
            let Some(st) = states.get_mut(s) else {
                continue;
            };
            *st = State {
                proc_idx: u16::try_from(i).unwrap_or(0),
                ready_mask: size,
                buffer_size: buffer,
                available_slots: u32::try_from(buffer.max(0)).unwrap_or(0),
                reserved: false,
                group,
                strategy: (group || units > 1).then(|| Strategy::new(size)),
            };
            size_masks[s] = size;
        }
        let mut groups_of = vec![0; n];
        let mut unit_mask = 0;
        for &(mask, _, _) in res.iter().skip(1) {
            if mask.count_ones() <= 1 {
                unit_mask |= mask;
                continue;
            }
            let own = 1u64 << state_index(mask);
            let mut m = mask - own;
            while m != 0 {
                let unit = m & m.wrapping_neg();
                if let Some(g) = groups_of.get_mut(state_index(unit)) {
                    *g |= own;
                }
                m ^= unit;
            }
        }
        ResourceManager {
            states,
            size_masks,
            groups_of,
            unit_mask,
            available_units: unit_mask,
            reserved_groups: 0,
            available_buffers: u64::MAX,
            reserved_buffers: 0,
            busy: Vec::new(),
            v22,
        }
    }

    fn st(&self, mask: u64) -> &State {
        &self.states[state_index(mask).min(self.states.len() - 1)]
    }

    fn st_mut(&mut self, mask: u64) -> &mut State {
        let i = state_index(mask).min(self.states.len() - 1);
        &mut self.states[i]
    }

    /// `canBeDispatched`.
    pub fn can_be_dispatched(&self, buffers: u64) -> BufferCheck {
        if buffers & self.reserved_buffers != 0 {
            BufferCheck::Reserved
        } else if buffers & !self.available_buffers != 0 {
            BufferCheck::Full
        } else {
            BufferCheck::Available
        }
    }

    /// `reserveBuffers`.
    pub fn reserve_buffers(&mut self, mut buffers: u64) {
        while buffers != 0 {
            let b = buffers & buffers.wrapping_neg();
            buffers ^= b;
            let st = self.st_mut(b);
            let mut full = false;
            if st.buffer_size > 0 {
                st.available_slots = st.available_slots.saturating_sub(1);
                full = st.available_slots == 0;
            }
            let hazard = st.buffer_size == 0;
            if full {
                self.available_buffers ^= b;
            }
            if hazard {
                self.reserved_buffers ^= b;
            }
        }
    }

    /// `releaseBuffers`.
    pub fn release_buffers(&mut self, mut buffers: u64) {
        self.available_buffers |= buffers;
        while buffers != 0 {
            let b = buffers & buffers.wrapping_neg();
            buffers ^= b;
            let st = self.st_mut(b);
            if st.buffer_size > 0 {
                st.available_slots += 1;
            }
        }
    }

    /// `reserveResource`: a group held for several cycles.
    fn reserve_resource(&mut self, mask: u64) {
        let i = state_index(mask);
        self.st_mut(mask).reserved = true;
        self.reserved_groups ^= 1 << i;
    }

    /// `releaseResource`.
    fn release_resource(&mut self, mask: u64) {
        let i = state_index(mask);
        let st = self.st_mut(mask);
        st.reserved = false;
        let (group, hazard) = (st.group, st.buffer_size == 0);
        if group {
            self.reserved_groups ^= 1 << i;
        }
        if hazard {
            self.reserved_buffers ^= 1 << i;
        }
    }

    /// `selectPipe`.
    fn select_pipe(&mut self, mask: u64) -> (u64, u64) {
        let mut mask = mask;
        loop {
            let st = self.st_mut(mask);
            let ready = st.ready_mask;
            if !st.group && st.strategy.is_none() {
                return (mask, ready);
            }
            let sub = match &mut st.strategy {
                Some(s) if ready != 0 => s.select(ready),
                _ => return (mask, ready),
            };
            if !st.group {
                return (mask, sub);
            }
            mask = sub;
        }
    }

    /// `use`: marks pipe `rr` busy.
    fn use_pipe(&mut self, rr: (u64, u64)) {
        let i = state_index(rr.0);
        let size = self.size_masks.get(i).copied().unwrap_or(0);
        let st = self.st_mut(rr.0);
        st.ready_mask ^= rr.1;
        if st.num_units(size) > 1
            && let Some(s) = &mut st.strategy
        {
            s.used(rr.1);
        }
        if st.is_ready(1) {
            return;
        }
        self.available_units ^= rr.0;
        let mut users = self.groups_of.get(i).copied().unwrap_or(0);
        while users != 0 {
            let g = users & users.wrapping_neg();
            let gs = self.st_mut(g);
            gs.ready_mask ^= rr.0;
            if let Some(s) = &mut gs.strategy {
                s.used(rr.0);
            }
            users &= users - 1;
        }
    }

    /// `release`.
    fn release(&mut self, rr: (u64, u64)) {
        let i = state_index(rr.0);
        let st = self.st_mut(rr.0);
        let was_full = !st.is_ready(1);
        st.ready_mask ^= rr.1;
        if !was_full {
            return;
        }
        self.available_units ^= rr.0;
        let mut users = self.groups_of.get(i).copied().unwrap_or(0);
        while users != 0 {
            let g = users & users.wrapping_neg();
            self.st_mut(g).ready_mask ^= rr.0;
            users &= users - 1;
        }
    }

    /// Adds `cycles` to pipe `rr` (`BusyResources[rr] += cycles`).
    fn hold(&mut self, rr: (u64, u64), cycles: u32) {
        match self.busy.iter_mut().find(|b| (b.0, b.1) == rr) {
            Some(b) => b.2 += cycles,
            None => self.busy.push((rr.0, rr.1, cycles)),
        }
    }

    fn used(&self, rr: (u64, u64), cycles: u32) -> Used {
        Used {
            resource: self.st(rr.0).proc_idx,
            unit: rr.1.trailing_zeros(),
            cycles,
        }
    }

    /// `checkAvailability`: the busy units (or reserved groups) that keep
    /// an instruction using `uses` from issuing now, 0 if none.
    /// `implicit` is LLVM 14's `ImplicitlyUsedProcResUnits`, `groups` the
    /// descriptor's `UsedProcResGroups`.
    pub fn check_availability(
        &self,
        uses: &[Usage],
        groups: u64,
        implicit: u64,
        overlap: bool,
    ) -> u64 {
        if self.v22 {
            return self.check_availability_22(uses, groups, overlap);
        }
        let mut busy = 0;
        for u in uses {
            let units = if u.reserved { 0 } else { u.units };
            if !self.st(u.mask).is_ready(units) {
                busy |= u.mask;
            }
        }
        let mut imp = implicit;
        while imp != 0 {
            let u = imp & imp.wrapping_neg();
            imp ^= u;
            let i = state_index(u);
            if !self.st(u).is_ready(1) {
                // LLVM 14 ors in the index, not the mask.
                busy |= i as u64;
            }
        }
        busy &= self.unit_mask;
        if busy != 0 {
            return busy;
        }
        groups & self.reserved_groups
    }

    fn check_availability_22(&self, uses: &[Usage], groups: u64, overlap: bool) -> u64 {
        let mut busy = 0;
        let mut consumed = 0;
        let mut avail: Vec<(u64, u32)> = Vec::new();
        for u in uses {
            let units = if u.reserved { 0 } else { u.units };
            let st = self.st(u.mask);
            if !st.is_ready(units) {
                busy |= u.mask;
                continue;
            }
            if overlap && !st.group {
                let n = st.ready_mask.count_ones().wrapping_sub(units);
                set_avail(&mut avail, u.mask, n);
                if n == 0 {
                    consumed |= u.mask;
                }
            }
        }
        busy &= self.unit_mask;
        if busy != 0 {
            return busy;
        }
        busy = groups & self.reserved_groups;
        if !overlap || busy != 0 {
            return busy;
        }
        for u in uses {
            let st = self.st(u.mask);
            if u.reserved || !st.group {
                continue;
            }
            let ready = st.ready_mask & !consumed;
            if ready == 0 {
                busy |= st.ready_mask;
                continue;
            }
            let m = bit_floor(ready);
            let n = match avail.iter().find(|a| a.0 == m) {
                Some(a) => a.1,
                None => {
                    let n = self.st(m).ready_mask.count_ones();
                    avail.push((m, n));
                    n
                }
            };
            if n == 0 {
                busy |= m;
                continue;
            }
            set_avail(&mut avail, m, n - 1);
            if n == 1 {
                consumed |= m;
            }
        }
        busy
    }

    /// `issueInstruction`: takes the pipes of an instruction using `uses`
    /// and appends what it used to `out`.
    pub fn issue(&mut self, uses: &[Usage], overlap: bool, out: &mut Vec<Used>) {
        if self.v22 && overlap {
            self.issue_overlapping(uses, out);
            return;
        }
        for u in uses {
            if u.size == 0 {
                self.release_resource(u.mask);
            } else if !u.reserved {
                let pipe = self.select_pipe(u.mask);
                self.use_pipe(pipe);
                self.hold(pipe, u.size);
                out.push(self.used(pipe, u.size));
            } else {
                self.reserve_resource(u.mask);
                self.hold((u.mask, u.mask), u.size);
            }
        }
    }

    /// `issueInstructionImpl`: groups that overlap partially are served
    /// most constrained first.
    fn issue_overlapping(&mut self, uses: &[Usage], out: &mut Vec<Used>) {
        let mut work: Vec<Usage> = Vec::new();
        for u in uses {
            if u.size == 0 {
                self.release_resource(u.mask);
                continue;
            }
            if u.reserved {
                self.reserve_resource(u.mask);
                self.hold((u.mask, u.mask), u.size);
                continue;
            }
            let st = self.st(u.mask);
            if st.group && st.ready_mask.count_ones() > 1 {
                work.push(*u);
                continue;
            }
            let pipe = self.select_pipe(u.mask);
            self.use_pipe(pipe);
            self.hold(pipe, u.size);
            out.push(self.used(pipe, u.size));
        }
        while !work.is_empty() {
            let ready = |rm: &ResourceManager, u: &Usage| rm.st(u.mask).ready_mask.count_ones();
            // A stable sort by (ready units, mask) is what llvm::sort gives
            // here: no two entries compare equal.
            work.sort_by_key(|u| (ready(self, u), u.mask));
            let mut next = Vec::new();
            for (i, u) in work.iter().enumerate() {
                if i == 0 || ready(self, u) == 1 {
                    let pipe = self.select_pipe(u.mask);
                    self.use_pipe(pipe);
                    self.hold(pipe, u.size);
                    out.push(self.used(pipe, u.size));
                    continue;
                }
                next.push(*u);
            }
            work = next;
        }
    }

    /// `cycleEvent`: a cycle passed; frees pipes whose cycles are over.
    pub fn cycle_event(&mut self) {
        let mut i = 0;
        while i < self.busy.len() {
            let b = &mut self.busy[i];
            if b.2 > 0 {
                b.2 -= 1;
            }
            if b.2 != 0 {
                i += 1;
                continue;
            }
            let rr = (b.0, b.1);
            self.busy.swap_remove(i);
            if rr.0.count_ones() == 1 {
                self.release(rr);
            }
            self.release_resource(rr.0);
        }
    }

    /// Appends the state to `out` (for the steady-state search): busy
    /// pipes in a canonical order.
    pub fn encode(&self, out: &mut Vec<u64>) {
        for s in &self.states {
            out.push(s.ready_mask);
            out.push(u64::from(s.available_slots) << 1 | u64::from(s.reserved));
            if let Some(st) = &s.strategy {
                out.push(st.next);
                out.push(st.removed);
            }
        }
        out.extend([
            self.available_units,
            self.reserved_groups,
            self.available_buffers,
            self.reserved_buffers,
        ]);
        let mut busy = self.busy.clone();
        busy.sort_unstable();
        out.push(busy.len() as u64);
        for b in busy {
            out.extend([b.0, b.1, u64::from(b.2)]);
        }
    }
}

fn set_avail(avail: &mut Vec<(u64, u32)>, mask: u64, n: u32) {
    match avail.iter_mut().find(|a| a.0 == mask) {
        Some(a) => a.1 = n,
        None => avail.push((mask, n)),
    }
}

/// LLVM 14's `ImplicitlyUsedProcResUnits`, recomputed from a descriptor's
/// resources in `InstrBuilder` order (units first, then groups by size).
pub(super) fn implicit_units(uses: &[Usage]) -> u64 {
    let mut used = 0u64;
    let mut implied = 0u64;
    for u in uses {
        if u.mask.count_ones() == 1 {
            used |= u.mask;
            continue;
        }
        let norm = u.mask ^ bit_floor(u.mask);
        let avail = norm & !used;
        if norm != avail && avail.count_ones() == 1 {
            implied |= avail;
            used |= avail;
        }
    }
    let mut all = 0;
    while implied != 0 {
        all |= implied;
        implied = 0;
        for u in uses.iter().filter(|u| u.mask.count_ones() > 1) {
            let norm = u.mask ^ bit_floor(u.mask);
            let avail = norm & !used;
            if norm != avail && avail.count_ones() != 1 {
                continue;
            }
            used |= avail;
            implied |= avail;
        }
    }
    all
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two ports P0, P1 and their group P01 (masks 0b01, 0b10, 0b111).
    fn two_ports(v22: bool) -> ResourceManager {
        ResourceManager::new(&[(0, 0, 0), (1, 1, -1), (2, 1, -1), (7, 2, -1)], v22)
    }

    fn group_use(size: u32) -> Usage {
        Usage {
            mask: 7,
            size,
            units: 1,
            reserved: false,
        }
    }

    #[test]
    fn groups_pick_members_round_robin_from_the_top() {
        let mut rm = two_ports(true);
        let mut out = Vec::new();
        rm.issue(&[group_use(1)], false, &mut out);
        rm.issue(&[group_use(1)], false, &mut out);
        // P1 (the higher bit) first, then P0.
        assert_eq!(out.iter().map(|u| u.resource).collect::<Vec<_>>(), [2, 1]);
        assert_ne!(rm.check_availability(&[group_use(1)], 4, 0, false), 0);
        rm.cycle_event();
        assert_eq!(rm.check_availability(&[group_use(1)], 4, 0, false), 0);
        out.clear();
        rm.issue(&[group_use(1)], false, &mut out);
        assert_eq!(out[0].resource, 2);
    }

    #[test]
    fn a_busy_unit_blocks_for_its_cycles() {
        let mut rm = two_ports(false);
        let p0 = Usage {
            mask: 1,
            size: 3,
            units: 1,
            reserved: false,
        };
        let mut out = Vec::new();
        rm.issue(&[p0], false, &mut out);
        assert_eq!(
            out,
            [Used {
                resource: 1,
                unit: 0,
                cycles: 3
            }]
        );
        for busy in [true, true, true, false] {
            assert_eq!(rm.check_availability(&[p0], 0, 0, false) != 0, busy);
            rm.cycle_event();
        }
    }

    #[test]
    fn buffers_fill_and_drain() {
        let mut rm = ResourceManager::new(&[(0, 0, 0), (1, 1, 2)], true);
        assert_eq!(rm.can_be_dispatched(1), BufferCheck::Available);
        rm.reserve_buffers(1);
        rm.reserve_buffers(1);
        assert_eq!(rm.can_be_dispatched(1), BufferCheck::Full);
        rm.release_buffers(1);
        assert_eq!(rm.can_be_dispatched(1), BufferCheck::Available);
    }

    #[test]
    fn implied_units_of_llvm_14() {
        // P0 used directly; P01 can then only use P1.
        let uses = [
            Usage {
                mask: 1,
                size: 1,
                units: 1,
                reserved: false,
            },
            group_use(1),
        ];
        assert_eq!(implicit_units(&uses), 2);
    }
}
