//! Judging a recompile, in the stages one reads it in: who owns the value
//! (`owner`), what the log shows happened next (`evidence`), the verdict
//! (`verdict`) and the fix written for that owner (`fix`, with what the
//! caller passed from `caller`). The rule table (`reasons`) says what a
//! guard is; this says what it means.

mod across;
pub mod caller;
pub mod evidence;
pub mod fix;
mod guard_text;
pub mod judgement;
pub mod owner;
mod recompile_facts;
pub mod run_pins;
pub mod verdict;

use super::cause::context;
use super::finding::Finding;
use crate::reasons::subject::guarded_tensor;
use crate::reasons::{failed_subject, Category};
use evidence::evidence;
use owner::ownership;

pub use evidence::EvidenceKind;
pub use judgement::Judgement;
pub use owner::{Ownership, ValueOwner};
pub use verdict::Severity;

/// Judges the recompiles of one frame (in compile order): each one's
/// owner, evidence, severity and fix. Repeats are counted over the frame.
pub(super) fn judge_frame(recompiles: &mut [Finding<'_>], pins: &run_pins::Pins) {
    let owners: Vec<Ownership> = recompiles
        .iter()
        .map(|f| match inner_guard(f) {
            // Whose value an unread text guards is not known: say so
            // rather than guess from its spelling.
            Some(_) if !inner_reason(f).recognised() => Ownership::by(ValueOwner::Unknown, None),
            Some(g) => ownership(g, &context(f.frame, f.compile), f.frame, f.compile),
            // No value changed that the log names: another region's first
            // compile has no owner to name.
            None if recompile_facts::other_region(f) => Ownership::by(ValueOwner::Unknown, None),
            None => Ownership::by(ValueOwner::UserArgument, None),
        })
        .collect();
    let keys: Vec<String> = recompiles.iter().zip(&owners).map(|(f, o)| cause_key(f, o)).collect();
    let alone = across::alone(recompiles, &owners);
    let mut unbounded = across::repeats(recompiles, &owners, &keys, &alone);
    let mut keys = keys;
    let changing = across::value_recurs(recompiles, &alone, &mut keys, &mut unbounded);
    let climbing = across::climbs(recompiles, &keys);
    let two_sides = across::two_sides_again(recompiles, &keys);
    let computed = across::computed_floats(recompiles, &keys);
    let again = across::made_dynamic_again(recompiles, &keys);
    for (i, c) in climbing.iter().enumerate() {
        unbounded[i] |= c.is_some() || computed[i].is_some();
    }
    for i in 0..recompiles.len() {
        let same: Vec<usize> = (0..recompiles.len())
            .filter(|&j| {
                across::one_cause(recompiles, &keys, i, j)
                    && (unbounded[j] || recompiles[j].compile.cache_limit)
                    && !across::other_variant(&recompiles[i], &recompiles[j])
            })
            .collect();
        let values_taken = across::values_taken(recompiles, &same);
        let same: Vec<&str> = same
            .iter()
            .map(|&j| recompiles[j].compile.compile_id.as_str())
            .collect();
        let filled = (i + 1..recompiles.len())
            .find(|&j| across::one_cause(recompiles, &keys, i, j) && recompiles[j].compile.cache_limit)
            .map(|j| recompiles[j].compile.compile_id.as_str());
        let mut fs = recompile_facts::facts(&recompiles[i], &owners[i], same, values_taken);
        fs.filled_limit = filled;
        let mut e = evidence(&fs);
        // A counter says more than "compiled again": it names the values.
        if let Some(values) = climbing[i]
            .as_ref()
            .filter(|_| e.kind.severity() == Severity::Expected || e.kind == EvidenceKind::Repeats)
        {
            e = evidence::Evidence::new(
                EvidenceKind::Repeats,
                format!(
                    "the value climbs by one from one recompile to the next ({values}; {}): a counter, whose values do not return while it counts",
                    fs.same_cause.join(", ")
                ),
            );
        } else if let Some(values) = computed[i].as_ref().filter(|_| e.kind.severity() == Severity::Expected) {
            e = evidence::Evidence::new(
                EvidenceKind::Repeats,
                format!(
                    "the values are floats carried to full precision ({values}; {}), computed or drawn, not picked, and none returned: a new value at every call, no set of variants",
                    fs.same_cause.join(", ")
                ),
            );
        } else if changing[i] && e.kind.severity() == Severity::Expected {
            e = evidence::Evidence::new(
                EvidenceKind::Repeats,
                format!(
                    "the value compiled this frame {} times ({}) under more than one guard: it keeps changing, no set of variants",
                    fs.same_cause.len(),
                    fs.same_cause.join(", ")
                ),
            );
        } else if let Some(j) = again[i].filter(|_| e.kind.severity() == Severity::Expected) {
            e = evidence::Evidence::new(
                EvidenceKind::Repeats,
                format!(
                    "torch made it dynamic at {} already, but an entry compiled since held it static again, so this recompile made it dynamic once more: it comes back with every such entry",
                    recompiles[j].compile.compile_id
                ),
            );
        } else if let Some(same) = two_sides[i]
            .as_ref()
            .filter(|_| e.kind.severity() == Severity::Expected)
        {
            e = evidence::Evidence::new(
                EvidenceKind::Repeats,
                format!(
                    "a value with two sides at most (a flag, a truth, None or not) compiled this frame {} times ({}): a side compiled again, so no set of variants",
                    same.len(),
                    same.iter()
                        .map(|&j| recompiles[j].compile.compile_id.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            );
        }
        // A size pinned at each new value of a number the call also changed
        // repeats only as often as the number does.
        let pinned_again = e.kind == EvidenceKind::Repeats
            && fs
                .guard
                .is_some_and(|g| guard_text::pinned(g, recompiles[i].compile.automatic_dynamic));
        let follows = (e.kind == EvidenceKind::Pinned || e.pinned_once || pinned_again)
            .then(|| across::size_follows_op_number(recompiles, &keys, i))
            .flatten();
        if let Some(why) = &follows {
            e = evidence::Evidence::new(EvidenceKind::OnePerVariant, why.clone());
        }
        let partner = (e.kind.severity() == Severity::Expected)
            .then(|| across::repeating_partner(recompiles, &unbounded, i))
            .flatten();
        let string = matches!(e.kind, EvidenceKind::OnePerVariant | EvidenceKind::DidNotRecur)
            .then(|| across::follows_string(&recompiles[i]))
            .flatten();
        let follows = follows.map(fix::Follows::Number).or(string.map(fix::Follows::String));
        let cause_recompiles = (0..recompiles.len())
            .filter(|&j| across::one_cause(recompiles, &keys, i, j))
            .count();
        let f = &mut recompiles[i];
        f.severity = e.kind.severity();
        let inner = inner_reason(f);
        let guard = inner_guard(f);
        let caller = guard.and_then(|g| caller_of(f, g));
        let pinned_elsewhere = guard
            .and_then(|g| run_pins::pinned_elsewhere(pins, f.frame, g))
            .map(|p| p.frame.as_str());
        f.cause.advice = fix::fix(&fix::FixInput {
            reason: &inner,
            guard,
            failures: &f.compile.recompile_reasons,
            ownership: &owners[i],
            evidence: &e,
            caller: caller.as_ref(),
            compile: f.compile,
            follows,
            partner,
            pinned_elsewhere,
            cause_recompiles,
        });
        f.judgement = Judgement {
            ownership: owners[i].clone(),
            evidence: e,
        };
    }
}

/// The failure the cause entry logged (also for a compile refused at the
/// limit: what filled the cache).
fn inner_guard<'r>(f: &Finding<'r>) -> Option<&'r crate::reasons::GuardFailure> {
    f.guard()
}

/// The cause as classified before the limit wrapped it.
fn inner_reason(f: &Finding<'_>) -> crate::reasons::RecompileReason {
    match f.cause_index {
        Some(i) if f.cause.category == Category::CacheLimit => {
            let mut r = f.reasons[i].clone();
            r.culprit = f.cause.culprit.clone();
            r
        }
        _ => f.cause.clone(),
    }
}

/// Recompiles with one key are one cause: the category and culprit, except
/// that everything a hook's closure holds (a flag, then the list it
/// appends to) is the hook's state, one cause.
pub fn cause_key(f: &Finding<'_>, o: &Ownership) -> String {
    let category = f.cause_category();
    let hook = category == Category::ClosureHookState
        || (matches!(o.owner, ValueOwner::Closure) && f.guard().is_some_and(|g| g.in_hook));
    if hook {
        return format!("hook:{}", root_name(&f.cause.culprit));
    }
    // The tensors of one list argument are one input: a batch whose
    // elements differ in size or order recompiles on whichever element
    // torch checked first.
    if let Some(list) = f
        .guard()
        .and_then(|g| crate::reasons::subject::sequence_element(&g.guard))
    {
        return format!("{}:{list}[*]", category.name());
    }
    // Each dim of a tensor is its own cause: dim 0 made dynamic after one
    // recompile says nothing of dim 1 filling the cache later.
    let dim = f
        .guard()
        .and_then(|g| crate::reasons::subject::size_mismatch_dim(&g.guard))
        .map_or(String::new(), |d| format!(":dim{d}"));
    // A value that was None on this call is one of two variants (None or
    // a value), not the same cause as the value changing.
    let none = if f.guard().is_some_and(guard_text::value_or_none_test) {
        ":or_none"
    } else {
        ""
    };
    format!("{}:{}{dim}{none}", category.name(), f.cause.culprit)
}

/// `mon` of `mon.enabled`, `len(mon.values)`, `not mon.values`.
pub fn root_name(culprit: &str) -> &str {
    let c = culprit.trim_start_matches("not ").trim_start_matches("len(");
    let end = c.find(['.', '[', ' ', ')']).unwrap_or(c.len());
    &c[..end]
}

/// What the call line passed for the guarded argument.
fn caller_of(f: &Finding<'_>, g: &crate::reasons::GuardFailure) -> Option<caller::CallerArg> {
    let code = f.called_from.as_ref()?.code.as_deref()?;
    let name = match guarded_tensor(&g.guard) {
        Some(t) => crate::reasons::culprit::strip_locals(t),
        None => failed_subject(&g.guard),
    };
    caller::caller_arg(code, &name, f.frame.function.as_deref())
}
