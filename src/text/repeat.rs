//! A name given twice: found in `n log n`, whatever the input's size (the
//! other side controls how many parameters it sends).

use smallvec::SmallVec;

/// The index of the first key, in the order given, that equals an earlier
/// one: the keys sorted once (with their places), then neighbours compared.
pub(crate) fn first_repeat<K: Ord>(keys: impl IntoIterator<Item = K>) -> Option<usize> {
    // A header holds about ten: those are sorted without an allocation.
    let mut sorted: SmallVec<[(K, usize); 16]> = keys.into_iter().zip(0..).collect();
    // Keys given in increasing order (as most signers send names) hold no
    // repeat: one pass tells, before any sorting.
    if sorted.windows(2).all(|w| w[0].0 < w[1].0) {
        return None;
    }
    // By key, then by place: each run of equal keys starts at its first.
    sorted.sort_unstable();
    sorted
        .windows(2)
        .filter(|w| w[0].0 == w[1].0)
        .map(|w| w[1].1)
        .min()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_repeat_in_the_order_given() {
        assert_eq!(first_repeat(["a", "b", "c"]), None);
        assert_eq!(first_repeat(Vec::<&str>::new()), None);
        // "c" repeats at 3, "a" only at 4: the first repeat is at 3.
        assert_eq!(first_repeat(["c", "a", "b", "c", "a"]), Some(3));
        assert_eq!(first_repeat(["x", "x", "x"]), Some(1));
    }
}
