//! The load/store unit, as `mca::LSUnit` orders memory operations: load
//! and store queues, and memory groups.
//!
//! Every store opens a group; consecutive loads share one until a store
//! or a barrier intervenes or the group starts executing. A group waits
//! for its predecessors: a store for the previous store and the loads and
//! load barrier before it, a load (without `-noalias`) for the previous
//! store, every operation for the barriers before it. An order edge is
//! released when the predecessor issues, a data edge when it executes.

use std::collections::VecDeque;

/// `LSUnit::MemoryGroup`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
struct Group {
    preds: u32,
    executing_preds: u32,
    executed_preds: u32,
    instructions: u32,
    executing: u32,
    executed: u32,
    order_succ: Vec<u64>,
    data_succ: Vec<u64>,
}

impl Group {
    fn is_waiting(&self) -> bool {
        self.preds > self.executing_preds + self.executed_preds
    }

    fn is_pending(&self) -> bool {
        self.executing_preds != 0 && self.executed_preds + self.executing_preds == self.preds
    }

    fn is_ready(&self) -> bool {
        self.executed_preds == self.preds
    }

    fn is_executing(&self) -> bool {
        self.executing != 0 && self.executing == self.instructions - self.executed
    }

    fn is_executed(&self) -> bool {
        self.instructions == self.executed
    }
}

/// Why a memory operation cannot dispatch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum QueueCheck {
    /// Room in the queues it needs.
    Available,
    /// The load queue is full.
    LoadFull,
    /// The store queue is full.
    StoreFull,
}

/// The memory flags of an instruction the unit looks at.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct MemOp {
    /// May read memory.
    pub load: bool,
    /// May write memory.
    pub store: bool,
    /// A load barrier.
    pub load_barrier: bool,
    /// A store barrier.
    pub store_barrier: bool,
}

/// `mca::LSUnit`.
#[derive(Clone, Debug)]
pub(super) struct Lsu {
    lq_size: u32,
    sq_size: u32,
    lq_used: u32,
    sq_used: u32,
    no_alias: bool,
    /// Groups by id: `groups[i]` is group `first + i` (`None` once done).
    groups: VecDeque<Option<Group>>,
    first: u64,
    next_id: u64,
    cur_load: u64,
    cur_load_barrier: u64,
    cur_store: u64,
    cur_store_barrier: u64,
}

impl Lsu {
    /// Queues of `lq` and `sq` entries (0: unbounded).
    pub fn new(lq: u32, sq: u32, no_alias: bool) -> Lsu {
        Lsu {
            lq_size: lq,
            sq_size: sq,
            lq_used: 0,
            sq_used: 0,
            no_alias,
            groups: VecDeque::new(),
            first: 1,
            next_id: 1,
            cur_load: 0,
            cur_load_barrier: 0,
            cur_store: 0,
            cur_store_barrier: 0,
        }
    }

    /// `isAvailable`.
    pub fn is_available(&self, m: MemOp) -> QueueCheck {
        if m.load && self.lq_size != 0 && self.lq_size == self.lq_used {
            QueueCheck::LoadFull
        } else if m.store && self.sq_size != 0 && self.sq_size == self.sq_used {
            QueueCheck::StoreFull
        } else {
            QueueCheck::Available
        }
    }

    fn create(&mut self) -> u64 {
        let id = self.next_id;
        if self.groups.is_empty() {
            self.first = id;
        }
        self.groups.push_back(Some(Group {
            instructions: 1,
            ..Group::default()
        }));
        self.next_id += 1;
        id
    }

    fn get(&self, id: u64) -> Option<&Group> {
        let at = usize::try_from(id.checked_sub(self.first)?).ok()?;
        self.groups.get(at)?.as_ref()
    }

    fn get_mut(&mut self, id: u64) -> Option<&mut Group> {
        let at = usize::try_from(id.checked_sub(self.first)?).ok()?;
        self.groups.get_mut(at)?.as_mut()
    }

    /// Drops group `id` (all its instructions executed).
    fn remove(&mut self, id: u64) -> Option<Group> {
        let at = usize::try_from(id.checked_sub(self.first)?).ok()?;
        let g = self.groups.get_mut(at)?.take();
        while self.groups.front().is_some_and(Option::is_none) {
            self.groups.pop_front();
            self.first += 1;
        }
        g
    }

    /// `MemoryGroup::addSuccessor`.
    fn add_successor(&mut self, pred: u64, succ: u64, data: bool) {
        let Some(p) = self.get(pred) else {
            return;
        };
        let executing = p.is_executing();
        if !data && executing {
            return;
        }
        if let Some(s) = self.get_mut(succ) {
            s.preds += 1;
            if executing {
                s.executing_preds += 1;
            }
        }
        if let Some(p) = self.get_mut(pred) {
            if data {
                p.data_succ.push(succ);
            } else {
                p.order_succ.push(succ);
            }
        }
    }

    /// `dispatch`: the group of a memory operation entering the
    /// scheduler.
    pub fn dispatch(&mut self, m: MemOp) -> u64 {
        if m.load {
            self.lq_used += 1;
        }
        if m.store {
            self.sq_used += 1;
            return self.dispatch_store(m);
        }
        let dom = self.cur_load.max(self.cur_load_barrier);
        let new_group = m.load_barrier
            || dom == 0
            || self.cur_load_barrier == dom
            || dom <= self.cur_store
            || self.get(dom).is_some_and(Group::is_executing);
        if !new_group {
            if let Some(g) = self.get_mut(self.cur_load) {
                g.instructions += 1;
            }
            return self.cur_load;
        }
        let id = self.create();
        if !self.no_alias && self.cur_store != 0 {
            self.add_successor(self.cur_store, id, true);
        }
        if m.load_barrier {
            if dom != 0 {
                self.add_successor(dom, id, true);
            }
        } else if self.cur_load_barrier != 0 {
            self.add_successor(self.cur_load_barrier, id, true);
        }
        self.cur_load = id;
        if m.load_barrier {
            self.cur_load_barrier = id;
        }
        id
    }

    fn dispatch_store(&mut self, m: MemOp) -> u64 {
        let id = self.create();
        let dom = self.cur_load.max(self.cur_load_barrier);
        if dom != 0 {
            self.add_successor(dom, id, !self.no_alias);
        }
        if self.cur_store_barrier != 0 {
            self.add_successor(self.cur_store_barrier, id, true);
        }
        if self.cur_store != 0 && self.cur_store != self.cur_store_barrier {
            self.add_successor(self.cur_store, id, !self.no_alias);
        }
        self.cur_store = id;
        if m.store_barrier {
            self.cur_store_barrier = id;
        }
        if m.load {
            self.cur_load = id;
            if m.load_barrier {
                self.cur_load_barrier = id;
            }
        }
        id
    }

    fn group(&self, id: u64) -> Option<&Group> {
        self.get(id)
    }

    /// `isReady`.
    pub fn is_ready(&self, id: u64) -> bool {
        self.group(id).is_some_and(Group::is_ready)
    }

    /// `isPending`.
    pub fn is_pending(&self, id: u64) -> bool {
        self.group(id).is_some_and(Group::is_pending)
    }

    /// `isWaiting`.
    pub fn is_waiting(&self, id: u64) -> bool {
        self.group(id).is_some_and(Group::is_waiting)
    }

    /// `hasDependentUsers`.
    pub fn has_dependent_users(&self, id: u64) -> bool {
        self.group(id)
            .is_some_and(|g| !g.is_executed() && !g.order_succ.is_empty() | !g.data_succ.is_empty())
    }

    /// `onInstructionIssued`.
    pub fn on_issued(&mut self, id: u64) {
        let Some(g) = self.get_mut(id) else {
            return;
        };
        g.executing += 1;
        if !g.is_executing() {
            return;
        }
        let (order, data) = (g.order_succ.clone(), g.data_succ.clone());
        for s in order {
            if let Some(sg) = self.get_mut(s) {
                sg.executed_preds += 1;
            }
        }
        for s in data {
            if let Some(sg) = self.get_mut(s) {
                sg.executing_preds += 1;
            }
        }
    }

    /// `onInstructionExecuted`.
    pub fn on_executed(&mut self, id: u64) {
        let Some(g) = self.get_mut(id) else {
            return;
        };
        g.executing = g.executing.saturating_sub(1);
        g.executed += 1;
        if !g.is_executed() {
            return;
        }
        if let Some(g) = self.remove(id) {
            for s in g.data_succ {
                if let Some(sg) = self.get_mut(s) {
                    sg.executing_preds = sg.executing_preds.saturating_sub(1);
                    sg.executed_preds += 1;
                }
            }
        }
        for cur in [
            &mut self.cur_load,
            &mut self.cur_store,
            &mut self.cur_load_barrier,
            &mut self.cur_store_barrier,
        ] {
            if *cur == id {
                *cur = 0;
            }
        }
    }

    /// `onInstructionRetired`.
    pub fn on_retired(&mut self, m: MemOp) {
        if m.load {
            self.lq_used = self.lq_used.saturating_sub(1);
        }
        if m.store {
            self.sq_used = self.sq_used.saturating_sub(1);
        }
    }

    /// Group ids are relative to this one in [`Lsu::encode`].
    pub fn next_id(&self) -> u64 {
        self.next_id
    }

    /// Drops the groups no operation will touch again: not current, and
    /// none of whose operations is in flight (`in_flight`).
    pub fn forget(&mut self, in_flight: impl Fn(u64) -> bool) {
        let current = [
            self.cur_load,
            self.cur_load_barrier,
            self.cur_store,
            self.cur_store_barrier,
        ];
        for (id, g) in (self.first..).zip(self.groups.iter_mut()) {
            if g.is_some() && !current.contains(&id) && !in_flight(id) {
                *g = None;
            }
        }
        while self.groups.front().is_some_and(Option::is_none) {
            self.groups.pop_front();
            self.first += 1;
        }
    }

    /// Appends the state to `out` for the steady-state search, group ids
    /// relative to the next one to be created; `queues`: whether the
    /// queue occupancy matters.
    pub fn encode(&self, out: &mut Vec<u64>, queues: bool) {
        let rel = |id: u64| if id == 0 { 0 } else { self.next_id - id };
        let used = if queues {
            u64::from(self.lq_used) << 32 | u64::from(self.sq_used)
        } else {
            0
        };
        out.extend([
            used,
            rel(self.cur_load),
            rel(self.cur_load_barrier),
            rel(self.cur_store),
            rel(self.cur_store_barrier),
            self.groups.iter().flatten().count() as u64,
        ]);
        let ids = (self.first..).zip(&self.groups);
        for (id, g) in ids.filter_map(|(id, g)| Some((id, g.as_ref()?))) {
            out.extend([
                rel(id),
                u64::from(g.preds) << 32 | u64::from(g.executing_preds),
                // Loads may keep joining a group: only the instructions
                // not yet executed matter.
                u64::from(g.executed_preds) << 32 | u64::from(g.instructions - g.executed),
                u64::from(g.executing),
                (g.order_succ.len() as u64) << 32 | g.data_succ.len() as u64,
            ]);
            out.extend(g.order_succ.iter().chain(&g.data_succ).map(|&s| rel(s)));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const LOAD: MemOp = MemOp {
        load: true,
        store: false,
        load_barrier: false,
        store_barrier: false,
    };
    const STORE: MemOp = MemOp {
        load: false,
        store: true,
        load_barrier: false,
        store_barrier: false,
    };

    #[test]
    fn loads_share_a_group_until_a_store() {
        let mut lsu = Lsu::new(0, 0, true);
        let a = lsu.dispatch(LOAD);
        let b = lsu.dispatch(LOAD);
        assert_eq!(a, b);
        let s = lsu.dispatch(STORE);
        assert_ne!(s, a);
        let c = lsu.dispatch(LOAD);
        assert_ne!(c, s);
        // With -noalias the load after the store does not wait for it;
        // the store waits for the loads (order edge) until they issue.
        assert!(lsu.is_ready(c));
        assert!(lsu.is_waiting(s));
        lsu.on_issued(a);
        assert!(lsu.is_waiting(s));
        lsu.on_issued(a);
        assert!(lsu.is_ready(s));
    }

    #[test]
    fn without_noalias_a_load_waits_for_the_store_to_execute() {
        let mut lsu = Lsu::new(0, 0, false);
        let s = lsu.dispatch(STORE);
        let l = lsu.dispatch(LOAD);
        assert!(lsu.is_waiting(l));
        lsu.on_issued(s);
        assert!(lsu.is_pending(l));
        lsu.on_executed(s);
        assert!(lsu.is_ready(l));
    }

    #[test]
    fn queues_fill() {
        let mut lsu = Lsu::new(1, 0, true);
        lsu.dispatch(LOAD);
        assert_eq!(lsu.is_available(LOAD), QueueCheck::LoadFull);
        lsu.on_retired(LOAD);
        assert_eq!(lsu.is_available(LOAD), QueueCheck::Available);
    }
}
