//! Forbidden latencies, collision vectors and hazard recognizers
//! (Definition 23.1.5, Lemma 23.1.6, Algorithm 23.1.7), and the pipeline automaton built
//! by enumerating a recognizer's reachable states.
//!
//! For one resource `r`, `K_r(o)` is the set of offsets at which class `o`
//! uses `r`. The forbidden latencies from `o` to `o'` are the issue distances
//! `d ≥ 0` at which the two would meet on `r`: `F(o, o') = { k − k' | k ∈
//! K_r(o), k' ∈ K_r(o'), k ≥ k' }`.
//!
//! A collision vector is something else: the *state* of a capacity-1
//! resource, the set of future offsets `k ≥ 0` at which it is already
//! reserved, written as bits with offset 0 first. Right after a class issues
//! on a free resource that state is `K_r(o)` itself. For the toy divider
//! (`K = {0,1,2,3}`) the state and `F(div, div)` happen to have the same
//! bits, `1111`; for `K = {3, 5}` the state is `000101` while `F(o, o) =
//! {0, 2}`.
//!
//! ```
//! use course_engine::{engine::hazard, model::machine::Machine};
//! let m = Machine::toy();
//! let mul = m.resource_by_name("mul").unwrap();
//! let (div, mulc) = (m.class_by_opcode("div").unwrap(), m.class_by_opcode("mul").unwrap());
//! assert_eq!(hazard::forbidden_latencies(&m, mul, div, mulc), vec![0, 1, 2, 3]);
//! assert_eq!(hazard::forbidden_latencies(&m, mul, mulc, div), vec![0]);
//! assert_eq!(hazard::collision_vector(&m, mul, div), "1111");
//! assert_eq!(hazard::bits(&[3, 5]), "000101");
//! assert_eq!(hazard::bit_order(6), "offsets 0..5, offset 0 first");
//! let a = hazard::Automaton::build(&m, &[mul]).unwrap();
//! assert_eq!(a.len(), 5);
//! ```

use std::collections::{HashMap, VecDeque};
use std::fmt;

use crate::model::ids::{ClassId, ResourceId};
use crate::model::machine::{Class, ClassFile, Machine, MachineFile, ResourceFile};

/// `F(o, o')` on resource `r` (Definition 23.1.5), sorted.
pub fn forbidden_latencies(m: &Machine, r: ResourceId, o: ClassId, o2: ClassId) -> Vec<u32> {
    let k1: Vec<u32> = m.class(o).offsets(r).collect();
    let k2: Vec<u32> = m.class(o2).offsets(r).collect();
    forbidden_between(&k1, &k2)
}

/// `F` from the offsets themselves: `{ k − k' | k ∈ k1, k' ∈ k2, k ≥ k' }`,
/// sorted (Definition 23.1.5).
///
/// `k1` is kept as a bit set and shifted down by each offset of `k2`, so a
/// pair costs `O(|k2| · D / 64)` word operations rather than one set
/// insertion per pair of offsets.
pub fn forbidden_between(k1: &[u32], k2: &[u32]) -> Vec<u32> {
    let mut bits: Vec<u64> = Vec::new();
    for &k in k1 {
        let (w, b) = (k as usize / 64, k % 64);
        if bits.len() <= w {
            bits.resize(w + 1, 0);
        }
        bits[w] |= 1 << b;
    }
    let mut k2 = k2.to_vec();
    k2.sort_unstable();
    k2.dedup();
    // f |= bits >> k' for every k' in k2.
    let mut f = vec![0u64; bits.len()];
    for &k in &k2 {
        let (words, shift) = (k as usize / 64, k % 64);
        for i in 0..bits.len().saturating_sub(words) {
            let lo = bits[i + words] >> shift;
            let hi = match bits.get(i + words + 1) {
                Some(&next) if shift > 0 => next << (64 - shift),
                _ => 0,
            };
            f[i] |= lo | hi;
        }
    }
    let mut out = Vec::new();
    for (i, &w) in f.iter().enumerate() {
        let mut w = w;
        while w != 0 {
            out.push(i as u32 * 64 + w.trailing_zeros());
            w &= w - 1;
        }
    }
    out
}

/// For every resource, the classes that use it with their offsets
/// `K_r(o)` (repeats kept), in class order: one pass over all the tables.
pub fn users(m: &Machine) -> Vec<Vec<(ClassId, Vec<u32>)>> {
    let mut out: Vec<Vec<(ClassId, Vec<u32>)>> = vec![Vec::new(); m.resources().len()];
    for o in m.class_ids() {
        for &(r, k) in &m.class(o).reservation {
            let list = &mut out[r.index()];
            match list.last_mut() {
                Some((last, ks)) if *last == o => ks.push(k),
                _ => list.push((o, vec![k])),
            }
        }
    }
    out
}

/// The forbidden-latency matrix of `r` over the classes that use it.
pub fn forbidden_matrix(m: &Machine, r: ResourceId) -> Vec<(ClassId, ClassId, Vec<u32>)> {
    let users: Vec<ClassId> = m.class_ids().filter(|&c| m.class(c).usage(r) > 0).collect();
    let mut out = Vec::new();
    for &a in &users {
        for &b in &users {
            out.push((a, b, forbidden_latencies(m, r, a, b)));
        }
    }
    out
}

/// A state of a capacity-1 resource (the set of reserved offsets) as a
/// bit vector, offset 0 first: bit `k` is `1` when the resource is
/// reserved `k` cycles from now. The empty state is the empty string.
pub fn bits(state: &[u32]) -> String {
    let len = state.iter().max().map_or(0, |&k| k as usize + 1);
    let mut v = vec!['0'; len];
    for &k in state {
        v[k as usize] = '1';
    }
    v.into_iter().collect()
}

/// The bit order of a vector of `len` bits, printed with it: `offsets
/// 0..5, offset 0 first`.
pub fn bit_order(len: usize) -> String {
    match len {
        0 | 1 => "offset 0".to_string(),
        n => format!("offsets 0..{}, offset 0 first", n - 1),
    }
}

/// Davidson's collision vector of `r` right after class `o` issues on it
/// while it is free (Definition 23.1.5): the state `K_r(o)` as [`bits`],
/// offset 0 first. `1111` for the toy div, `000101` for `K = {3, 5}`; it is
/// not `F(o, o)` written as bits.
pub fn collision_vector(m: &Machine, r: ResourceId, o: ClassId) -> String {
    bits(&m.class(o).offsets(r).collect::<Vec<_>>())
}

/// The state of one resource relative to the current cycle: `counts[k]` is
/// how many units are reserved in cycle `now + k`. For capacity 1 this is
/// the set `s[r]` of Algorithm 23.1.7.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ResourceState {
    /// The resource `r` this state belongs to.
    pub resource: ResourceId,
    /// `counts[k]`: units of `r` reserved in cycle `now + k` (index 0 is the current cycle).
    pub counts: Vec<u32>,
}

impl ResourceState {
    /// The reserved offsets (each listed once).
    pub fn offsets(&self) -> Vec<u32> {
        (0..self.counts.len() as u32)
            .filter(|&k| self.counts[k as usize] > 0)
            .collect()
    }
}

/// Formats a set of offsets as `∅` or `{0,1,2}`.
pub fn set_string(s: &[u32]) -> String {
    if s.is_empty() {
        "∅".to_string()
    } else {
        let v: Vec<String> = s.iter().map(u32::to_string).collect();
        format!("{{{}}}", v.join(","))
    }
}

/// The hazard recognizer of Algorithm 23.1.7 over chosen resources, in its
/// capacity-m form (a count per future cycle instead of a bit).
#[derive(Clone, Debug)]
pub struct Recognizer<'m> {
    machine: &'m Machine,
    states: Vec<ResourceState>,
}

impl<'m> Recognizer<'m> {
    /// A recognizer watching `resources`, all free.
    pub fn new(machine: &'m Machine, resources: &[ResourceId]) -> Recognizer<'m> {
        let states = resources
            .iter()
            .map(|&r| ResourceState {
                resource: r,
                counts: vec![0; window(machine, r)],
            })
            .collect();
        Recognizer { machine, states }
    }

    /// The state of every tracked resource, in the order given to [`Recognizer::new`].
    pub fn states(&self) -> &[ResourceState] {
        &self.states
    }

    /// `Issue(o)`: accept and reserve, or reject and change nothing.
    pub fn issue(&mut self, o: ClassId) -> bool {
        let class = self.machine.class(o);
        for s in &self.states {
            let cap = self.machine.resource(s.resource).capacity;
            for &(r, k, n) in &class.folded {
                if r == s.resource && s.counts[k as usize] + n > cap {
                    return false;
                }
            }
        }
        for s in &mut self.states {
            for &(r, k, n) in &class.folded {
                if r == s.resource {
                    s.counts[k as usize] += n;
                }
            }
        }
        true
    }

    /// `Advance`: shift every state one cycle.
    pub fn advance(&mut self) {
        for s in &mut self.states {
            if !s.counts.is_empty() {
                s.counts.remove(0);
                s.counts.push(0);
            }
        }
    }
}

/// Offsets `0..D_r` that a state of `r` must remember.
fn window(m: &Machine, r: ResourceId) -> usize {
    m.classes()
        .iter()
        .filter_map(|c| folded_on(c, r).last().map(|&(_, k, _)| k))
        .max()
        .map_or(0, |k| k as usize + 1)
}

/// The entries of a class's folded table on `r` (it is sorted by resource,
/// then offset), found by binary search rather than a scan.
fn folded_on(c: &Class, r: ResourceId) -> &[(ResourceId, u32, u32)] {
    let start = c.folded.partition_point(|f| f.0 < r);
    let len = c.folded[start..].partition_point(|f| f.0 == r);
    &c.folded[start..start + len]
}

/// One row of a recognizer trace.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TraceRow {
    /// The cycle the event happens in.
    pub cycle: i64,
    /// `Issue(class)` or `Advance`.
    pub event: String,
    /// The state counts before the event, offsets concatenated resource by resource.
    pub before: Vec<u32>,
    /// `Some(accept)` for an `Issue`, `None` for an `Advance`.
    pub accepted: Option<bool>,
    /// The state counts after the event.
    pub after: Vec<u32>,
    /// The class an `Issue` tries, `None` for an `Advance`.
    pub class: Option<ClassId>,
}

/// An event for [`trace`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    /// `Issue(o)`: try to issue an operation of class `o` in the current cycle.
    Issue(ClassId),
    /// `Advance`: move to the next cycle, shifting every offset down by one.
    Advance,
}

/// Runs `events` through a recognizer of the single resource `r`, starting
/// at `start_cycle`, and records the state of `r` around each event (the
/// event table of Lesson 23.1 §3).
pub fn trace(m: &Machine, r: ResourceId, start_cycle: i64, events: &[Event]) -> Vec<TraceRow> {
    let mut rec = Recognizer::new(m, &[r]);
    let mut cycle = start_cycle;
    let mut rows = Vec::new();
    for &e in events {
        let before = rec.states()[0].offsets();
        let (event, accepted) = match e {
            Event::Issue(o) => (format!("Issue({})", m.class(o).name), Some(rec.issue(o))),
            Event::Advance => {
                rec.advance();
                cycle += 1;
                ("Advance".to_string(), None)
            }
        };
        rows.push(TraceRow {
            cycle: if accepted.is_some() { cycle } else { cycle - 1 },
            event,
            before,
            accepted,
            after: rec.states()[0].offsets(),
            class: match e {
                Event::Issue(o) => Some(o),
                Event::Advance => None,
            },
        });
    }
    rows
}

/// Why an automaton could not be built.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum AutomatonError {
    /// The packed state of the resources would not fit in 128 bits.
    #[error(
        "the state of these resources needs {bits} bits, more than the 128 an automaton state may use"
    )]
    TooWide {
        /// The bits the state would need.
        bits: u32,
    },
    /// The enumeration reached its state limit (the pathological family of
    /// Lesson 23.1 §5 grows as `2^D`).
    #[error("the automaton would have more than {limit} states")]
    TooManyStates {
        /// The limit that was passed.
        limit: usize,
    },
}

/// The pipeline automaton: the recognizer's reachable states, numbered in
/// breadth-first order from the empty state, with `Issue(o)` and `Advance`
/// stored as arrays so that a hazard query is one lookup.
#[derive(Clone, Debug)]
pub struct Automaton {
    resources: Vec<ResourceId>,
    layout: Vec<Field>,
    states: Vec<u128>,
    /// `next[s * (classes + 1) + o]` for `Issue(o)`; the last column is
    /// `Advance`. `REJECT` where the issue is refused.
    next: Vec<u32>,
    classes: usize,
    class_names: Vec<String>,
    resource_names: Vec<String>,
}

/// Marks a refused `Issue` in the transition table.
pub const REJECT: u32 = u32::MAX;

#[derive(Clone, Debug)]
struct Field {
    shift: u32,
    bits: u32,
    len: usize,
    cap: u32,
}

impl Field {
    /// The count this field holds at offset `k` in the packed state `s`.
    #[inline]
    fn get(&self, s: u128, k: usize) -> u32 {
        ((s >> (self.shift + self.bits * k as u32)) & ((1u128 << self.bits) - 1)) as u32
    }
}

/// One field per resource, wide enough for its capacity at each offset of
/// its window, packed into one `u128`; [`AutomatonError::TooWide`] beyond.
fn packed_layout(m: &Machine, resources: &[ResourceId]) -> Result<Vec<Field>, AutomatonError> {
    let mut layout = Vec::new();
    let mut shift = 0u32;
    for &r in resources {
        let cap = m.resource(r).capacity;
        let bits = 32 - cap.leading_zeros();
        let len = window(m, r);
        layout.push(Field {
            shift,
            bits,
            len,
            cap,
        });
        shift += bits * len as u32;
    }
    if shift > 128 {
        return Err(AutomatonError::TooWide { bits: shift });
    }
    Ok(layout)
}

/// Per class: the units it needs of each field at each offset, `(field,
/// offset, units)`, for a fast accept test (Algorithm 23.1.7's `Issue`).
fn class_needs(m: &Machine, resources: &[ResourceId]) -> Vec<Vec<(usize, usize, u32)>> {
    let mut needs: Vec<Vec<(usize, usize, u32)>> = vec![Vec::new(); m.classes().len()];
    for (ci, c) in m.classes().iter().enumerate() {
        for (fi, &r) in resources.iter().enumerate() {
            for &(_, k, n) in folded_on(c, r) {
                needs[ci].push((fi, k as usize, n));
            }
        }
    }
    needs
}

/// The packed state one cycle later (Algorithm 23.1.7's `Advance`): every
/// field shifted down by one offset.
#[inline]
fn advanced(layout: &[Field], s: u128) -> u128 {
    let mut t = 0u128;
    for f in layout {
        if f.len == 0 {
            continue;
        }
        let width = f.bits * f.len as u32;
        let mask = if width == 128 {
            u128::MAX
        } else {
            (1u128 << width) - 1
        };
        let field = (s >> f.shift) & mask;
        t |= (field >> f.bits) << f.shift;
    }
    t
}

/// The most transition-table entries an automaton may have (256 MiB).
pub const MAX_TRANSITIONS: usize = 1 << 26;

/// The default bound on states built before giving up.
pub const MAX_STATES: usize = 1 << 24;

impl Automaton {
    /// Enumerates the automaton over `resources`.
    pub fn build(m: &Machine, resources: &[ResourceId]) -> Result<Automaton, AutomatonError> {
        Automaton::build_limited(m, resources, MAX_STATES)
    }

    /// Like [`Automaton::build`], giving up once more than `limit` states are reached.
    pub fn build_limited(
        m: &Machine,
        resources: &[ResourceId],
        limit: usize,
    ) -> Result<Automaton, AutomatonError> {
        let layout = packed_layout(m, resources)?;
        let nclass = m.classes().len();
        let needs = class_needs(m, resources);
        let issue = |s: u128, ci: usize| -> Option<u128> {
            let mut t = s;
            for &(fi, k, n) in &needs[ci] {
                let f = &layout[fi];
                if f.get(s, k) + n > f.cap {
                    return None;
                }
                t += (n as u128) << (f.shift + f.bits * k as u32);
            }
            Some(t)
        };
        let mut index: HashMap<u128, u32> = HashMap::new();
        let mut states = vec![0u128];
        index.insert(0, 0);
        let mut next: Vec<u32> = Vec::new();
        let mut queue = VecDeque::from([0u32]);
        while let Some(si) = queue.pop_front() {
            let s = states[si as usize];
            let mut row = Vec::with_capacity(nclass + 1);
            for ci in 0..=nclass {
                let t = if ci < nclass {
                    issue(s, ci)
                } else {
                    Some(advanced(&layout, s))
                };
                row.push(match t {
                    None => REJECT,
                    Some(t) => match index.get(&t) {
                        Some(&id) => id,
                        None => {
                            if states.len() >= limit
                                || (states.len() + 1).saturating_mul(nclass + 1) > MAX_TRANSITIONS
                            {
                                return Err(AutomatonError::TooManyStates { limit });
                            }
                            let id = states.len() as u32;
                            states.push(t);
                            index.insert(t, id);
                            queue.push_back(id);
                            id
                        }
                    },
                });
            }
            debug_assert_eq!(next.len(), si as usize * (nclass + 1));
            next.extend(row);
        }
        Ok(Automaton {
            resources: resources.to_vec(),
            layout,
            states,
            next,
            classes: nclass,
            class_names: m.classes().iter().map(|c| c.name.clone()).collect(),
            resource_names: resources
                .iter()
                .map(|&r| m.resource(r).name.clone())
                .collect(),
        })
    }

    /// Number of reachable states.
    pub fn len(&self) -> usize {
        self.states.len()
    }

    /// Whether the automaton has no states.
    pub fn is_empty(&self) -> bool {
        self.states.is_empty()
    }

    /// The start state (nothing reserved).
    pub fn start(&self) -> u32 {
        0
    }

    /// `Issue(o)` from state `s`: the next state, or `None` on a hazard. O(1).
    #[inline]
    pub fn issue(&self, s: u32, o: ClassId) -> Option<u32> {
        let t = self.next[s as usize * (self.classes + 1) + o.index()];
        (t != REJECT).then_some(t)
    }

    /// `Advance` from state `s`. O(1).
    #[inline]
    pub fn advance(&self, s: u32) -> u32 {
        self.next[s as usize * (self.classes + 1) + self.classes]
    }

    /// The state as per-resource counts by offset.
    pub fn state(&self, s: u32) -> Vec<ResourceState> {
        let packed = self.states[s as usize];
        self.layout
            .iter()
            .zip(&self.resources)
            .map(|(f, &r)| ResourceState {
                resource: r,
                counts: (0..f.len)
                    .map(|k| {
                        ((packed >> (f.shift + f.bits * k as u32)) & ((1u128 << f.bits) - 1)) as u32
                    })
                    .collect(),
            })
            .collect()
    }

    /// A readable name for state `s`: `{0,1}` for one capacity-1 resource,
    /// `mem{0} mul{0,1}` for several, counts as `2×0` where above one.
    pub fn state_name(&self, s: u32) -> String {
        let parts: Vec<String> = self
            .state(s)
            .iter()
            .zip(&self.resource_names)
            .map(|(st, name)| {
                let items: Vec<String> = st
                    .counts
                    .iter()
                    .enumerate()
                    .filter(|&(_, &n)| n > 0)
                    .map(|(k, &n)| {
                        if n == 1 {
                            k.to_string()
                        } else {
                            format!("{n}×{k}")
                        }
                    })
                    .collect();
                let set = if items.is_empty() {
                    "∅".to_string()
                } else {
                    format!("{{{}}}", items.join(","))
                };
                if self.resources.len() == 1 {
                    set
                } else {
                    format!("{name}{set}")
                }
            })
            .collect();
        parts.join(" ")
    }
}

impl fmt::Display for Automaton {
    /// The transition table: one row per state, one column per event.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "automaton over {}: {} states",
            self.resource_names.join(", "),
            self.len()
        )?;
        let mut header = vec!["state".to_string(), "name".to_string()];
        header.extend(self.class_names.iter().map(|c| format!("Issue({c})")));
        header.push("Advance".into());
        let mut rows = vec![header];
        for s in 0..self.len() as u32 {
            let mut row = vec![format!("q{s}"), self.state_name(s)];
            for ci in 0..self.classes {
                row.push(match self.issue(s, ClassId::from_index(ci)) {
                    Some(t) => format!("q{t}"),
                    None => "-".into(),
                });
            }
            row.push(format!("q{}", self.advance(s)));
            rows.push(row);
        }
        f.write_str(&crate::util::text::columns(&rows))
    }
}

/// The pathological family of Lesson 23.1 §5: one resource `r` of capacity 1
/// and `D` classes `o_j` with `K_r(o_j) = {j}`, issue width `D`. Its
/// automaton over `r` has exactly `2^D` states.
pub fn pathological_machine(d: u32) -> Machine {
    let d = d.clamp(1, 64);
    let file = MachineFile {
        name: Some(format!("pathological-{d}")),
        issue_width: i64::from(d),
        resources: vec![ResourceFile {
            name: "r".into(),
            capacity: Some(1),
            ..Default::default()
        }],
        classes: (0..d)
            .map(|j| ClassFile {
                name: format!("o{j}"),
                latency: i64::from(j + 1),
                opcodes: vec![format!("op{j}")],
                reservation: Some(vec![("r".into(), i64::from(j))]),
                ..Default::default()
            })
            .collect(),
        ..Default::default()
    };
    Machine::from_file(&file, "pathological").expect("the pathological family is valid")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn toy_forbidden_latencies_and_vectors() {
        let m = Machine::toy();
        let mul = m.resource_by_name("mul").unwrap();
        let div = m.class_by_opcode("div").unwrap();
        let mulc = m.class_by_opcode("mul").unwrap();
        assert_eq!(forbidden_latencies(&m, mul, div, mulc), vec![0, 1, 2, 3]);
        assert_eq!(forbidden_latencies(&m, mul, mulc, div), vec![0]);
        assert_eq!(forbidden_latencies(&m, mul, mulc, mulc), vec![0]);
        assert_eq!(forbidden_latencies(&m, mul, div, div), vec![0, 1, 2, 3]);
        assert_eq!(collision_vector(&m, mul, div), "1111");
        assert_eq!(collision_vector(&m, mul, mulc), "1");
    }

    #[test]
    fn a_collision_vector_is_the_state_not_f_o_o() {
        // K = {3, 5}: the state marks offsets 3 and 5; F(o, o) is {0, 2}.
        let file = MachineFile {
            name: Some("gappy".into()),
            issue_width: 1,
            resources: vec![ResourceFile {
                name: "r".into(),
                capacity: Some(1),
                ..Default::default()
            }],
            classes: vec![ClassFile {
                name: "g".into(),
                latency: 6,
                opcodes: vec!["g".into()],
                reservation: Some(vec![("r".into(), 3), ("r".into(), 5)]),
                ..Default::default()
            }],
            ..Default::default()
        };
        let m = Machine::from_file(&file, "gappy").unwrap();
        let (r, g) = (m.resource_by_name("r").unwrap(), ClassId::from_index(0));
        assert_eq!(forbidden_latencies(&m, r, g, g), vec![0, 2]);
        assert_eq!(collision_vector(&m, r, g), "000101");
        // It is the recognizer's state after Issue(g) on a free resource.
        let mut rec = Recognizer::new(&m, &[r]);
        assert!(rec.issue(g));
        assert_eq!(bits(&rec.states()[0].offsets()), "000101");
        assert_eq!(bits(&[]), "");
        assert_eq!(bit_order(1), "offset 0");
    }

    #[test]
    fn forbidden_latencies_agree_with_the_definition() {
        let mut rng = crate::util::rng::Rng::new(11);
        for _ in 0..300 {
            let mut table = || -> Vec<(String, i64)> {
                let span = rng.range(1, 200) as i64;
                (0..span)
                    .filter(|_| rng.percent(20))
                    .map(|k| ("r".to_string(), k))
                    .collect()
            };
            let (a, b) = (table(), table());
            let class = |name: &str, res: Vec<(String, i64)>| ClassFile {
                name: name.into(),
                latency: 200,
                opcodes: vec![name.into()],
                reservation: Some(res),
                ..Default::default()
            };
            let file = MachineFile {
                name: None,
                issue_width: 2,
                resources: vec![ResourceFile {
                    name: "r".into(),
                    capacity: Some(1),
                    ..Default::default()
                }],
                classes: vec![class("a", a.clone()), class("b", b.clone())],
                ..Default::default()
            };
            let m = Machine::from_file(&file, "t").unwrap();
            let r = m.resource_by_name("r").unwrap();
            let mut want: Vec<u32> = a
                .iter()
                .flat_map(|(_, k)| {
                    b.iter()
                        .filter(move |(_, k2)| k >= k2)
                        .map(move |(_, k2)| (k - k2) as u32)
                })
                .collect();
            want.sort_unstable();
            want.dedup();
            let (x, y) = (ClassId::from_index(0), ClassId::from_index(1));
            assert_eq!(forbidden_latencies(&m, r, x, y), want, "{a:?} {b:?}");
        }
    }

    #[test]
    fn multiplier_automaton_has_five_states() {
        let m = Machine::toy();
        let mul = m.resource_by_name("mul").unwrap();
        let a = Automaton::build(&m, &[mul]).unwrap();
        let mut names: Vec<String> = (0..a.len() as u32).map(|s| a.state_name(s)).collect();
        names.sort();
        assert_eq!(names, vec!["{0,1,2,3}", "{0,1,2}", "{0,1}", "{0}", "∅"]);
    }

    #[test]
    fn pathological_family_has_2_pow_d_states() {
        for d in [1, 4, 10] {
            let m = pathological_machine(d);
            let r = m.resource_by_name("r").unwrap();
            assert_eq!(Automaton::build(&m, &[r]).unwrap().len(), 1 << d);
        }
    }

    #[test]
    fn automaton_agrees_with_recognizer() {
        let m = Machine::toy();
        let all: Vec<ResourceId> = m.resource_ids().collect();
        let a = Automaton::build(&m, &all).unwrap();
        let mut rec = Recognizer::new(&m, &all);
        let mut s = a.start();
        let mut rng = crate::util::rng::Rng::new(3);
        for _ in 0..2000 {
            if rng.percent(30) {
                rec.advance();
                s = a.advance(s);
            } else {
                let o = ClassId::from_index(rng.below(m.classes().len() as u64) as usize);
                let ok = rec.issue(o);
                assert_eq!(ok, a.issue(s, o).is_some());
                if let Some(t) = a.issue(s, o) {
                    s = t;
                }
            }
            assert_eq!(a.state(s), rec.states());
        }
    }
}
