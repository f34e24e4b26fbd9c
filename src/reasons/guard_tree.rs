//! What a compile assumed: the guards of its guard tree
//! (`dynamo_cpp_guards_str`) as `subject -> value` pairs, so two compiles of
//! one frame can be compared. Dynamo reports only the first failing guard of
//! each cache entry; comparing the failed entry's guards with those of the
//! new compile shows every value that changed, and tells which old entry
//! was closest to the new call; the new compile's guard of the failed
//! subject says what torch did next (`guarded_now`).
//!
//! ```text
//! | +- GLOBAL_STATE: ___check_global_state() against {"grad_mode":true,...}
//! | | +- TENSOR_MATCH: check_tensor(L['x'], Tensor, DispatchKeySet(CPU, ...), torch.float32, device=None, requires_grad=False, size=[4, 8], stride=[8, 1])  # ...
//! | | +- EQUALS_MATCH: L['self'].param_groups[0]['lr'] == 0.01  # for group in self.param_groups:  # optim/sgd.py:...
//! | | +- DICT_CONTAINS: not ___dict_contains('mask', L['inputs'])  # ...
//! | +- GuardManager: source=L['self'], accessed_by=..., type=<class 'transformers...GPT2LMHeadModel'>, ...
//! ```

use super::change::{GuardChange, GuardedNow};
use super::guard_site::GuardSite;
use super::split::Assignment;
use super::subject::{container_tested, failed_subject, size_mismatch_dim};
use std::collections::BTreeMap;
use std::sync::Arc;

pub(crate) mod line;

/// The guards of one compile that carry a value.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GuardSet {
    /// Subject (`x.size()`, `grad_mode`, `self.param_groups[0]['lr']`) -> value.
    /// Shared with the other compiles of the log (`GuardCache`), so
    /// comparing two compiles' guards mostly compares pointers.
    /// Sorted by subject, one value each: a slice, not a map, because a
    /// set lives as long as its log's model and a tree node per few guards
    /// costs more than the pointers (most of a set's memory).
    pub values: Vec<(Arc<str>, Arc<str>)>,
    /// Root locals' classes (`self` -> `transformers...GPT2LMHeadModel`).
    pub root_types: BTreeMap<String, String>,
    /// Where tensor guards were installed in user code.
    pub sites: Vec<GuardSite>,
    /// Attributes the traced code assigns, by subject, and where.
    pub assignments: Vec<(String, Assignment)>,
}

impl GuardSet {
    pub fn parse(tree: &str) -> GuardSet {
        let mut set = GuardSet::default();
        for line in tree.lines() {
            set.add_line(line);
        }
        set.finish();
        set
    }

    /// Adds another set's guards after this one's, as if its lines came next.
    pub(super) fn append(&mut self, later: &GuardSet) {
        self.values.extend(later.values.iter().cloned());
        for (name, ty) in &later.root_types {
            self.root_types.insert(name.clone(), ty.clone());
        }
        self.sites.extend(later.sites.iter().cloned());
        self.assignments.extend(later.assignments.iter().cloned());
    }

    /// Orders the values by subject once all lines are in.
    pub(super) fn finish(&mut self) {
        // The first guard of a subject wins, as torch checks them in order.
        self.values.sort_by(|a, b| a.0.cmp(&b.0));
        self.values.dedup_by(|later, first| later.0 == first.0);
        self.values.shrink_to_fit();
    }

    /// The values guarded in both sets that differ, in subject order.
    pub fn changes_to(&self, new: &GuardSet) -> Vec<GuardChange> {
        // Both maps iterate in subject order: one merge walk compares each
        // subject about once, where a lookup per subject compared it
        // log2(guards) times (a frame with many cache entries diffs every
        // failed entry against the new compile).
        let mut out = Vec::new();
        let mut theirs = new.values.iter().peekable();
        for (subject, old) in &self.values {
            let now: Option<&Arc<str>> = loop {
                let Some((s, now)) = theirs.peek().copied() else {
                    break None;
                };
                if Arc::ptr_eq(s, subject) {
                    break Some(now);
                }
                match Ord::cmp(&**s, &**subject) {
                    std::cmp::Ordering::Less => _ = theirs.next(),
                    std::cmp::Ordering::Equal => break Some(now),
                    std::cmp::Ordering::Greater => break None,
                }
            };
            let Some(now) = now else {
                // Not guarded by value any more, yet an expression of it
                // is: the new entry pinned it another way, so it differs.
                if let Some((expr, v)) = new.expression_of(subject) {
                    out.push(GuardChange {
                        subject: Arc::clone(subject),
                        old: Arc::clone(old),
                        new: Arc::from(format!("{expr} == {v}")),
                    });
                }
                continue;
            };
            theirs.next();
            if !Arc::ptr_eq(now, old) && now != old {
                out.push(GuardChange {
                    subject: Arc::clone(subject),
                    old: Arc::clone(old),
                    new: Arc::clone(now),
                });
            }
        }
        // A tensor that became dynamic in the new compile has a size guard
        // of `None`s there: that is a consequence, listed after the causes.
        out.sort_by_key(GuardChange::new_is_dynamic);
        out
    }

    /// Adds what one line of a guard tree guards (lines that are not
    /// guards add nothing).
    pub(in crate::reasons) fn add_line(&mut self, line: &str) {
        line::LineSink {
            values: &mut self.values,
            root_types: &mut self.root_types,
            sites: &mut self.sites,
            assignments: &mut self.assignments,
        }
        .add_line(line);
    }

    /// Where the traced code assigns `subject` (a failed guard's subject).
    /// A buffer is guarded as `m._buffers['cache']` and assigned as
    /// `m.cache` (through `Module.__setattr__`): either names it.
    pub fn assignment_of(&self, subject: &str) -> Option<&Assignment> {
        let attribute = subject
            .strip_suffix("']")
            .and_then(|s| s.rsplit_once("._buffers['"))
            .map(|(module, name)| format!("{module}.{name}"));
        self.assignments
            .iter()
            .find(|(s, _)| s == subject || attribute.as_deref() == Some(s.as_str()))
            .map(|(_, a)| a)
    }

    /// For a length or emptiness guard (`len(X) ...`, `not X`): whether X
    /// is a dict here, its keys guarded one by one as Dynamo does for a
    /// dict, or its class `dict`.
    pub fn holds_dict_of(&self, guard: &str) -> bool {
        let Some(of) = container_tested(guard).map(crate::reasons::culprit::strip_locals) else {
            return false;
        };
        let class = self.root_types.get(&of).map(String::as_str);
        if matches!(
            class,
            Some("dict" | "collections.OrderedDict" | "collections.defaultdict")
        ) {
            return true;
        }
        // A module's registry of children (a ModuleList's `_modules`) is
        // a dict keyed '0', '1', ...: its length is how many layers.
        if of.ends_with("._modules") {
            return false;
        }
        let prefix = format!("list(dict.keys({of}))[");
        let at = self.values.partition_point(|(s, _)| **s < *prefix);
        self.values.get(at).is_some_and(|(s, _)| s.starts_with(&prefix))
    }

    /// A symbolic expression of `subject` this set guards as a constant
    /// (`(1.0 + ((-1)*p)) == 0.95`), when it guards no value of `subject`
    /// itself: the expression and its value.
    pub fn expression_of(&self, subject: &str) -> Option<(&str, &str)> {
        if subject.is_empty() || subject.contains(' ') {
            return None;
        }
        // Sorted by subject: the parenthesised ones are one run.
        let from = self.values.partition_point(|(s, _)| **s < *"(");
        self.values[from..]
            .iter()
            .take_while(|(s, _)| s.starts_with('('))
            .find(|(s, _)| mentions(s, subject))
            .map(|(s, v)| (&**s, &**v))
    }

    /// The value guarded for `subject`.
    pub fn value(&self, subject: &str) -> Option<&str> {
        let at = self.values.binary_search_by(|(s, _)| (**s).cmp(subject)).ok()?;
        Some(&self.values[at].1)
    }
}

/// How `new` guards what `guard` failed on; `dim` is the dim of a size
/// mismatch, when the guard names one.
pub fn guarded_now(guard: &str, new: &GuardSet) -> GuardedNow {
    let subject = failed_subject(guard);
    if guard.starts_with("tensor '") {
        let Some(size) = new.value(&format!("{subject}.size()")) else {
            return GuardedNow::Unguarded;
        };
        let dim = size_mismatch_dim(guard);
        let dynamic = match dim {
            Some(d) => size
                .trim_matches(['[', ']'])
                .split(", ")
                .nth(d)
                .is_some_and(|v| v.trim() == "None"),
            None => false,
        };
        return if dynamic {
            GuardedNow::Dynamic
        } else {
            GuardedNow::Constant(Arc::from(size))
        };
    }
    match new.value(&subject) {
        Some(v) if v.contains("None") && subject.ends_with("size()") => GuardedNow::Dynamic,
        // `L['group'] == (128 // (128 // L['group']))`: a relation the
        // symbolic value must keep (it divides 128), not a number.
        // Not torch 2.11's bookkeeping for a float it tensorified
        // (`L['x'] == ___as_tensor(L['x']).item()`), which says nothing.
        Some(v) if (v.contains("L['") || v.contains("G['")) && !v.contains("___as_tensor(") => GuardedNow::Dynamic,
        Some(v) => GuardedNow::Constant(Arc::from(v)),
        None => match new.expression_of(&subject) {
            // `(___stack0[1] + ___stack0[3] + ___stack0[2] + ___stack0[0])
            // == 64`: split sizes tied by their sum (the size split), each
            // held symbolically: later values with that sum compile nothing.
            Some((expr, _)) if sum_of_symbols(expr) => GuardedNow::Dynamic,
            Some((expr, v)) => GuardedNow::Specialised(Arc::from(format!("{expr} == {v}"))),
            // `x == 0.5` failed and the new entry guards x's sizes: the
            // number became a tensor (not a size guard of a tensor `x`).
            None if constant_comparison(guard).is_some_and(|(s, v)| s == subject && v.parse::<f64>().is_ok())
                && new.value(&format!("{subject}.size()")).is_some() =>
            {
                GuardedNow::Tensor
            }
            None => GuardedNow::Unguarded,
        },
    }
}

/// `(a + b + c)`: two or more distinct values added, nothing else (no
/// constant, no product): a relation among symbols, none pinned alone.
fn sum_of_symbols(expr: &str) -> bool {
    let inner = expr.trim();
    let inner = inner
        .strip_prefix('(')
        .and_then(|e| e.strip_suffix(')'))
        .unwrap_or(inner);
    let terms: Vec<&str> = inner.split(" + ").map(str::trim).collect();
    let symbol = |t: &str| {
        t.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
            && t.chars().all(|c| c.is_ascii_alphanumeric() || "_[]'.".contains(c))
    };
    terms.len() >= 2
        && terms.iter().all(|t| symbol(t))
        && terms.iter().enumerate().all(|(i, t)| !terms[..i].contains(t))
}

/// `S == V` of a failed guard, as a guard tree names S: the subject and the
/// constant (`("cfg.kernel_sizes[0]", "3")`).
pub fn constant_comparison(guard: &str) -> Option<(String, String)> {
    let text = guard.split("  #").next().unwrap_or(guard).trim();
    let (lhs, rhs) = text.rsplit_once(" == ")?;
    if lhs.starts_with("tensor '") || lhs.contains(" ") && !lhs.starts_with('(') {
        return None;
    }
    Some((crate::reasons::culprit::canonical(lhs.trim()), rhs.trim().to_string()))
}

/// `subject` appears in `expr` as a whole operand (`p` in `(1 - p)`, not
/// in `p2` or `x.p`).
fn mentions(expr: &str, subject: &str) -> bool {
    let operand = |c: Option<char>| c.is_some_and(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '\''));
    expr.match_indices(subject).any(|(at, _)| {
        let before = expr[..at].chars().last();
        let after = expr[at + subject.len()..].chars().next();
        !operand(before) && !operand(after) && after != Some('[') && after != Some('(')
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    // Lines from real torch 2.15 guard trees (samples/traces/reasons).
    const OLD: &str = "\
| +- GLOBAL_STATE: ___check_global_state() against {\"allow_tf32\":false,\"autocast_state\":{\"cached_enabled\":true,\"enabled\":[false,false]},\"grad_mode\":true,\"num_threads\":2}
| +- GuardManager: source=L['self'], accessed_by=FrameLocalsGuardAccessor(key='self', framelocals_idx=0), type=<class 'm.Net'>, tag_safe=(True, False)
| | +- TENSOR_MATCH: check_tensor(L['x'], Tensor, DispatchKeySet(CPU, BackendSelect, ADInplaceOrView, AutogradCPU), torch.float32, device=None, requires_grad=False, size=[4, 4], stride=[4, 1])  # return torch.mm(x, x) + 1  # s/r.py:13 in f
| | +- EQUALS_MATCH: L['self'].num_repeats == 1                                    # for _ in range(self.num_repeats):  # s/n.py:15 in forward
| | +- DICT_CONTAINS: not ___dict_contains('mask', L['inputs'])                     # if \"mask\" in inputs:  # s/d.py:9 in f
| | +- ID_MATCH: ___check_obj_id(L['activation'].__code__, 140154113349520), type=<class 'code'>  # return activation(x) + 1  # s/o.py:16 in f
";

    #[test]
    fn values_of_each_guard_kind() {
        let s = GuardSet::parse(OLD);
        let v = |k: &str| s.value(k);
        assert_eq!(v("grad_mode"), Some("true"));
        assert_eq!(v("autocast_state.enabled"), Some("[false,false]"));
        assert_eq!(v("x.size()"), Some("[4, 4]"));
        assert_eq!(v("x.stride()"), Some("[4, 1]"));
        assert_eq!(v("x.dtype"), Some("torch.float32"));
        assert_eq!(v("x.requires_grad"), Some("False"));
        assert_eq!(v("self.num_repeats"), Some("1"));
        assert_eq!(v("___dict_contains('mask', inputs)"), Some("False"));
        assert_eq!(v("id(activation.__code__)"), Some("140154113349520"));
        assert_eq!(s.root_types.get("self").map(String::as_str), Some("m.Net"));
        assert_eq!(s.sites.len(), 1);
    }

    // Trimmed from tests/scenarios75 (torch 2.14.1, `torch.compile(ema.step)`):
    // the roots are the frame's locals and a bound method's receiver, never
    // a manager below them.
    #[test]
    fn a_compiled_bound_methods_receiver_is_a_root() {
        let tree = "\
TREE_GUARD_MANAGER:
+- RootGuardManager
| +- GuardManager: source=L['fn'], accessed_by=FrameLocalsGuardAccessor(key='fn', framelocals_idx=2), type=<class 'method'>, tag_safe=(False, False)
| | +- GuardManager: source=L['fn'].__func__, accessed_by=GetAttrGuardAccessor(__func__), type=<class 'function'>, tag_safe=(False, False)
| | +- GuardManager: source=L['fn'].__self__, accessed_by=GetAttrGuardAccessor(__self__), type=<class 'diffusers.training_utils.EMAModel'>, tag_safe=(False, False)
| | | +- GuardManager: source=L['fn'].__self__.decay, accessed_by=GetAttrGuardAccessor(decay), type=<class 'float'>, tag_safe=(False, False)
";
        let s = GuardSet::parse(tree);
        let root = |k: &str| s.root_types.get(k).map(String::as_str);
        assert_eq!(root("fn"), Some("method"));
        assert_eq!(root("fn.__self__"), Some("diffusers.training_utils.EMAModel"));
        assert_eq!(s.root_types.len(), 2);
    }

    #[test]
    fn changes_read_as_people_say_them() {
        let c = |s: &str, o: &str, n: &str| GuardChange {
            subject: s.into(),
            old: o.into(),
            new: n.into(),
        };
        assert_eq!(
            c("kwargs['input_ids'].size()", "[4, 16]", "[4, None]").describe(),
            "input_ids.size(): [4, 16] -> [4, None] (now dynamic)"
        );
        assert_eq!(c("id(args[0])", "1", "2").describe(), "args[0]: a different object");
        assert_eq!(
            c(
                "args[0] dispatch keys",
                "CPU, AutogradCPU",
                "CPU, AutogradCPU, AutocastCPU"
            )
            .describe(),
            "args[0] dispatch keys: +AutocastCPU"
        );
        assert_eq!(c("grad_mode", "true", "false").describe(), "grad_mode: true -> false");
        assert_eq!(
            c(
                "fn._modules['2']._forward_hooks[list(dict.keys(fn._modules['2']._forward_hooks))[0]].__closure__[0].cell_contents.on",
                "False",
                "True"
            )
            .describe(),
            "fn.2 hook closure[0].on: False -> True"
        );
    }

    #[test]
    fn changes_list_every_differing_value() {
        let new = OLD
            .replace("\"grad_mode\":true", "\"grad_mode\":false")
            .replace("num_repeats == 1", "num_repeats == 2");
        let changes = GuardSet::parse(OLD).changes_to(&GuardSet::parse(&new));
        let got: Vec<(&str, &str, &str)> = changes.iter().map(|c| (&*c.subject, &*c.old, &*c.new)).collect();
        assert_eq!(got, [("grad_mode", "true", "false"), ("self.num_repeats", "1", "2")]);
    }

    proptest::proptest! {
        /// The merge walk finds exactly what a lookup per subject finds,
        /// whichever subjects the two sets share.
        #[test]
        fn changes_equal_a_lookup_per_subject(
            old in proptest::collection::btree_map("[a-e]{1,3}", "[xy]", 0..40),
            new in proptest::collection::btree_map("[a-e]{1,3}", "[xy]", 0..40),
        ) {
            // Shared strings, as the builder makes them: equal subjects and
            // values are one pointer, whichever set they came from.
            let mut cache = super::super::GuardCache::default();
            let mut set = |values: &std::collections::BTreeMap<String, String>| {
                let tree: String = values.iter().map(|(k, v)| format!("| +- EQUALS_MATCH: {k} == {v}\n")).collect();
                cache.parse(&tree)
            };
            let (old_set, new_set) = (set(&old), set(&new));
            let got = old_set.changes_to(&new_set);
            let want: Vec<GuardChange> = old
                .iter()
                .filter_map(|(s, o)| {
                    let n = new.get(s).filter(|n| *n != o)?;
                    Some(GuardChange { subject: s.as_str().into(), old: o.as_str().into(), new: n.as_str().into() })
                })
                .collect();
            proptest::prop_assert_eq!(got, want);
        }
    }

    #[test]
    fn how_the_new_entry_guards_the_failed_subject() {
        let new = GuardSet::parse(
            "| +- TENSOR_MATCH: check_tensor(L['x'], Tensor, DispatchKeySet(CPU), torch.float32, device=None, requires_grad=False, size=[4, None], stride=[None, 1])\n\
             | +- EQUALS_MATCH: L['self'].step == 4\n",
        );
        let size = "tensor 'x' size mismatch at index 1. expected 8, actual 12";
        assert_eq!(guarded_now(size, &new), GuardedNow::Dynamic);
        let other_dim = "tensor 'x' size mismatch at index 0. expected 2, actual 4";
        assert_eq!(guarded_now(other_dim, &new), GuardedNow::Constant("[4, None]".into()));
        assert_eq!(guarded_now("self.step == 3", &new), GuardedNow::Constant("4".into()));
        assert_eq!(guarded_now("L['lr'] == 0.1", &new), GuardedNow::Unguarded);
    }

    #[test]
    fn a_length_guard_on_a_value_whose_keys_are_guarded_is_on_a_dict() {
        // Lines of a real torch 2.15 tree (tests/scenarios5 hf_albert_hidden_states_probe, 10/0).
        let old = GuardSet::parse(
            "| +- DictGuardManager: source=L['___stack0'], accessed_by=FrameLocalsGuardAccessor(key='___stack0', framelocals_idx=2), type=<class 'transformers.modeling_outputs.BaseModelOutputWithPooling'>, tag_safe=(False, False)\n\
             | | | +- EQUALS_MATCH: list(dict.keys(L['___stack0']))[0] == 'last_hidden_state'     # return tuple(self[k] for k in self.keys())  # transformers/utils/generic.py:632 in to_tuple\n\
             | | +- EQUALS_MATCH: len(L['blocks']) == 2\n\
             | | +- EQUALS_MATCH: list(dict.keys(L['m']._modules))[0] == '0'\n",
        );
        assert!(old.holds_dict_of("len(___stack0) != 2"));
        assert!(!old.holds_dict_of("len(blocks) != 2"), "a list's length guards no keys");
        assert!(
            !old.holds_dict_of("len(m._modules) != 1"),
            "a module registry is layers, not keys"
        );
        assert!(!old.holds_dict_of("___stack0 == 2"));
    }
}
