//! One copy of each equal value, behind an `Arc`: what a model holds many
//! times over (guard subjects and values, stacks, graph-break texts; the
//! processes and ranks of one job repeat nearly all of them) is held once.

use foldhash::fast::RandomState;
use std::borrow::Borrow;
use std::collections::HashSet;
use std::hash::Hash;
use std::sync::Arc;

#[derive(Debug)]
pub struct ArcSet<T: ?Sized>(HashSet<Arc<T>, RandomState>);

impl<T: ?Sized> Default for ArcSet<T> {
    fn default() -> Self {
        ArcSet(HashSet::default())
    }
}

impl<T: ?Sized + Eq + Hash> ArcSet<T> {
    /// The copy of `value` held already, or `value` itself, now held.
    pub fn share<V: Borrow<T> + Into<Arc<T>>>(&mut self, value: V) -> Arc<T> {
        if let Some(seen) = self.0.get(value.borrow()) {
            return Arc::clone(seen);
        }
        let value: Arc<T> = value.into();
        self.0.insert(Arc::clone(&value));
        value
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Drops the values nothing but the set holds any more.
    pub fn release_unused(&mut self) {
        self.0.retain(|v| Arc::strong_count(v) > 1);
        self.0.shrink_to_fit();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_values_are_one_copy_and_different_ones_stay_apart() {
        let mut texts = ArcSet::<str>::default();
        let a = texts.share(String::from("x"));
        let b = texts.share(Arc::<str>::from("x"));
        let c = texts.share(String::from("y"));
        assert!(Arc::ptr_eq(&a, &b) && !Arc::ptr_eq(&a, &c));
        let mut stacks = ArcSet::<[u32]>::default();
        let s = stacks.share(vec![1, 2]);
        assert!(Arc::ptr_eq(&s, &stacks.share(vec![1, 2])));
    }

    #[test]
    fn values_only_the_set_holds_are_let_go() {
        let mut texts = ArcSet::<str>::default();
        let kept = texts.share("kept");
        drop(texts.share("dropped"));
        texts.release_unused();
        assert_eq!(texts.len(), 1);
        assert!(Arc::ptr_eq(&kept, &texts.share("kept")));
    }
}
