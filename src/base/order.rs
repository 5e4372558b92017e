//! Ordering without the standard library's sorts (D-233). Each element type
//! that std's `sort*` or a `BTreeSet`/`BTreeMap` built by `collect` meets
//! compiles its own copy of the sort (about 5 KB of WebAssembly each); here
//! one merge sort of indices serves every type, and sets and maps are built
//! by insertion, which needs no sort. Both stay O(n log n).

use std::cmp::Ordering;
use std::collections::{BTreeMap, BTreeSet};

/// The stable order of `0..len` under `cmp` (bottom-up merge sort of
/// indices; one compiled copy for every element type).
fn permutation(len: usize, cmp: &mut dyn FnMut(usize, usize) -> Ordering) -> Vec<usize> {
    let mut from: Vec<usize> = (0..len).collect();
    let mut into: Vec<usize> = Vec::with_capacity(len);
    let mut width = 1;
    while width < len {
        into.clear();
        for run in from.chunks(2 * width) {
            let (left, right) = run.split_at(width.min(run.len()));
            let (mut l, mut r) = (left.iter().peekable(), right.iter().peekable());
            loop {
                let pick = match (l.peek(), r.peek()) {
                    (Some(&&a), Some(&&b)) => {
                        if cmp(a, b) == Ordering::Greater {
                            r.next()
                        } else {
                            l.next()
                        }
                    }
                    (Some(_), None) => l.next(),
                    (None, Some(_)) => r.next(),
                    (None, None) => break,
                };
                into.extend(pick.copied());
            }
        }
        std::mem::swap(&mut from, &mut into);
        width = width.saturating_mul(2);
    }
    from
}

/// Sorts `items` stably by `cmp` (as `sort_by`).
pub(crate) fn order_by<T>(items: &mut Vec<T>, mut cmp: impl FnMut(&T, &T) -> Ordering) {
    if items.len() < 2 {
        return;
    }
    let order = {
        let view: &[T] = items;
        permutation(view.len(), &mut |i, j| match (view.get(i), view.get(j)) {
            (Some(a), Some(b)) => cmp(a, b),
            _ => Ordering::Equal,
        })
    };
    let mut slots: Vec<Option<T>> = items.drain(..).map(Some).collect();
    items.extend(order.iter().filter_map(|&i| slots.get_mut(i).and_then(Option::take)));
}

/// Sorts `items` stably by `key` (as `sort_by_key`).
pub(crate) fn order_by_key<T, K: Ord>(items: &mut Vec<T>, key: impl Fn(&T) -> K) {
    order_by(items, |a, b| key(a).cmp(&key(b)));
}

/// The set of `items` (as `collect::<BTreeSet<_>>()`).
pub(crate) fn set_of<T: Ord>(items: impl IntoIterator<Item = T>) -> BTreeSet<T> {
    let mut set = BTreeSet::new();
    for item in items {
        set.insert(item);
    }
    set
}

/// The map of `pairs`, a later pair replacing an earlier one of the same key
/// (as `collect::<BTreeMap<_, _>>()`).
pub(crate) fn map_of<K: Ord, V>(pairs: impl IntoIterator<Item = (K, V)>) -> BTreeMap<K, V> {
    let mut map = BTreeMap::new();
    for (key, value) in pairs {
        map.insert(key, value);
    }
    map
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small deterministic generator for the tests' inputs.
    fn numbers(seed: u64, len: usize, modulo: u64) -> Vec<(u64, usize)> {
        let mut x = seed;
        (0..len)
            .map(|i| {
                x = x
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1_442_695_040_888_963_407);
                ((x >> 33) % modulo, i)
            })
            .collect()
    }

    #[test]
    fn order_by_key_equals_std_stable_sort() {
        for len in [0, 1, 2, 3, 7, 8, 9, 31, 64, 100, 257, 1000] {
            for modulo in [1, 3, 1000] {
                let items = numbers(len as u64 + modulo, len, modulo);
                let mut ours = items.clone();
                order_by_key(&mut ours, |x| x.0);
                let mut theirs = items;
                theirs.sort_by_key(|x| x.0);
                assert_eq!(ours, theirs, "len {len} modulo {modulo}");
            }
        }
    }

    #[test]
    fn order_by_reverse_comparator() {
        let mut items = numbers(5, 50, 10);
        let mut theirs = items.clone();
        order_by(&mut items, |a, b| b.cmp(a));
        theirs.sort_by(|a, b| b.cmp(a));
        assert_eq!(items, theirs);
    }

    #[test]
    fn sets_and_maps_equal_collect() {
        let items = numbers(9, 200, 40);
        assert_eq!(
            set_of(items.iter().map(|x| x.0)),
            items.iter().map(|x| x.0).collect::<BTreeSet<_>>()
        );
        assert_eq!(
            map_of(items.iter().copied()),
            items.iter().copied().collect::<BTreeMap<_, _>>()
        );
    }
}
