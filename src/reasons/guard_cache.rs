//! Guard trees parsed a line at a time, each distinct line once per file.
//! A frame's recompiles repeat all but a few of its guard lines, and so do
//! the processes and ranks of one job: parsing every line of every tree was
//! two thirds of building a model. The subjects and values of the guards
//! are shared the same way (one `Arc<str>` each), so that comparing two
//! compiles' guards mostly compares pointers.

use super::guard_tree::GuardSet;
use crate::shared::ArcSet;
use foldhash::fast::RandomState;
use std::collections::HashMap;
use std::sync::Arc;

/// Distinct lines remembered at most; past this the memory is started
/// afresh (a log whose lines rarely repeat gains little from it, and its
/// memory must stay flat in file size).
const LINES_KEPT: usize = 16 * 1024;

#[derive(Debug, Default)]
pub struct GuardCache {
    strings: ArcSet<str>,
    lines: HashMap<Box<str>, GuardSet, RandomState>,
}

impl GuardCache {
    /// `GuardSet::parse(tree)`, with lines seen before taken from memory and
    /// every subject and value shared with the other sets of the file.
    pub fn parse(&mut self, tree: &str) -> GuardSet {
        let mut set = GuardSet::default();
        for line in tree.lines() {
            if let Some(seen) = self.lines.get(line) {
                set.append(seen);
                continue;
            }
            let mut one = GuardSet::default();
            one.add_line(line);
            for (subject, value) in one.values.iter_mut() {
                *subject = self.strings.share(Arc::clone(subject));
                *value = self.strings.share(Arc::clone(value));
            }
            set.append(&one);
            if self.lines.len() >= LINES_KEPT {
                self.lines.clear();
            }
            self.lines.insert(line.into(), one);
        }
        set.finish();
        set
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // Lines from real torch 2.15 guard trees (samples/traces/reasons),
    // then hand-made variants of them: repeats, changed values, non-guards.
    const REAL: &str = "\
| +- GLOBAL_STATE: ___check_global_state() against {\"allow_tf32\":false,\"grad_mode\":true,\"num_threads\":2}
| +- GuardManager: source=L['self'], accessed_by=FrameLocalsGuardAccessor(key='self', framelocals_idx=0), type=<class 'm.Net'>, tag_safe=(True, False)
| | +- TENSOR_MATCH: check_tensor(L['x'], Tensor, DispatchKeySet(CPU, BackendSelect, ADInplaceOrView, AutogradCPU), torch.float32, device=None, requires_grad=False, size=[4, 4], stride=[4, 1])  # return torch.mm(x, x) + 1  # s/r.py:13 in f
| | +- EQUALS_MATCH: L['self'].num_repeats == 1                                    # for _ in range(self.num_repeats):  # s/n.py:15 in forward
| | +- ID_MATCH: ___check_obj_id(L['activation'].__code__, 140154113349520), type=<class 'code'>  # return activation(x) + 1  # s/o.py:16 in f
";

    /// A cached parse is the plain parse, whatever repeats, and equal
    /// values are one string across sets.
    #[test]
    fn cached_parses_equal_plain_ones_and_share_their_strings() {
        let changed = REAL.replace("size=[4, 4]", "size=[8, 4]").replace("== 1 ", "== 2 ");
        let repeated = format!("{REAL}{REAL}not a guard\n");
        let trees = [
            REAL,
            changed.as_str(),
            repeated.as_str(),
            "",
            "| +- EQUALS_MATCH: L['self'].num_repeats == 3\n",
        ];
        let mut cache = GuardCache::default();
        let mut seen = Vec::new();
        for round in 0..2 {
            for t in trees {
                let cached = cache.parse(t);
                assert_eq!(cached, GuardSet::parse(t), "round {round}: {t}");
                assert!(!cached.values.is_empty() || t.is_empty() || t.starts_with("not"), "{t}");
                seen.push(cached);
            }
        }
        let subject = |set: &GuardSet| {
            set.values
                .iter()
                .find(|(s, _)| &**s == "x.dtype")
                .map(|(_, v)| Arc::clone(v))
        };
        let (a, b) = (subject(&seen[0]).unwrap(), subject(&seen[1]).unwrap());
        assert!(Arc::ptr_eq(&a, &b), "the same value is one string across sets");
    }

    /// Past its bound the cache starts afresh and parses stay right.
    #[test]
    fn a_full_cache_starts_afresh() {
        let mut cache = GuardCache::default();
        for i in 0..LINES_KEPT + 10 {
            let t = format!("| +- EQUALS_MATCH: L['self'].n == {i}\n");
            assert_eq!(cache.parse(&t), GuardSet::parse(&t));
        }
        assert!(cache.lines.len() <= LINES_KEPT);
    }
}
