//! What the frame's other recompiles say of one of them: which repeat their
//! cause (a new string each time, a counter, a value compiled twice), a size
//! that follows a number the call changed, a value the same call changed that
//! recompiled the frame again, a value recurring under several guards, the
//! same value in another grad mode, a tensor that differs with a string
//! argument. The frame's judge hands the recompiles in compile order.

use super::evidence::{EvidenceKind, OPEN_STRINGS};
use super::guard_text;
use super::owner::{Ownership, ValueOwner};
use crate::analysis::finding::Finding;
use crate::reasons::{failed_subject, Category};

/// A size held static although automatic dynamic shapes are on, in a call
/// that also changed a number this frame keeps constant because an op
/// takes it as a Python number (`torch.linspace(-1, 1, res)`): the size
/// follows that number (the graph's output is res x res, compared with the
/// target), one graph per value of it, while its values are few. Only a
/// size: a number pinned itself is its own cause.
pub(super) fn size_follows_op_number(recompiles: &[Finding<'_>], keys: &[String], i: usize) -> Option<String> {
    let guard = recompiles[i]
        .guard()
        .filter(|g| g.guard.starts_with("tensor '") || g.guard.contains(".size()"))?;
    let frame = recompiles[i].frame;
    guard.changes.iter().flatten().find_map(|change| {
        change.old.parse::<f64>().ok()?;
        change.new.parse::<f64>().ok()?;
        let number = crate::reasons::culprit::strip_locals(&change.subject);
        let own = recompiles.iter().enumerate().find_map(|(j, r)| {
            let g = r.guard().filter(|_| std::ptr::eq(r.frame, frame))?;
            (failed_subject(&g.guard) == number).then_some(())?;
            Some((j, guard_text::op_number(g)?))
        });
        if let Some((j, op)) = own {
            let values = keys.iter().filter(|k| **k == keys[j]).count();
            return (values < OPEN_STRINGS).then(|| {
                format!(
                    "the size follows a number this call also changed ({}), which {op} takes as a Python number: one graph per value of it, each compiled once and reused when it returns",
                    change.describe()
                )
            });
        }
        // No compile failed on the number itself (the size's guard is
        // checked first), but the call passed it (`scale`, an upscale
        // factor) and the entry holds it as a constant: the size follows it
        // while its values are few.
        let argument = crate::reasons::culprit::is_plain_name(&number);
        let values = keys.iter().filter(|k| **k == keys[i]).count();
        (argument && values < OPEN_STRINGS).then(|| {
            format!(
                "the size follows a number this call also passed, changed ({}), which the compiled code holds as a constant: one graph per value of it, each compiled once and reused when it returns",
                change.describe()
            )
        })
    })
}

/// A call that changed two values at once (an optimizer's first step and
/// its lr, a meter's mean and its count) is judged by the value torch
/// reported: fixing the other value would not remove this compile. When
/// the other value is the cause of two or more later recompiles of the
/// frame, the advice says so, so that the user finds where it began.
pub(super) fn repeating_partner(recompiles: &[Finding<'_>], unbounded: &[bool], i: usize) -> Option<String> {
    let guard = recompiles[i].guard()?;
    let own = failed_subject(&guard.guard);
    let generation = recompiles[i].frame.generation;
    guard.changes.iter().flatten().find_map(|change| {
        let subject = crate::reasons::culprit::strip_locals(&change.subject);
        if subject == own || change.new_is_dynamic() {
            return None;
        }
        let later: Vec<&str> = (i + 1..recompiles.len())
            .filter(|&j| {
                let r = &recompiles[j];
                unbounded[j]
                    && r.frame.generation == generation
                    && r.guard().is_some_and(|g| failed_subject(&g.guard) == subject)
            })
            .map(|j| recompiles[j].compile.compile_id.as_str())
            .collect();
        (later.len() >= 2).then(|| {
            format!(
                "This call also changed {}, which then compiled the frame again at {}: that repeat begins here; see its own fix.",
                change.describe(),
                later.join(", ")
            )
        })
    })
}

/// Two recompiles of one cause where the entry the earlier one compiled
/// was still there at the later one and failed on torch's global state
/// (a layer's weight compiled again under `no_grad` for evaluation): the
/// same value in the other mode, each pair compiled once: training times
/// evaluation, not the value's repeat.
pub(super) fn other_variant(a: &Finding<'_>, b: &Finding<'_>) -> bool {
    if std::ptr::eq(a, b) {
        return false;
    }
    // Compile order, not the ids' text ("18/10" sorts before "18/9").
    let (early, late) = if a.compile.frame_compile_id <= b.compile.frame_compile_id {
        (a, b)
    } else {
        (b, a)
    };
    let held = early.guard().and_then(guard_text::held_constant);
    if held.is_none() || held != late.guard().and_then(guard_text::held_constant) {
        return false;
    }
    late.compile.recompile_reasons.iter().zip(&late.reasons).any(|(g, r)| {
        g.entry.as_deref() == Some(early.compile.compile_id.as_str())
            && r.category == crate::reasons::Category::TorchGlobalState
    })
}

/// A tensor guard failed (a layout, a size) in a call that also passed
/// another string the entry holds as a constant (einsum's equation, a mode):
/// the tensor differs because the call is another use of the function, one
/// graph per string. The string's change, described.
pub(super) fn follows_string(f: &Finding<'_>) -> Option<String> {
    let guard = f.guard()?;
    if !guard.guard.trim_start().starts_with("tensor '") {
        return None;
    }
    let quoted = |v: &str| v.len() >= 2 && v.starts_with('\'') && v.ends_with('\'');
    guard
        .changes
        .iter()
        .flatten()
        .find(|c| {
            // A string the call passes itself (`eq`), not a name torch reads
            // off an object (a class's name, an adapter's).
            let name = crate::reasons::culprit::strip_locals(&c.subject);
            quoted(&c.old) && quoted(&c.new) && crate::reasons::culprit::is_plain_name(&name)
        })
        .map(|c| c.describe())
}

/// What a recompile's own evidence says, before the frame's other
/// recompiles of its cause are read (`repeats` and `value_recurs` both
/// start from it).
pub(super) struct Alone {
    /// One of a few variants by its own guard (a flag, a mode, a dtype).
    pub bounded: bool,
    /// Torch made the value dynamic at this recompile.
    pub became_dynamic: bool,
}

pub(super) fn alone(recompiles: &[Finding<'_>], owners: &[Ownership]) -> Vec<Alone> {
    recompiles
        .iter()
        .zip(owners)
        .map(|(f, o)| {
            let facts = super::recompile_facts::facts(f, o, Vec::new(), 0);
            Alone {
                bounded: super::evidence::bounded(&facts).is_some(),
                became_dynamic: super::evidence::evidence(&facts).kind == EvidenceKind::BecameDynamic,
            }
        })
        .collect()
}

/// One value that recompiled the frame under more than one guard (`is
/// None`, then `== 1`, `== 2`: a library's step index reset per request) at
/// OPEN_STRINGS recompiles or more keeps changing: no set of variants. Its
/// recompiles become one cause (their keys merged) and unbounded; the
/// returned flags mark them.
///
/// A recompile at which torch made the value dynamic is no such form: it
/// ended the specialisation (later values compile nothing).
pub(super) fn value_recurs(
    recompiles: &[Finding<'_>],
    alone: &[Alone],
    keys: &mut [String],
    unbounded: &mut [bool],
) -> Vec<bool> {
    let values: Vec<Option<&str>> = recompiles
        .iter()
        .zip(alone)
        .map(|(f, a)| {
            (matches!(f.cause_category(), Category::TypeChange | Category::ConstantValue) && !a.became_dynamic)
                .then_some(f.cause.culprit.as_str())
        })
        .collect();
    let mut changing = vec![false; recompiles.len()];
    for i in 0..recompiles.len() {
        let Some(value) = values[i].filter(|_| !changing[i]) else {
            continue;
        };
        let same: Vec<usize> = (0..recompiles.len())
            .filter(|&j| recompiles[j].frame.generation == recompiles[i].frame.generation && values[j] == Some(value))
            .collect();
        let forms: std::collections::BTreeSet<&str> = same.iter().map(|&j| keys[j].as_str()).collect();
        if same.len() >= OPEN_STRINGS && forms.len() >= 2 {
            for j in same {
                unbounded[j] = true;
                changing[j] = true;
                keys[j] = format!("value:{value}");
            }
        }
    }
    changing
}

/// Which recompiles of the frame repeat their cause rather than compile one
/// of a few variants: the value's own evidence, then what the frame's other
/// recompiles of one cause show (a new string at every recompile, a counter
/// stepped by one, a value compiled twice).
pub(super) fn repeats(recompiles: &[Finding<'_>], owners: &[Ownership], keys: &[String], alone: &[Alone]) -> Vec<bool> {
    // A recompile that made the value dynamic for the entry it failed (one
    // per class sharing a wrapper frame, say) is no repeat: nothing was
    // specialised again.
    let mut unbounded: Vec<bool> = alone.iter().map(|a| !a.bounded && !a.became_dynamic).collect();
    // A string compared as a constant is an option with a few values only
    // while few show up: a new string at three recompiles of one cause (a
    // value that never returns, `f"m{n}"`) is no option set. So is a number
    // an op needs as a number (a scale per pyramid level, a step count), and
    // a branch on a size: it has two sides, and a third compile of it
    // compiled a side again.
    for i in 0..recompiles.len() {
        let string = recompiles[i].guard().is_some_and(|g| {
            (super::evidence::open_string(&g.guard) && !word_options(recompiles, keys, i))
                || guard_text::specialised_number(g)
                || guard_text::branch_bound(g).is_some()
                || (g.guard.trim_start().starts_with("len(") && owners[i].owner == ValueOwner::UserArgument)
        });
        if string && keys.iter().filter(|k| **k == keys[i]).count() >= OPEN_STRINGS {
            unbounded[i] = true;
        }
    }
    // An int stepped by one at two recompiles of one cause is a counter
    // (a library's update count, a step number): its values do not return.
    for i in 0..recompiles.len() {
        let counter = recompiles[i].guard().is_some_and(guard_text::counter_step);
        // An argument the caller passes stepping 0, 1, 2 is as likely a
        // choice made in turn (a task id, an order per experiment): a
        // counter only at a third step, like any open set of values.
        let needed = if owners[i].owner == ValueOwner::UserArgument {
            OPEN_STRINGS
        } else {
            2
        };
        if counter && keys.iter().filter(|k| **k == keys[i]).count() >= needed {
            unbounded[i] = true;
        }
    }
    // A set of variants is bounded only while each variant compiles once:
    // a value the frame compiled an entry for before, compiled again for
    // the same cause (a model's depth, a flag's None and int, a mode), was
    // not reused; both compiles repeat.
    let now = guard_text::held_constant;
    for i in 0..recompiles.len() {
        let Some(new) = recompiles[i].guard().and_then(now) else {
            continue;
        };
        let again: Vec<usize> = (0..i)
            .filter(|&j| one_cause(recompiles, keys, i, j) && recompiles[j].guard().and_then(now) == Some(new))
            .collect();
        if !again.is_empty() {
            unbounded[i] = true;
            again.into_iter().for_each(|j| unbounded[j] = true);
        }
    }
    unbounded
}

/// A cause whose recompiles hold ints that climb by one, one recompile
/// after another (2, 3, 4, 5: a scheduler's step index, whichever of its
/// stages' entries each call failed), at OPEN_STRINGS recompiles or more:
/// a counter, whose values do not return while it counts. The values, for
/// each recompile of such a cause.
pub(super) fn climbs(recompiles: &[Finding<'_>], keys: &[String]) -> Vec<Option<String>> {
    let held: Vec<Option<i64>> = recompiles
        .iter()
        .map(|f| {
            f.guard()
                .filter(|g| !g.guard.trim_start().starts_with("len("))
                .and_then(guard_text::held_constant)
                .and_then(|v| v.trim().parse().ok())
        })
        .collect();
    let mut out = vec![None; recompiles.len()];
    for i in 0..recompiles.len() {
        if out[i].is_some() || held[i].is_none() {
            continue;
        }
        let group: Vec<usize> = (i..recompiles.len())
            .filter(|&j| one_cause(recompiles, keys, i, j))
            .collect();
        let values: Option<Vec<i64>> = group.iter().map(|&j| held[j]).collect();
        let Some(values) = values else { continue };
        if values.len() >= OPEN_STRINGS && values.windows(2).all(|w| w[1] == w[0] + 1) {
            let text = values.iter().map(i64::to_string).collect::<Vec<_>>().join(", ");
            for j in group {
                out[j] = Some(text.clone());
            }
        }
    }
    out
}

/// A cause that compiled the frame twice or more, each time failing on a
/// float carried to full precision (`___stack0 == 0.8323994956551746`: a
/// random draw, a ratio of data) and never on one it failed on before:
/// computed values, a new one at each call, no set of variants (settings
/// a person picks are short: 0.5, 1e-3). The values, for each recompile of
/// such a cause.
pub(super) fn computed_floats(recompiles: &[Finding<'_>], keys: &[String]) -> Vec<Option<String>> {
    let value = |f: &Finding<'_>| f.guard().and_then(|g| guard_text::full_precision_float(&g.guard));
    let mut out = vec![None; recompiles.len()];
    for i in 0..recompiles.len() {
        if out[i].is_some() || value(&recompiles[i]).is_none() {
            continue;
        }
        let group: Vec<usize> = (i..recompiles.len())
            .filter(|&j| one_cause(recompiles, keys, i, j))
            .collect();
        let values: Option<Vec<f64>> = group.iter().map(|&j| value(&recompiles[j])).collect();
        let Some(values) = values else { continue };
        let distinct = values.iter().enumerate().all(|(k, v)| !values[..k].contains(v));
        if values.len() >= 2 && distinct {
            let text = values.iter().map(|v| format!("{v:.4}")).collect::<Vec<_>>().join(", ");
            for j in group {
                out[j] = Some(text.clone());
            }
        }
    }
    out
}

/// A cause whose value has two sides at most (a flag, a truth, None or
/// not) that compiled the frame OPEN_STRINGS times or more (an optimizer's
/// state, empty or not, failing at every step): a side compiled again, so
/// no set of variants. Their indices, for each recompile of such a cause.
pub(super) fn two_sides_again(recompiles: &[Finding<'_>], keys: &[String]) -> Vec<Option<Vec<usize>>> {
    (0..recompiles.len())
        .map(|i| {
            let two = recompiles[i].guard().is_some_and(|g| guard_text::boolean(&g.guard));
            let same: Vec<usize> = (0..recompiles.len())
                .filter(|&j| one_cause(recompiles, keys, i, j))
                .collect();
            // Two-sided only if every failure of the cause was: a value
            // tested for None once and compared with 199, then 399, later
            // (a cache filled, then refilled) has more sides than two.
            let all_two = same
                .iter()
                .all(|&j| recompiles[j].guard().is_some_and(|g| guard_text::boolean(&g.guard)));
            (two && all_two && same.len() >= OPEN_STRINGS).then_some(same)
        })
        .collect()
}

/// Recompiles `i` and `j` of the frame have one cause (one key) in one
/// generation of its compile ids (`torch._dynamo.reset()` restarts them).
pub(super) fn one_cause(recompiles: &[Finding<'_>], keys: &[String], i: usize, j: usize) -> bool {
    keys[j] == keys[i] && recompiles[j].frame.generation == recompiles[i].frame.generation
}

/// The strings one cause compared with are words a parameter takes (`'micro'`,
/// `'macro'`, `'weighted'`: torchmetrics' `average`), not one text with a
/// number that keeps changing (`f"m{n}"`): distinct once their digits are
/// dropped, and fewer than a sweep would bring.
fn word_options(recompiles: &[Finding<'_>], keys: &[String], i: usize) -> bool {
    const WORDS_AT_MOST: usize = 5;
    let strings: Vec<String> = (0..recompiles.len())
        .filter(|&j| keys[j] == keys[i])
        .filter_map(|j| {
            let value = guard_text::compared_value(&recompiles[j].guard()?.guard)?;
            Some(value.chars().filter(|c| !c.is_ascii_digit()).collect())
        })
        .collect();
    let distinct = strings.iter().enumerate().all(|(k, s)| !strings[..k].contains(s));
    distinct && strings.len() < WORDS_AT_MOST
}

/// How many values the recompiles `same` (indices into `recompiles`)
/// changed their cause to; as many as the recompiles where one does not
/// name its new value.
pub(super) fn values_taken(recompiles: &[Finding<'_>], same: &[usize]) -> usize {
    let mut values = Vec::new();
    for &j in same {
        match recompiles[j].cause.changed.first().map(|c| &c.new) {
            Some(v) if !values.contains(&v) => values.push(v),
            Some(_) => {}
            None => return same.len(),
        }
    }
    values.len()
}

/// A value torch made dynamic at an earlier recompile of the same cause,
/// made dynamic again at this one: an entry in between (compiled for
/// another reason, a new key or length) held it static again, so the first
/// was the expected one-off and this one is a re-specialisation that comes
/// back with every such entry. The earlier recompile, for each.
pub(super) fn made_dynamic_again(recompiles: &[Finding<'_>], keys: &[String]) -> Vec<Option<usize>> {
    // Each (value, dim) this recompile made dynamic: `[8, 1] -> [None, 1]`
    // is dim 0 of the stride; a height and then a width of one tensor are
    // two dims, each made dynamic once.
    let made_dynamic = |i: usize| -> Vec<(&str, usize)> {
        let changes = recompiles[i].guard().and_then(|g| g.changes.as_ref());
        let dims = |v: &str| -> Vec<String> {
            v.trim_matches(|c| c == '[' || c == ']')
                .split(',')
                .map(|d| d.trim().to_string())
                .collect()
        };
        changes
            .into_iter()
            .flatten()
            .filter(|c| c.new_is_dynamic())
            .flat_map(|c| {
                let (old, new) = (dims(&c.old), dims(&c.new));
                (0..new.len())
                    .filter(move |&d| new[d] == "None" && old.get(d).is_some_and(|o| o != "None"))
                    .map(move |d| (&*c.subject, d))
                    .collect::<Vec<_>>()
            })
            .collect()
    };
    // The entry this recompile failed was compiled after the earlier one
    // made the dim dynamic: that entry held it static again (an entry
    // compiled before it, failed by a second dim, is no such pin).
    let entry = |i: usize| -> Option<u64> {
        let e = recompiles[i].guard()?.entry.as_deref()?;
        e.rsplit('/').next()?.parse().ok()
    };
    // Once may be a bounded set's turn (generate()'s second prompt makes
    // the cache length dynamic again, once); a third time it came back.
    let dims: Vec<Vec<(&str, usize)>> = (0..recompiles.len()).map(made_dynamic).collect();
    (0..recompiles.len())
        .map(|i| {
            let now = &dims[i];
            let times = (0..recompiles.len())
                .filter(|&j| keys[j] == keys[i] && dims[j].iter().any(|s| now.contains(s)))
                .count();
            if times < OPEN_STRINGS {
                return None;
            }
            (0..i).find(|&j| {
                keys[j] == keys[i]
                    && recompiles[j]
                        .compile
                        .frame_compile_id
                        .is_some_and(|c| entry(i).is_some_and(|e| e > u64::from(c)))
                    && dims[j].iter().any(|s| now.contains(s))
            })
        })
        .collect()
}
