//! Stable orders of many items by an integer key (issue cycles, table
//! rows): a counting sort, linear, when the keys span not much more values
//! than there are items, as schedules do; a comparison sort otherwise. And
//! strings gathered into such an order ([`Gathered`]), so that a view
//! walking a large program in schedule order reads its labels in sequence
//! instead of jumping through the program once per label.

/// `items` ordered by `key`, equal keys in their given order (a stable
/// sort).
pub fn stable_sorted_by_key<T: Copy>(items: &[T], key: impl Fn(&T) -> i64) -> Vec<T> {
    let mut v = items.to_vec();
    stable_sort_by_key(&mut v, &mut Vec::new(), key);
    v
}

/// Sorts `items` stably by `key`, using `scratch` (whose allocation is
/// reused across calls) for the counting sort. `key` is called up to three
/// times per item and should be cheap.
pub fn stable_sort_by_key<T: Copy>(
    items: &mut Vec<T>,
    scratch: &mut Vec<T>,
    key: impl Fn(&T) -> i64,
) {
    let (Some(lo), Some(hi)) = (items.iter().map(&key).min(), items.iter().map(&key).max()) else {
        return;
    };
    let span = hi.abs_diff(lo);
    if span > 4 * items.len() as u64 + 1024 {
        items.sort_by_key(key);
        return;
    }
    // start[k - lo] = where the first item of key k goes.
    let mut start = vec![0usize; span as usize + 2];
    for x in items.iter() {
        start[key(x).abs_diff(lo) as usize + 1] += 1;
    }
    for i in 1..start.len() {
        start[i] += start[i - 1];
    }
    scratch.clear();
    scratch.resize(items.len(), items[0]);
    for x in items.iter() {
        let at = &mut start[key(x).abs_diff(lo) as usize];
        scratch[*at] = *x;
        *at += 1;
    }
    std::mem::swap(items, scratch);
}

/// The items `each` produces, with their keys, ordered by key; equal keys
/// in the order produced (a stable sort). `each` is run up to three times
/// and must produce the same items each time; with narrow keys the items
/// are counted and then written straight to their places, so no unsorted
/// copy is ever held.
pub fn collect_sorted<T: Copy + Default>(mut each: impl FnMut(&mut dyn FnMut(i64, T))) -> Vec<T> {
    let (mut lo, mut hi, mut n) = (i64::MAX, i64::MIN, 0u64);
    each(&mut |k, _| {
        lo = lo.min(k);
        hi = hi.max(k);
        n += 1;
    });
    if n == 0 {
        return Vec::new();
    }
    let span = hi.abs_diff(lo);
    if span > 4 * n + 1024 {
        let mut all: Vec<(i64, T)> = Vec::with_capacity(n as usize);
        each(&mut |k, x| all.push((k, x)));
        all.sort_by_key(|e| e.0);
        return all.into_iter().map(|e| e.1).collect();
    }
    let mut start = vec![0usize; span as usize + 2];
    each(&mut |k, _| start[k.abs_diff(lo) as usize + 1] += 1);
    for i in 1..start.len() {
        start[i] += start[i - 1];
    }
    let mut out = vec![T::default(); n as usize];
    each(&mut |k, x| {
        let at = &mut start[k.abs_diff(lo) as usize];
        out[*at] = x;
        *at += 1;
    });
    out
}

/// Strings of items `0..n` laid out in another order: `parts` strings per
/// item, item `i`'s at position `pos[i]`. Built from two passes over the
/// items in their own order, so the source is read in sequence and only
/// the (much smaller) copy is written out of order.
#[derive(Clone, Debug, Default)]
pub struct Gathered {
    text: String,
    /// `starts[k·parts + j]` = start of part `j` at position `k`; one more
    /// entry ends the last part.
    starts: Vec<usize>,
    parts: usize,
}

impl Gathered {
    /// Gathers `get(i, j)`, part `j < parts` of item `i`, to position
    /// `pos[i]`; `pos` is a permutation of `0..pos.len()`.
    pub fn new<'a>(pos: &[u32], parts: usize, get: impl Fn(usize, usize) -> &'a str) -> Gathered {
        let n = pos.len() * parts;
        let mut starts = vec![0usize; n + 1];
        for (i, &k) in pos.iter().enumerate() {
            for j in 0..parts {
                starts[k as usize * parts + j + 1] = get(i, j).len();
            }
        }
        for s in 1..starts.len() {
            starts[s] += starts[s - 1];
        }
        let mut bytes = vec![0u8; starts[n]];
        for (i, &k) in pos.iter().enumerate() {
            for j in 0..parts {
                let at = starts[k as usize * parts + j];
                let s = get(i, j).as_bytes();
                bytes[at..at + s.len()].copy_from_slice(s);
            }
        }
        let text = String::from_utf8(bytes).expect("whole strings joined end to end are UTF-8");
        Gathered {
            text,
            starts,
            parts,
        }
    }

    /// Part `j` at position `k`.
    pub fn get(&self, k: usize, j: usize) -> &str {
        let i = k * self.parts + j;
        &self.text[self.starts[i]..self.starts[i + 1]]
    }
}

/// The inverse of a permutation: `inverse(order)[order[k]] = k`.
pub fn inverse(order: &[u32]) -> Vec<u32> {
    let mut pos = vec![0u32; order.len()];
    for (k, &x) in order.iter().enumerate() {
        pos[x as usize] = k as u32;
    }
    pos
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::util::rng::Rng;

    #[test]
    fn agrees_with_the_standard_stable_sort() {
        let mut rng = Rng::new(7);
        for case in 0..300u64 {
            let n = rng.below(60) as usize;
            // Narrow spans take the counting sort, wide ones the fallback.
            let spread: i64 = if case % 3 == 0 { 1 << 40 } else { 8 };
            let items: Vec<(i64, usize)> = (0..n)
                .map(|i| (rng.below(2 * spread as u64) as i64 - spread, i))
                .collect();
            let mut want = items.clone();
            want.sort_by_key(|x| x.0);
            assert_eq!(stable_sorted_by_key(&items, |x| x.0), want);
        }
        assert!(stable_sorted_by_key(&[] as &[u8], |_| 0).is_empty());
        let extremes = [(i64::MAX, 0), (i64::MIN, 1), (0, 2), (i64::MIN, 3)];
        assert_eq!(
            stable_sorted_by_key(&extremes, |x| x.0),
            [(i64::MIN, 1), (i64::MIN, 3), (0, 2), (i64::MAX, 0)]
        );
        for spread in [5u64, 1 << 50] {
            let items: Vec<(i64, u32)> = (0..500).map(|i| (rng.below(spread) as i64, i)).collect();
            let sorted = collect_sorted(|emit| items.iter().for_each(|&(k, i)| emit(k, (k, i))));
            assert_eq!(sorted, stable_sorted_by_key(&items, |x| x.0));
        }
        assert!(collect_sorted::<u8>(|_| {}).is_empty());
    }

    #[test]
    fn gathered_strings_sit_at_their_positions() {
        let items = [("a", "load"), ("bb", ""), ("µ", "mul")];
        let order = [2u32, 0, 1];
        let pos = inverse(&order);
        assert_eq!(pos, [1, 2, 0]);
        let g = Gathered::new(&pos, 2, |i, j| if j == 0 { items[i].0 } else { items[i].1 });
        for (k, &x) in order.iter().enumerate() {
            assert_eq!(g.get(k, 0), items[x as usize].0);
            assert_eq!(g.get(k, 1), items[x as usize].1);
        }
        assert_eq!(Gathered::new(&[], 1, |_, _| "").starts, [0]);
    }
}
