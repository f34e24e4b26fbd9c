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
pub mod verdict;

use super::cause::context;
use super::finding::Finding;
use crate::reasons::subject::guarded_tensor;
use crate::reasons::{failed_subject, Category};
use evidence::{bounded, evidence, Facts};
use owner::ownership;

pub use evidence::EvidenceKind;
pub use judgement::Judgement;
pub use owner::{Ownership, ValueOwner};
pub use verdict::Severity;

/// Judges the recompiles of one frame (in compile order): each one's
/// owner, evidence, severity and fix. Repeats are counted over the frame.
pub(super) fn judge_frame(recompiles: &mut [Finding<'_>]) {
    let owners: Vec<Ownership> = recompiles
        .iter()
        .map(|f| match inner_guard(f) {
            // Whose value an unread text guards is not known: say so
            // rather than guess from its spelling.
            Some(_) if !inner_reason(f).recognised() => Ownership {
                owner: ValueOwner::Unknown,
                set_by: None,
            },
            Some(g) => ownership(g, &context(f.frame, f.compile), f.frame, f.compile),
            None => Ownership {
                owner: ValueOwner::UserArgument,
                set_by: None,
            },
        })
        .collect();
    let keys: Vec<String> = recompiles.iter().zip(&owners).map(|(f, o)| cause_key(f, o)).collect();
    let mut unbounded: Vec<bool> = recompiles
        .iter()
        .zip(&owners)
        .map(|(f, o)| {
            // A recompile that made the value dynamic for the entry it
            // failed (one per class sharing a wrapper frame, say) is no
            // repeat: nothing was specialised again.
            let alone = facts(f, o, Vec::new());
            bounded(&alone).is_none() && evidence(&alone).kind != EvidenceKind::BecameDynamic
        })
        .collect();
    // A string compared as a constant is an option with a few values only
    // while few show up: a new string at three recompiles of one cause (a
    // value that never returns, `f"m{n}"`) is no option set. So is a number
    // an op needs as a number (a scale per pyramid level, a step count).
    for i in 0..recompiles.len() {
        let string = inner_guard(&recompiles[i]).is_some_and(|g| {
            evidence::open_string(&g.guard)
                || guard_text::specialised_number(g)
                || (g.guard.trim_start().starts_with("len(") && owners[i].owner == ValueOwner::UserArgument)
        });
        if string && keys.iter().filter(|k| **k == keys[i]).count() >= evidence::OPEN_STRINGS {
            unbounded[i] = true;
        }
    }
    // An int stepped by one at two recompiles of one cause is a counter
    // (a library's update count, a step number): its values do not return.
    for i in 0..recompiles.len() {
        let counter = inner_guard(&recompiles[i]).is_some_and(guard_text::counter_step);
        if counter && keys.iter().filter(|k| **k == keys[i]).count() >= 2 {
            unbounded[i] = true;
        }
    }
    // A set of variants is bounded only while each variant compiles once:
    // a value the frame compiled an entry for before, compiled again for
    // the same cause (a model's depth, a flag's None and int, a mode), was
    // not reused; both compiles repeat.
    let now = guard_text::held_constant;
    for i in 0..recompiles.len() {
        let Some(new) = inner_guard(&recompiles[i]).and_then(now) else {
            continue;
        };
        let again: Vec<usize> = (0..i)
            .filter(|&j| {
                keys[j] == keys[i]
                    && recompiles[j].frame.generation == recompiles[i].frame.generation
                    && inner_guard(&recompiles[j]).and_then(now) == Some(new)
            })
            .collect();
        if !again.is_empty() {
            unbounded[i] = true;
            again.into_iter().for_each(|j| unbounded[j] = true);
        }
    }
    let mut keys = keys;
    let changing = across::value_recurs(recompiles, &mut keys, &mut unbounded);
    let mut partners = Vec::new();
    for i in 0..recompiles.len() {
        let same: Vec<&str> = (0..recompiles.len())
            .filter(|&j| {
                keys[j] == keys[i]
                    && recompiles[j].frame.generation == recompiles[i].frame.generation
                    && (unbounded[j] || recompiles[j].compile.cache_limit)
                    && !across::other_variant(&recompiles[i], &recompiles[j])
            })
            .map(|j| recompiles[j].compile.compile_id.as_str())
            .collect();
        let filled = (i + 1..recompiles.len())
            .find(|&j| {
                keys[j] == keys[i]
                    && recompiles[j].compile.cache_limit
                    && recompiles[j].frame.generation == recompiles[i].frame.generation
            })
            .map(|j| recompiles[j].compile.compile_id.as_str());
        let mut fs = facts(&recompiles[i], &owners[i], same);
        fs.filled_limit = filled;
        let mut e = evidence(&fs);
        if changing[i] && e.kind.severity() == Severity::Expected {
            e = evidence::Evidence::new(
                EvidenceKind::Repeats,
                format!(
                    "the value compiled this frame {} times ({}) under more than one guard: it keeps changing, no set of variants",
                    fs.same_cause.len(),
                    fs.same_cause.join(", ")
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
        if e.kind.severity() == Severity::Expected {
            if let Some(note) = across::repeating_partner(recompiles, &unbounded, i) {
                partners.push((i, note));
            }
        }
        let f = &mut recompiles[i];
        f.severity = e.kind.severity();
        let advice = {
            let inner = inner_reason(f);
            let guard = inner_guard(f);
            let caller = guard.and_then(|g| caller_of(f, g));
            fix::fix(&fix::FixInput {
                reason: &inner,
                guard,
                failures: &f.compile.recompile_reasons,
                ownership: &owners[i],
                evidence: &e,
                caller: caller.as_ref(),
                compile: f.compile,
            })
        };
        let string = matches!(e.kind, EvidenceKind::OnePerVariant | EvidenceKind::DidNotRecur)
            .then(|| across::follows_string(f))
            .flatten();
        f.cause.advice = match (&follows, string) {
            (Some(why), _) => format!(
                "Expected: {why}. No action needed while its values are a fixed few (stages, levels); a tensor cannot replace a number an op takes. To have one graph, compute what needs the number outside the compiled function and pass the result in."
            ),
            (None, Some(string)) => format!(
                "Expected: this call also passed another string ({string}), which the compiled code holds as a constant: one graph per string, each compiled once and reused when it returns, and the tensors differ with it. No action needed while the strings are a fixed few; to share one graph, compile the code that calls this function (the whole model) rather than the function called with each string."
            ),
            (None, None) => advice,
        };
        f.judgement = Judgement {
            ownership: owners[i].clone(),
            evidence: e,
        };
    }
    for (i, note) in partners {
        let advice = format!("{} {note}", recompiles[i].cause.advice.trim_end());
        recompiles[i].cause.advice = advice;
    }
}

fn facts<'a>(f: &'a Finding<'_>, o: &'a Ownership, same_cause: Vec<&'a str>) -> Facts<'a> {
    let inner = f.cause_index.map(|i| &f.reasons[i]);
    Facts {
        category: f.cause_category(),
        recognised: inner.map_or(f.cause.recognised(), |r| r.recognised()),
        form: inner.map_or(f.cause.form, |r| r.form),
        culprit: &f.cause.culprit,
        ownership: o,
        compile: f.compile,
        guard: inner_guard(f),
        same_cause,
        declared: entry_compile(f).map_or(&[][..], |c| c.declared_ranges.as_slice()),
        retry_of: f
            .guard()
            .is_none()
            .then(|| {
                f.frame
                    .compiles
                    .iter()
                    .rfind(|c| c.frame_compile_id < f.compile.frame_compile_id)
            })
            .flatten()
            .filter(|c| c.failed && c.finished),
        filled_limit: None,
    }
}

/// The compile of the cause entry (`F/M` of its reason).
fn entry_compile<'r>(f: &Finding<'r>) -> Option<&'r crate::model::Compile> {
    let entry = f.guard()?.entry.as_deref()?;
    f.frame.compiles.iter().find(|c| c.compile_id == entry)
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
    format!("{}:{}{dim}", category.name(), f.cause.culprit)
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
