//! [`Name`]: an immutable string that keeps short text inline. Labels,
//! registers, symbols and opcodes of a lab input are a few characters each;
//! as `Name`s a million-operation program holds them without a heap
//! allocation apiece. A `Name` reads as a `&str` (it dereferences to one).
//!
//! ```
//! use course_engine::util::name::Name;
//! let a = Name::from("r1");
//! assert_eq!(a, "r1");
//! assert_eq!(a.len(), 2);
//! assert_eq!(format!("{a}:"), "r1:");
//! let long = Name::from("a_register_name_longer_than_the_inline_room");
//! assert_eq!(long.as_str(), "a_register_name_longer_than_the_inline_room");
//! ```

use std::borrow::Borrow;
use std::cmp::Ordering;
use std::fmt;
use std::hash::{BuildHasher, Hash, Hasher};
use std::ops::Deref;

/// Bytes kept inline; longer text goes to the heap.
const INLINE: usize = 22;

/// An immutable string, inline up to 22 bytes (the size of a `String`).
#[derive(Clone)]
pub struct Name(Repr);

#[derive(Clone)]
enum Repr {
    Inline(u8, [u8; INLINE]),
    Heap(Box<str>),
}

impl Name {
    /// The text.
    pub fn as_str(&self) -> &str {
        match &self.0 {
            // SAFETY: `buf[..len]` is a copy of a whole `&str` (`From<&str>`
            // is the only constructor of `Inline`), so it is valid UTF-8.
            Repr::Inline(len, buf) => unsafe {
                std::str::from_utf8_unchecked(&buf[..*len as usize])
            },
            Repr::Heap(s) => s,
        }
    }
}

impl From<&str> for Name {
    fn from(s: &str) -> Name {
        if s.len() <= INLINE {
            let mut buf = [0u8; INLINE];
            buf[..s.len()].copy_from_slice(s.as_bytes());
            Name(Repr::Inline(s.len() as u8, buf))
        } else {
            Name(Repr::Heap(s.into()))
        }
    }
}

impl From<String> for Name {
    fn from(s: String) -> Name {
        if s.len() <= INLINE {
            Name::from(s.as_str())
        } else {
            Name(Repr::Heap(s.into_boxed_str()))
        }
    }
}

impl Default for Name {
    fn default() -> Name {
        Name::from("")
    }
}

impl Deref for Name {
    type Target = str;

    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl AsRef<str> for Name {
    fn as_ref(&self) -> &str {
        self.as_str()
    }
}

impl Borrow<str> for Name {
    fn borrow(&self) -> &str {
        self.as_str()
    }
}

impl PartialEq for Name {
    fn eq(&self, other: &Name) -> bool {
        self.as_str() == other.as_str()
    }
}

impl Eq for Name {}

impl PartialEq<str> for Name {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for Name {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl PartialEq<String> for Name {
    fn eq(&self, other: &String) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<Name> for &str {
    fn eq(&self, other: &Name) -> bool {
        *self == other.as_str()
    }
}

impl PartialOrd for Name {
    fn partial_cmp(&self, other: &Name) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Name {
    fn cmp(&self, other: &Name) -> Ordering {
        self.as_str().cmp(other.as_str())
    }
}

impl Hash for Name {
    fn hash<H: Hasher>(&self, h: &mut H) {
        self.as_str().hash(h);
    }
}

impl fmt::Debug for Name {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl fmt::Display for Name {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for Name {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

/// A fast hasher for short keys such as names: rustc's FxHash. It is not
/// randomised: meant for maps the program builds from its own input, where
/// speed matters more than resistance to chosen collisions. No output
/// depends on its values: maps keyed with it are never iterated, and what
/// is sorted by hash is put back in source order.
pub type NameHasher = rustc_hash::FxHasher;

/// A hash map keyed by names with [`NameHasher`].
pub type NameMap<K, V> = rustc_hash::FxHashMap<K, V>;

/// `hash` of a name with [`NameHasher`].
#[inline]
pub fn hash_name(name: &str) -> u64 {
    rustc_hash::FxBuildHasher.hash_one(name)
}

/// A repeated name in a list: `at` repeats the name first seen at `first`,
/// last seen before at `previous` (positions in the list).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Repeat {
    /// The position of the repetition.
    pub at: usize,
    /// The first position of the name.
    pub first: usize,
    /// The position of the name just before `at`.
    pub previous: usize,
}

/// The names of `names` sorted by hash, with their positions: equal names
/// end up next to each other without a map of every name.
fn by_hash<T>(names: &[T], name: impl Fn(&T) -> &str) -> Vec<(u64, u32)> {
    let keys: Vec<(u64, u32)> = names
        .iter()
        .enumerate()
        .map(|(i, x)| (hash_name(name(x)), i as u32))
        .collect();
    sort_hashed(keys)
}

/// Sorts `(hash, position)` pairs. Hashes are spread evenly, so a counting
/// pass on their top bits puts each pair into a bucket of about one, and
/// each (tiny) bucket is then sorted on its own: linear time, where a comparison
/// sort of a million pairs took most of the time spent on names.
fn sort_hashed(keys: Vec<(u64, u32)>) -> Vec<(u64, u32)> {
    let n = keys.len();
    if n < 64 {
        let mut keys = keys;
        keys.sort_unstable();
        return keys;
    }
    let bits = (usize::BITS - n.leading_zeros()).min(24);
    let bucket = |h: u64| (h >> (64 - bits)) as usize;
    // end[b] counts, then places, the pairs of buckets up to b.
    let mut end = vec![0u32; 1 << bits];
    for &(h, _) in &keys {
        end[bucket(h)] += 1;
    }
    let mut total = 0;
    for e in end.iter_mut() {
        total += *e;
        *e = total - *e;
    }
    let mut out = vec![(0u64, 0u32); n];
    for &k in &keys {
        let at = &mut end[bucket(k.0)];
        out[*at as usize] = k;
        *at += 1;
    }
    drop(keys);
    let mut from = 0;
    for &to in &end {
        let run = &mut out[from..to as usize];
        if run.len() > 1 {
            run.sort_unstable();
        }
        from = to as usize;
    }
    out
}

/// Every repetition in `names`, in the order of `at`. The names are sorted
/// by hash, one sequential pass: far faster on a million names than a map
/// probed once per name.
pub fn repeats<T>(names: &[T], name: impl Fn(&T) -> &str) -> Vec<Repeat> {
    repeats_in(names, &name, &by_hash(names, &name))
}

/// [`repeats`] given the names sorted by hash.
fn repeats_in<T>(names: &[T], name: impl Fn(&T) -> &str, keys: &[(u64, u32)]) -> Vec<Repeat> {
    let mut out = Vec::new();
    let mut run = 0;
    while run < keys.len() {
        let end = run + keys[run..].partition_point(|k| k.0 == keys[run].0);
        if end - run == 1 {
            // A hash of its own: a name seen once (the usual case).
            run = end;
            continue;
        }
        // Equal hashes, by position; the distinct names among them (almost
        // always one) with where each was first and last seen.
        let mut seen: Vec<(&str, usize, usize)> = Vec::new();
        for &(_, i) in &keys[run..end] {
            let (i, me) = (i as usize, name(&names[i as usize]));
            match seen.iter_mut().find(|e| e.0 == me) {
                Some(e) => {
                    out.push(Repeat {
                        at: i,
                        first: e.1,
                        previous: e.2,
                    });
                    e.2 = i;
                }
                None => seen.push((me, i, i)),
            }
        }
        run = end;
    }
    out.sort_unstable_by_key(|r| r.at);
    out
}

/// A map from names to values, built once from a list and read only after:
/// entries sit in one array in hash order (ordered linear probing), so the
/// build is a sort and a sequential fill, and a lookup reads one or two
/// neighbouring entries. The first occurrence of a name wins.
#[derive(Clone, Debug)]
pub struct NameIndex<'t, V> {
    slots: Vec<Option<(u64, &'t str, V)>>,
    /// The home slot of a hash is `hash · buckets / 2⁶⁴`.
    buckets: u64,
}

impl<'t, V: Copy> NameIndex<'t, V> {
    /// The index of `entries` (first occurrences), and every repetition.
    pub fn build(entries: &[(&'t str, V)]) -> (NameIndex<'t, V>, Vec<Repeat>) {
        let keys = by_hash(entries, |e| e.0);
        let repeated = repeats_in(entries, |e| e.0, &keys);
        let buckets = (entries.len() as u64 + entries.len() as u64 / 4).max(1);
        let mut slots: Vec<Option<(u64, &'t str, V)>> = Vec::with_capacity(entries.len() + 16);
        let mut next = 0u64;
        let mut r = repeated.iter().map(|r| r.at).collect::<Vec<usize>>();
        r.sort_unstable();
        for &(h, i) in &keys {
            if r.binary_search(&(i as usize)).is_ok() {
                continue;
            }
            let home = Self::home(h, buckets);
            let at = home.max(next);
            while (slots.len() as u64) < at {
                slots.push(None);
            }
            let (name, value) = entries[i as usize];
            slots.push(Some((h, name, value)));
            next = at + 1;
        }
        slots.shrink_to_fit();
        (NameIndex { slots, buckets }, repeated)
    }

    fn home(h: u64, buckets: u64) -> u64 {
        ((u128::from(h) * u128::from(buckets)) >> 64) as u64
    }

    /// The value of `name`.
    pub fn get(&self, name: &str) -> Option<&V> {
        let h = hash_name(name);
        let mut at = Self::home(h, self.buckets) as usize;
        while let Some(Some((sh, sname, value))) = self.slots.get(at) {
            if *sh > h {
                return None;
            }
            if *sh == h && *sname == name {
                return Some(value);
            }
            at += 1;
        }
        None
    }

    /// Whether `name` has a value.
    pub fn contains_key(&self, name: &str) -> bool {
        self.get(name).is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_and_long_names_read_back() {
        assert_eq!(std::mem::size_of::<Name>(), std::mem::size_of::<String>());
        assert_eq!(
            std::mem::size_of::<Option<Name>>(),
            std::mem::size_of::<String>()
        );
        for s in [
            "",
            "a",
            "r12",
            "x".repeat(22).as_str(),
            "y".repeat(23).as_str(),
            "µs_é",
        ] {
            let n = Name::from(s);
            assert_eq!(n.as_str(), s);
            assert_eq!(Name::from(s.to_string()), n);
            assert_eq!(n.len(), s.len());
        }
        let mut v = vec![Name::from("b"), Name::from("a"), Name::from("c")];
        v.sort();
        assert_eq!(v, ["a", "b", "c"]);
        let set: std::collections::HashSet<Name> = v.into_iter().collect();
        assert!(set.contains("b"));
    }

    #[test]
    fn the_index_answers_like_a_map_and_finds_every_repeat() {
        let mut names: Vec<String> = (0..5000).map(|i| format!("r{}", i % 3700)).collect();
        names.push(String::new());
        let entries: Vec<(&str, usize)> = names
            .iter()
            .enumerate()
            .map(|(i, n)| (n.as_str(), i))
            .collect();
        let (index, repeated) = NameIndex::build(&entries);
        let mut first = std::collections::HashMap::new();
        let mut last = std::collections::HashMap::new();
        let mut want = Vec::new();
        for (i, n) in names.iter().enumerate() {
            if let Some(&f) = first.get(n.as_str()) {
                want.push(Repeat {
                    at: i,
                    first: f,
                    previous: last[n.as_str()],
                });
            } else {
                first.insert(n.as_str(), i);
            }
            last.insert(n.as_str(), i);
        }
        assert_eq!(repeated, want);
        for n in &names {
            assert_eq!(index.get(n), first.get(n.as_str()));
        }
        for absent in ["r3700", "x", "r", "r00"] {
            assert_eq!(index.get(absent), None);
        }
        let mut rng = crate::util::rng::Rng::new(3);
        for n in [0usize, 5, 63, 64, 65, 1000, 70_000] {
            let keys: Vec<(u64, u32)> = (0..n as u32)
                .map(|i| {
                    // Some equal hashes, and some crowded into few buckets.
                    let h = match i % 7 {
                        0 => 42,
                        1 => rng.below(1 << 20),
                        _ => rng.next_u64(),
                    };
                    (h, i)
                })
                .collect();
            let mut want = keys.clone();
            want.sort_unstable();
            assert_eq!(sort_hashed(keys), want, "{n}");
        }
        let (empty, none) = NameIndex::<u32>::build(&[]);
        assert_eq!((empty.get("a"), none.len()), (None, 0));
    }
}
