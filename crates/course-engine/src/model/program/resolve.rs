//! Which operation defines a name: the [`Defs`] index of every register's
//! first definition, built by the parser's first pass, and the [`Resolver`]
//! that answers through a small table of recent answers in front of it.
//! The parser's second pass asks it whether a name in an address is a
//! register, and the dependences of Lesson 23.2 ask it for the producer of
//! each read, so it stands below both.

use crate::util::name::{NameIndex, hash_name};

/// Answers "which operation defines this name?" through a small table of
/// recent answers in front of the [`Defs`] index: reads mostly name a
/// register defined a few lines before, and addresses reuse a few symbols.
pub(super) struct Resolver<'d, 't> {
    defs: &'d Defs<'t>,
    recent: Vec<(&'t str, Option<u32>)>,
}

/// Entries of a [`Resolver`]'s table of recent answers.
const RECENT: usize = 1024;

impl<'d, 't> Resolver<'d, 't> {
    pub(super) fn new(defs: &'d Defs<'t>) -> Resolver<'d, 't> {
        Resolver {
            defs,
            // A key that no name of the input equals: names are never empty.
            recent: vec![("", None); RECENT],
        }
    }

    fn slot(name: &str) -> usize {
        (hash_name(name) % RECENT as u64) as usize
    }

    /// Remembers that operation `op` defines `name` (it must).
    pub(super) fn defined(&mut self, name: &'t str, op: u32) {
        self.recent[Self::slot(name)] = (name, Some(op));
    }

    /// The operation defining `name`, if any.
    pub(super) fn get(&mut self, name: &'t str) -> Option<u32> {
        let slot = Self::slot(name);
        let (key, op) = self.recent[slot];
        if key == name {
            return op;
        }
        let op = self.defs.get(name).map(|d| d.op);
        self.recent[slot] = (name, op);
        op
    }
}

/// Where a register is defined: the operation's index and line.
#[derive(Clone, Copy, Debug)]
pub(super) struct Def {
    pub(super) op: u32,
    pub(super) line: u32,
}

/// Every register of an input with its (first) definition.
pub(super) type Defs<'t> = NameIndex<'t, Def>;
