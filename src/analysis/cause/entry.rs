//! Which failed cache entry is a recompile's cause: the one closest to the
//! new call, counted in the values that differ.

use crate::model::Compile;
use crate::reasons::{failed_subject, GuardFailure};

/// The failed entry whose reason is this recompile's cause.
///
/// Every existing cache entry contributes a reason, so older causes repeat.
/// When the log has the guards of every failed entry and of the new
/// compile, the cause is the entry closest to the new call (fewest guarded
/// values that differ): after length-specialised entries and a `no_grad`
/// one, a hook flag flip is the cause, not grad mode. Ties, and logs
/// without guard trees, go to the newest failed entry (highest `F/M`),
/// whatever the order in the log.
pub fn cause_of(compile: &Compile) -> Option<&GuardFailure> {
    cause_index(compile).map(|i| &compile.recompile_reasons[i])
}

/// The index in `recompile_reasons` of the cause (see `cause_of`).
pub fn cause_index(compile: &Compile) -> Option<usize> {
    let reasons = &compile.recompile_reasons;
    let newest_first = |i: usize, r: &GuardFailure| (entry_number(r.entry.as_deref()), usize::MAX - i);
    if reasons.len() > 1 && reasons.iter().all(|r| r.changes.is_some()) {
        return reasons
            .iter()
            .enumerate()
            .min_by(|(i, a), (j, b)| {
                distance(a, reasons)
                    .cmp(&distance(b, reasons))
                    .then_with(|| failed_on_mode(a, reasons).cmp(&failed_on_mode(b, reasons)))
                    .then_with(|| newest_first(*j, b).cmp(&newest_first(*i, a)))
            })
            .map(|(i, _)| i);
    }
    reasons
        .iter()
        .enumerate()
        .max_by_key(|(i, r)| newest_first(*i, r))
        .map(|(i, _)| i)
}

/// An entry that failed on torch's global state (grad mode, autocast)
/// where another failed on a value the new entry still holds as a
/// constant: a mode has few values (train and eval), so on a tie that
/// value is the cause (train and eval calls alternating while a setting
/// changes: the setting is what compiles again, not the mode). Not a size
/// the new entry made dynamic: that compiles once, and the mode is the
/// change (a validation batch of another size under inference_mode).
fn failed_on_mode(r: &GuardFailure, all: &[GuardFailure]) -> bool {
    use crate::reasons::GuardedNow;
    let mode = |g: &GuardFailure| g.guard.starts_with("GLOBAL_STATE");
    let compiles_again = |g: &GuardFailure| matches!(g.now, Some(GuardedNow::Constant(_) | GuardedNow::Specialised(_)));
    mode(r) && all.iter().any(|o| !std::ptr::eq(o, r) && !mode(o) && compiles_again(o))
}

/// The other failed entries exactly as close to the new call as entry `i`
/// (empty when the log lacks their guard trees): if one failed for another
/// kind of reason, the choice of cause is a guess.
pub(in crate::analysis) fn entry_distance_ties(compile: &Compile, i: usize) -> Vec<usize> {
    let reasons = &compile.recompile_reasons;
    if reasons[i].changes.is_none() {
        return Vec::new();
    }
    let d = distance(&reasons[i], reasons);
    (0..reasons.len())
        .filter(|&j| j != i && reasons[j].changes.is_some() && distance(&reasons[j], reasons) == d)
        .collect()
}

/// Guarded values that differ between an entry and the new compile, not
/// counting dims the new compile made dynamic (a consequence, not a cause),
/// plus the entry's own failed guard when no counted change names it (a
/// guard without a comparable value, `len(self.state[...]) != 0`, or a
/// size the new compile made dynamic): it differs too, or it would not
/// have failed. Ties are broken by every differing value, the dynamic ones
/// included: an entry that differs only in a size the new compile made
/// dynamic is closer than one that differs in that size and a flag.
///
/// A dim the new compile holds dynamically that another failed entry
/// already held so was not made dynamic by this compile: a static size
/// there counts (after `256 -> None` at 0/1, the entry 0/0 compiled for
/// 256 is no closer to the call than 0/1, which failed on a remainder).
fn distance(r: &GuardFailure, all: &[GuardFailure]) -> (usize, usize) {
    let Some(changes) = r.changes.as_ref() else {
        return (usize::MAX, usize::MAX);
    };
    // A newer entry whose own failed guard is about the same tensor and
    // that does not differ from the new compile in this size held it
    // dynamic already.
    let dynamic_before = |c: &crate::reasons::GuardChange| {
        let tensor = c.subject.strip_suffix(".size()").unwrap_or(&c.subject);
        all.iter().any(|o| {
            !std::ptr::eq(o, r)
                && entry_number(o.entry.as_deref()) > entry_number(r.entry.as_deref())
                && o.guard.contains(&format!("{tensor}.size()"))
                && o.changes
                    .as_ref()
                    .is_some_and(|oc| !oc.iter().any(|x| x.subject == c.subject))
        })
    };
    let subject = failed_subject(&r.guard);
    // A symbolic guard names its sizes in full (`failed_subject` keeps one
    // name of them): read them from the guard.
    let key = match crate::reasons::culprit::canonical(&r.guard) {
        g if g.contains(".size()") && !g.starts_with("tensor '") => value_read(&g),
        _ => value_read(&subject),
    };
    let names = |c: &crate::reasons::GuardChange| {
        *c.subject == *subject
            || (c.subject.starts_with('(') && r.guard.trim_start().starts_with(&*c.subject))
            || c.subject.starts_with(&format!("{subject}."))
            || c.subject.starts_with(&format!("{subject} "))
            || value_read(&c.subject) == key
    };
    let values = |changes: &mut dyn Iterator<Item = &crate::reasons::GuardChange>| {
        let mut read: Vec<String> = Vec::new();
        let mut named = false;
        for c in changes {
            named |= names(c);
            let k = one_action(c).unwrap_or_else(|| value_read(&c.subject));
            if !read.contains(&k) {
                read.push(k);
            }
        }
        read.len() + usize::from(!named)
    };
    // A value the entry already held symbolically (`k_shot` as
    // `support.size()[0] // 5`) accepted any value that kept the relation:
    // a new expression for it follows from another value made dynamic.
    let held_symbolically = |c: &crate::reasons::GuardChange| c.old.contains("L['") || c.old.contains(".size()");
    let counted = values(
        &mut changes
            .iter()
            .filter(|c| (!c.new_is_dynamic() || dynamic_before(c)) && !held_symbolically(c)),
    );
    let all = values(&mut changes.iter());
    (counted, all)
}

/// The value a guarded subject reads. A symbolic expression over sizes
/// (`((1 + (x.size()[0] // 2)) % 4)` and its complement) reads the sizes it
/// names: every expression one size change flips counts once, as that
/// tensor's size. A value's type is that value read (`type id(ord)` and
/// `ord` of one argument, int 1 then float inf: one value that changed, not
/// two). Any other subject is a value of its own.
fn value_read(subject: &str) -> String {
    // Type guards keep the source as Dynamo spelled it (`m.__dict__['_modules']`),
    // value guards its canonical form (`m._modules`): one value either way.
    if let Some(inner) = crate::reasons::culprit::typed(subject) {
        return crate::reasons::culprit::canonical(inner);
    }
    let mut sizes: Vec<&str> = subject
        .match_indices(".size()")
        .map(|(at, _)| operand_before(subject, at))
        .filter(|t| !t.is_empty())
        .collect();
    if sizes.is_empty() {
        return subject.to_string();
    }
    sizes.sort_unstable();
    sizes.dedup();
    sizes
        .iter()
        .map(|t| format!("{t}.size()"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The expression that ends at `at`: names, attributes, subscripts and
/// calls (`___from_numpy(signal)`, `L['x']`), back to an unmatched bracket
/// or an operator.
fn operand_before(s: &str, at: usize) -> &str {
    let b = s.as_bytes();
    let (mut i, mut depth) = (at, 0usize);
    while i > 0 {
        match b[i - 1] {
            b')' | b']' => depth += 1,
            b'(' | b'[' if depth == 0 => break,
            b'(' | b'[' => depth -= 1,
            c if c.is_ascii_alphanumeric() || matches!(c, b'_' | b'.' | b'\'') => {}
            _ if depth > 0 => {}
            _ => break,
        }
        i -= 1;
    }
    &s[i..at]
}

/// One attribute of several submodules changed the same way
/// (`self._modules['body']._modules['2'].training` and `..['5'].training`,
/// both False -> True): one call set them all (`model.train()`, a loop
/// that switches every Dropout back on), so they count as one value.
///
/// So do the lengths of several containers that changed the same way
/// (`len(mem_feats)` and `len(mem_labels)`, both 2 -> 3): the loop appends
/// to all of them at once.
fn one_action(c: &crate::reasons::GuardChange) -> Option<String> {
    let subject = &*c.subject;
    if subject.starts_with("len(") && subject.ends_with(')') {
        return Some(format!("len(*): {} -> {}", c.old, c.new));
    }
    // The entries a shorter list lacks are one change with each other (not
    // with its length: an entry of the same length that differs in values
    // is closer than one that also had more of them).
    if c.is_absent() {
        let list = crate::reasons::culprit::list_entry(subject).map_or(subject, |(list, _)| list);
        return Some(format!("entries of {list} past {}", c.new));
    }
    if let Some(change) = one_number_change(c) {
        return Some(change);
    }
    let root = &subject[..subject.find("._modules['")?];
    let attribute = subject.rsplit_once("']")?.1.strip_prefix('.');
    let plain = attribute.is_some_and(|a| !a.is_empty() && a.chars().all(|ch| ch.is_ascii_alphanumeric() || ch == '_'));
    if let (true, Some(attribute)) = (plain, attribute) {
        return Some(format!("{root}._modules[*].{attribute}: {} -> {}", c.old, c.new));
    }
    // Any other value of several submodules that changed the same way (the
    // class of a pruning hook on `fc1` and on `fc2`: one pass of a
    // callback): the same path with the submodules' names left out.
    Some(format!("{}: {} -> {}", any_submodule(subject), c.old, c.new))
}

/// A size or stride whose changed dims all went from one number to another
/// (`[128, 16] -> [128, 8]`, strides `[16, 1] -> [8, 1]`): the tensors one
/// number shapes change together (a factorisation's rank, a batch size),
/// so they count as one value.
fn one_number_change(c: &crate::reasons::GuardChange) -> Option<String> {
    // A stride follows the sizes: one value with them.
    if !c.subject.ends_with(".size()") && !c.subject.ends_with(".stride()") {
        return None;
    }
    let dims = |v: &str| -> Option<Vec<String>> {
        let inner = v.strip_prefix('[')?.strip_suffix(']')?;
        Some(inner.split(", ").map(str::to_string).collect())
    };
    let (old, new) = (dims(&c.old)?, dims(&c.new)?);
    if old.len() != new.len() {
        return None;
    }
    let mut changed = old.iter().zip(&new).filter(|(a, b)| a != b);
    let first = changed.next()?;
    // A dim held symbolically (`None`) that went to one number (an empty
    // batch, 0) changes the same way in every tensor it shapes.
    let dim = |d: &String| d == "None" || d.parse::<u64>().is_ok();
    let numbers = |(a, b): (&String, &String)| dim(a) && dim(b);
    (numbers(first) && changed.all(|d| d == first)).then(|| format!("a dim of any tensor: {} -> {}", first.0, first.1))
}

/// `subject` with the name of every submodule it goes through as `*`.
fn any_submodule(subject: &str) -> String {
    let mut out = String::with_capacity(subject.len());
    let mut rest = subject;
    while let Some(at) = rest.find("._modules['") {
        let name = &rest[at + "._modules['".len()..];
        let Some(end) = name.find("']") else { break };
        out.push_str(&rest[..at]);
        out.push_str("._modules[*]");
        rest = &name[end + 2..];
    }
    out.push_str(rest);
    out
}

/// The `M` of `F/M` (or of `!A/F/M`); entries without an id sort first.
fn entry_number(entry: Option<&str>) -> Option<u32> {
    entry?.rsplit('/').next()?.parse().ok()
}

/// Puts the value Dynamo named first in `changed`, then the others it did
/// not report.
pub(in crate::analysis) fn lead_with_failed_subject(changed: &mut [crate::reasons::GuardChange], g: &GuardFailure) {
    let subject = failed_subject(&g.guard);
    changed.sort_by_key(|c| !(*c.subject == *subject || c.subject.starts_with(&format!("{subject}."))));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reasons::{split, GuardChange};

    fn change(subject: &str, old: &str, new: &str) -> GuardChange {
        GuardChange {
            subject: subject.into(),
            old: old.into(),
            new: new.into(),
        }
    }

    #[test]
    fn cause_is_the_newest_failed_entry_not_the_first_line() {
        let c = Compile {
            recompile_reasons: vec![split("0/1: b == 2"), split("0/0: a == 1"), split("0/2: c == 3")],
            ..Compile::default()
        };
        assert_eq!(cause_of(&c).unwrap().guard, "c == 3");
    }

    #[test]
    fn cause_without_entry_ids_is_the_first_reason() {
        let c = Compile {
            recompile_reasons: vec![split("x == 1"), split("y == 2")],
            ..Compile::default()
        };
        assert_eq!(cause_of(&c).unwrap().guard, "x == 1");
    }

    #[test]
    fn cause_is_the_entry_closest_to_the_new_call() {
        let mut grad = split("0/2: GLOBAL_STATE changed: grad_mode");
        grad.changes = Some(vec![
            change("grad_mode", "false", "true"),
            change("m.on", "True", "False"),
        ]);
        let mut length = split("0/1: tensor 'x' size mismatch at index 1. expected 608, actual 128");
        length.changes = Some(vec![
            change("x.size()", "[1, 608]", "[1, 128]"),
            change("m.on", "True", "False"),
        ]);
        let mut flag = split("0/0: m.on == True");
        flag.changes = Some(vec![change("m.on", "True", "False")]);
        let c = Compile {
            recompile_reasons: vec![grad, length, flag],
            ..Compile::default()
        };
        assert_eq!(cause_of(&c).unwrap().guard, "m.on == True");
        assert!(entry_distance_ties(&c, 2).is_empty());
    }

    #[test]
    fn lists_that_grow_together_are_one_change() {
        // tests/scenarios79's xbm_cross_batch_memory 0/2 (torch 2.15): two
        // memory lists appended to at each step; the empty entry guards only
        // `not mem_feats`, so it differs in one value, as the newest does.
        let mut newest = split("0/1: len(mem_feats) == 1");
        newest.changes = Some(vec![
            change("len(mem_feats)", "1", "2"),
            change("len(mem_labels)", "1", "2"),
        ]);
        let mut empty = split("0/0: not mem_feats");
        empty.changes = Some(vec![]);
        let c = Compile {
            recompile_reasons: vec![newest, empty],
            ..Compile::default()
        };
        assert_eq!(cause_of(&c).unwrap().entry.as_deref(), Some("0/1"));
    }

    #[test]
    fn size_expressions_one_size_change_flips_count_as_that_size() {
        // tests/scenarios2's numpy_feature_window 0/2 (torch 2.14): the
        // modulo guard of 0/1 and its complement both read the signal's
        // length, so 0/1 differs in one value, as 0/0 does: newest wins.
        let mut modulo = split("0/1: ((1 + (___from_numpy(signal).size()[0] // 2)) % 4) == 3");
        modulo.changes = Some(vec![
            change("((1 + (___from_numpy(signal).size()[0] // 2)) % 4)", "3", "1"),
            change(
                "(4 + (-1)*((1 + (___from_numpy(signal).size()[0] // 2)) % 4))",
                "1",
                "3",
            ),
        ]);
        let mut size = split("0/0: tensor '___from_numpy(signal)' size mismatch at index 0. expected 256, actual 512");
        size.changes = Some(vec![change("___from_numpy(signal).size()", "[256]", "[None]")]);
        let both = [modulo.clone(), size.clone()];
        assert_eq!(distance(&modulo, &both), (1, 1));
        assert_eq!(distance(&size, &both), (1, 1));
        let c = Compile {
            recompile_reasons: vec![modulo, size],
            ..Compile::default()
        };
        assert_eq!(cause_of(&c).unwrap().entry.as_deref(), Some("0/1"));
        assert_eq!(value_read("L['x'].size()[1] + 2"), "L['x'].size()");
    }
}
