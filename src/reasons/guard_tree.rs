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
use super::culprit::list_entry;
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
                } else if let Some(length) = new.beyond_length(subject) {
                    // The new call's list is shorter: the entry this set
                    // read is a value the call lacks, so it differs.
                    out.push(GuardChange::absent(Arc::clone(subject), Arc::clone(old), length));
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

    /// The length this set guards for the list `subject` indexes, when the
    /// index is past it (`doc_lens[3]` where `len(doc_lens) == 2`).
    fn beyond_length(&self, subject: &str) -> Option<usize> {
        let (list, index) = list_entry(subject)?;
        let length: usize = self.value(&format!("len({list})"))?.parse().ok()?;
        (index >= length).then_some(length)
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
    // What the value is (a tensor, None) is no constant the new graph
    // holds; a tensor where the failed entry compared the value itself
    // (`x == 0.5`, `x is None`) is a tensor passed instead. A symbolic
    // guard's subject is the tensor whose sizes it reads: no such change.
    let itself = constant_comparison(guard).is_some_and(|(s, _)| s == subject)
        || crate::reasons::split::guard_test(guard).ends_with(" is None");
    let value = new
        .value(&subject)
        .filter(|v| *v != line::NONE_VALUE && (*v != line::TENSOR_VALUE || itself));
    match value {
        Some(line::TENSOR_VALUE) => GuardedNow::Tensor,
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
            // `((144*support.size()[0]) % (n_way*k_shot)) == 0`: a
            // divisibility the symbolic values must keep, which many
            // values do, or a relation to a tensor's symbolic size: no
            // number the entry pins.
            Some((expr, v)) if (expr.contains(" % ") && v == "0") || expr.contains(".size()") => GuardedNow::Dynamic,
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
    let text = crate::reasons::split::guard_test(guard);
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
mod tests;
