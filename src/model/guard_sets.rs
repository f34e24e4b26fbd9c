//! One copy of each distinct guard set of a file, so that a log of many
//! processes or ranks running one model holds its guards once.

use crate::reasons::GuardSet;
use std::collections::hash_map::Entry;
use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::sync::Arc;

/// One copy of each distinct guard set of a file. The ranks and processes
/// of one job compile the same model into the same guards: shared, a set
/// costs a pointer per compile instead of ~15 KB (on small HF models).
#[derive(Default)]
pub(super) struct SharedSets(HashMap<u64, Arc<GuardSet>>);

impl SharedSets {
    /// `set`, parsed from `tree`, or an equal set seen before.
    pub(super) fn share(&mut self, tree: &str, set: GuardSet) -> Arc<GuardSet> {
        let mut hasher = std::collections::hash_map::DefaultHasher::new();
        tree.hash(&mut hasher);
        match self.0.entry(hasher.finish()) {
            Entry::Occupied(seen) if **seen.get() == set => Arc::clone(seen.get()),
            // A different set under the same hash stays unshared.
            Entry::Occupied(_) => Arc::new(set),
            Entry::Vacant(slot) => Arc::clone(slot.insert(Arc::new(set))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TREE: &str = "| +- EQUALS_MATCH: L['self'].lr == 0.01  # ...\n";

    #[test]
    fn equal_sets_are_one_and_different_ones_stay_apart() {
        let mut sets = SharedSets::default();
        let a = sets.share(TREE, GuardSet::parse(TREE));
        let b = sets.share(TREE, GuardSet::parse(TREE));
        assert!(Arc::ptr_eq(&a, &b));
        let other = TREE.replace("0.01", "0.02");
        let c = sets.share(&other, GuardSet::parse(&other));
        assert!(!Arc::ptr_eq(&a, &c) && *a != *c);
        // Text that hashes like TREE but parses to another set is not merged.
        let d = sets.share(TREE, GuardSet::parse(&other));
        assert_eq!(*d, *c);
        assert!(!Arc::ptr_eq(&a, &d));
    }
}
