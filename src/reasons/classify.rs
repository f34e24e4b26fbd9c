//! Classification of one recompile reason into category, culprit, source,
//! detail and advice, using the rule table in `rules.rs`.

use super::change::GuardChange;
use super::culprit::{self, from_guard_on_hint};
use super::rule::{Culprit, Rule, When};
use super::rules::rules;
use super::split::GuardFailure;
use regex::{Captures, Regex};
use serde::Serialize;

pub use super::category::Category;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RecompileReason {
    pub category: Category,
    /// The stable id of the table row that read the guard text
    /// (`tensor.size`), or `unrecognised` when no row did: then nothing
    /// but the text itself (and torch's own HINT) is said about it.
    pub form: &'static str,
    /// What a user would name: `pos_encoding.pos_enc_cache (buffer)`.
    pub culprit: String,
    /// The user's `file.py:LINE`, when the text gives one.
    pub source: Option<String>,
    /// The source line Dynamo quotes, when it does.
    pub code: Option<String>,
    pub detail: Option<String>,
    pub advice: String,
    /// The user's line that called into the compiled code (`file:line`, the
    /// full path): the innermost frame of the compile's stack that is
    /// neither torch nor an installed library.
    pub called_from: Option<String>,
    /// That line's code, as Dynamo quotes it.
    pub called_from_code: Option<String>,
    /// The guard's line when it points into an installed library.
    pub library_line: Option<String>,
    /// Every guarded value that differs between the failed cache entry and
    /// the new compile: what actually changed, also where Dynamo names one.
    pub changed: Vec<GuardChange>,
}

/// What is known about where a guard failed, beyond its text.
#[derive(Clone, Copy, Debug, Default)]
pub struct Context<'a> {
    /// The compiled frame is an optimizer's step (torch/optim code).
    pub optimizer: bool,
    /// A library's `generate()` is on the stack that called the frame.
    pub generate: bool,
    /// `automatic_dynamic_shapes` in the compile's config.
    pub automatic_dynamic: Option<bool>,
    /// The class of the object the frame was compiled for.
    pub compiled_class: Option<&'a str>,
    /// The compiled frame's `self` is an `nn.Module` (Some(false): an
    /// object of another class; None: no `self`, or the log does not say).
    pub receiver_is_module: Option<bool>,
}

struct CompiledRule {
    regex: Regex,
    rule: Rule,
}

fn table() -> &'static [CompiledRule] {
    static TABLE: OnceLock<Vec<CompiledRule>> = OnceLock::new();
    // Built on first use, after the parse, when the cores are idle: on all
    // of them (compiling the rules costs about as much as classifying a
    // whole log). On threads of its own, not rayon's: a rayon thread
    // waiting here could take on other work that classifies, and enter
    // this initialisation again.
    TABLE.get_or_init(|| {
        let mut rules = rules();
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
        let per_thread = rules.len().div_ceil(threads).max(1);
        let mut chunks = Vec::new();
        while !rules.is_empty() {
            let rest = rules.split_off(per_thread.min(rules.len()));
            chunks.push(std::mem::replace(&mut rules, rest));
        }
        let compile = |chunk: Vec<Rule>| -> Vec<CompiledRule> {
            chunk
                .into_iter()
                .map(|rule| CompiledRule {
                    regex: Regex::new(rule.pattern).expect("rule pattern is valid"),
                    rule,
                })
                .collect()
        };
        std::thread::scope(|scope| {
            let handles: Vec<_> = chunks.into_iter().map(|c| scope.spawn(move || compile(c))).collect();
            handles
                .into_iter()
                .flat_map(|h| h.join().expect("compiling a rule does not panic"))
                .collect()
        })
    })
}

/// Reasons classified so far in this process: the views of a command share
/// one analysis, so a command classifies each reason once (a test holds it
/// to that).
static CLASSIFIED: AtomicU64 = AtomicU64::new(0);

pub fn classifications() -> u64 {
    CLASSIFIED.load(Ordering::Relaxed)
}

pub fn classify(g: &GuardFailure) -> RecompileReason {
    classify_in(g, &Context::default())
}

/// Classifies with what the compile's stack and frame tell (an optimizer
/// step, a `generate()` call): some rows apply only there.
pub fn classify_in(g: &GuardFailure, ctx: &Context<'_>) -> RecompileReason {
    CLASSIFIED.fetch_add(1, Ordering::Relaxed);
    let guard = culprit::canonical(&g.guard);
    for row in table() {
        let applies = match row.rule.when {
            When::Always => true,
            When::Optimizer => ctx.optimizer,
            When::Generate => ctx.generate,
            When::InHook => g.in_hook,
            When::ModuleHint => g
                .hint
                .as_deref()
                .is_some_and(|h| h.contains("attributes of the nn.Module")),
            When::ModuleReceiver => ctx.receiver_is_module != Some(false),
            When::NowTensor => matches!(g.now, Some(super::change::GuardedNow::Tensor)),
            When::ReadInLibrary => g.read_in_library(),
            When::ReadAsSelfInForward => g.read_as_self_in_forward(),
        };
        if !applies {
            continue;
        }
        if let Some(caps) = row.regex.captures(&guard) {
            return apply(&row.rule, &caps, g, ctx);
        }
    }
    unrecognised(g, &guard)
}

/// No row reads this text: the reason says so and names only what the
/// text itself names (torch's `guard on "v"` hint, else the text's own
/// subject). The advice is torch's own HINT when it gave one, never a
/// guess: a later stage keeps it that way.
fn unrecognised(g: &GuardFailure, guard: &str) -> RecompileReason {
    let subject = culprit::subject_of(guard);
    let advice = match g.hint.as_deref() {
        Some(h) => format!("No fix offered: guardscope does not recognise this guard text. Torch's own hint: {h}"),
        None => format!(
            "No fix offered: guardscope does not recognise this guard text, and torch gave no hint. The raw text: {}",
            g.guard.trim()
        ),
    };
    RecompileReason {
        category: Category::Other,
        form: UNRECOGNISED,
        culprit: g
            .hint
            .as_deref()
            .and_then(from_guard_on_hint)
            .unwrap_or_else(|| short(&culprit::render(subject))),
        source: g.source.clone(),
        code: g.code.clone(),
        detail: Some(format!("not recognised: {}", g.guard.trim())),
        advice,
        ..located(g)
    }
}

/// The `form` of a reason no row of the table read.
pub const UNRECOGNISED: &str = "unrecognised";

impl RecompileReason {
    /// A row of the table read the guard text (false: the verdict is "not
    /// recognised", with no reason or fix beyond the text's own).
    pub fn recognised(&self) -> bool {
        self.form != UNRECOGNISED && self.form != NO_REASON
    }
}

/// The `form` of a recompile whose log holds no reason text.
pub const NO_REASON: &str = "no_reason";

/// Classifies every failure of one compile: each on its own, then what
/// one failure tells of another's value. A length guard `len(X)` is on a
/// dict when another failure tests a key of X (`___dict_contains(k, X)`):
/// its keys changed, not a list's length.
pub fn classify_all(guards: &[GuardFailure], ctx: &Context<'_>) -> Vec<RecompileReason> {
    let mut reasons: Vec<RecompileReason> = guards.iter().map(|g| classify_in(g, ctx)).collect();
    for (r, g) in reasons.iter_mut().zip(guards) {
        if r.category != Category::ContainerLen {
            continue;
        }
        let guard = culprit::canonical(&g.guard);
        let Some(of) = super::subject::container_tested(&guard) else {
            continue;
        };
        let keyed = guards
            .iter()
            .any(|o| super::subject::dict_key_test(&o.guard).is_some_and(|(_, dict)| dict == of));
        if g.dict_subject {
            r.category = Category::DictKeys;
            r.detail = Some(format!(
                "{of} holds another number of keys (the failed entry guarded each of its keys: a dict)"
            ));
            r.advice = super::rules::DICT_KEYS_ADVICE.into();
        } else if keyed {
            r.category = Category::DictKeys;
            r.detail = Some(format!(
                "the dict {of} holds another number of keys (another failure tests its keys)"
            ));
            r.advice = super::rules::DICT_KEYS_ADVICE.into();
        }
    }
    reasons
}

/// The parts of a reason that come from where the guard points.
fn located(g: &GuardFailure) -> RecompileReason {
    RecompileReason {
        category: Category::Other,
        form: UNRECOGNISED,
        culprit: String::new(),
        source: g.source.clone(),
        code: g.code.clone(),
        detail: None,
        advice: String::new(),
        called_from: None,
        called_from_code: None,
        library_line: g.library_location().map(|l| l.short()),
        changed: g.changes.clone().unwrap_or_default(),
    }
}

fn apply(rule: &Rule, caps: &Captures<'_>, g: &GuardFailure, ctx: &Context<'_>) -> RecompileReason {
    let culprit = match rule.culprit {
        Culprit::Source(name) => match caps.name(name) {
            Some(m) => culprit::render(m.as_str()),
            None => short(&culprit::render(culprit::subject_of(&culprit::canonical(&g.guard)))),
        },
        Culprit::Template(t) => expand(t, caps, ""),
        Culprit::HintOr(t) => g
            .hint
            .as_deref()
            .and_then(from_guard_on_hint)
            .unwrap_or_else(|| expand(t, caps, "")),
        Culprit::CompiledObject(what) => match ctx.compiled_class {
            Some(class) => format!("{what} ({})", class.rsplit('.').next().unwrap_or(class)),
            None => what.to_string(),
        },
    };
    let mut detail = rule.detail.map(|d| expand(d, caps, &culprit));
    if let (Some(act), Some(d)) = (caps.name("act"), detail.as_mut()) {
        if rule.category == Category::ShapeInput {
            d.push_str(&shape_outlook(act.as_str(), ctx.automatic_dynamic));
        }
    }
    if rule.category == Category::ShapeLazyBuffer {
        let grown = caps.name("exp").is_some_and(|m| m.as_str() == "0");
        let how = if grown {
            "; it started empty and was lazily grown in forward"
        } else {
            "; it was reassigned with a new size in forward"
        };
        detail = detail.map(|d| d + how);
    }
    if let (Some(f), Some(d)) = (g.location.as_ref().and_then(|l| l.function.as_deref()), detail.as_mut()) {
        if rule.category == Category::ClosureHookState {
            d.push_str(&format!(" (in {f})"));
        }
    }
    // `self` of a plain object's method is not a module: name its class.
    let culprit = match receiver_class(rule.category, g) {
        Some(class) => format!("self (another {class} instance)"),
        None => culprit,
    };
    let mut advice = expand(rule.advice, caps, &culprit);
    let (mut category, mut culprit) = (rule.category, culprit);
    // A tensor made under inference_mode differs from a normal one in its
    // autograd keys, not its device: torch's mode, not a device change.
    if category == Category::Device && inference_keys(g) {
        category = Category::TorchGlobalState;
        culprit = format!("torch.inference_mode() (an inference tensor as {culprit})");
        detail = Some("dispatch keys differ only in the autograd keys: an inference tensor where a normal one was compiled, or the reverse".into());
    }
    // `_dynamo_dynamic_indices not a subset` names no tensor: the one whose
    // dynamic dims differ between the entries does.
    if g.guard.starts_with("_dynamo_dynamic_indices") {
        if let Some(c) = g.changes.iter().flatten().find(|c| c.subject.ends_with(".size()")) {
            let tensor = c.subject.trim_end_matches(".size()");
            culprit = format!("the dims marked dynamic on {}", culprit::render(tensor));
        }
    }
    // torch.compile(model) enters every model through one shared frame: a
    // second model's first call fails the first one's entry on its input
    // and on the shapes of parameters it does not have.
    if category == Category::ShapeInput && another_module(g) {
        category = Category::ObjectId;
        culprit = "another module (other parameter shapes) in the frame torch.compile shares between models".into();
        detail = Some("the module's parameters differ in shape from the compiled entry's: a different model object, not a new input size".into());
    }
    if rule.category == Category::ShapeInput && short_batch(&g.guard) {
        advice.push_str(" If this is a DataLoader's short last batch, DataLoader(..., drop_last=True) avoids it.");
    }
    if matches!(rule.category, Category::NnModuleAttr | Category::DictKeys) {
        // Dynamo's own hint is specific to the attribute; show it too.
        if let Some(h) = g.hint.as_deref().filter(|h| from_guard_on_hint(h).is_none()) {
            advice = format!("{advice} Dynamo's hint: {h}");
        }
    }
    RecompileReason {
        category,
        form: rule.id,
        culprit,
        detail,
        advice,
        ..located(g)
    }
}

/// The guard trees show another module reached the frame: two or more
/// parameters of the compiled module with other shapes, or a submodule of
/// another class (`type id(fn._modules['1'])`: two networks through the
/// wrapper frame torch.compile shares between modules).
pub fn another_module(g: &GuardFailure) -> bool {
    let changes = || g.changes.iter().flatten();
    // The compiled module's own parameters (`fn.` in the wrapper frame,
    // `self.` in a shared forward): a model the user's function takes as an
    // argument (`model._modules[...]`) is an argument that changed with the
    // others, judged by the guard that failed.
    let own = |s: &str| s.starts_with("fn.") || s.starts_with("self.");
    let resized = changes()
        .filter(|c| own(&c.subject) && c.subject.contains("._parameters[") && c.subject.ends_with(".size()"))
        .count();
    let other_class = changes().any(|c| c.subject.starts_with("type id(fn") && c.subject.contains("._modules["));
    resized >= 2 || (other_class && resized >= 1)
}

/// The class of the object an identity guard on `self` names.
fn receiver_class(category: Category, g: &GuardFailure) -> Option<&str> {
    if category != Category::ObjectId || !super::subject::receiver_identity(&culprit::canonical(&g.guard)) {
        return None;
    }
    super::subject::guarded_class(&g.guard)
}

/// The key sets of a dispatch-key mismatch differ only in autograd keys.
fn inference_keys(g: &GuardFailure) -> bool {
    let text = g.guard.as_str();
    let Some((_, rest)) = text.split_once("expected DispatchKeySet(") else {
        return false;
    };
    let Some((old, rest)) = rest.split_once(')') else {
        return false;
    };
    let Some(new) = rest
        .split_once("actual DispatchKeySet(")
        .and_then(|(_, r)| r.split_once(')'))
        .map(|(n, _)| n)
    else {
        return false;
    };
    only_autograd_keys_differ(old, new)
}

/// Two dispatch key sets (`CPU, BackendSelect, AutogradCPU`) that differ,
/// and only in autograd keys: an inference tensor against a normal one, not
/// a device change. Also what the judge reads from a guard's changes.
pub fn only_autograd_keys_differ(old: &str, new: &str) -> bool {
    let keys = |s: &str| -> Vec<String> { s.split(", ").map(|k| k.trim().to_string()).collect() };
    let (old, new) = (keys(old), keys(new));
    let differ: Vec<&String> = old
        .iter()
        .filter(|k| !new.contains(k))
        .chain(new.iter().filter(|k| !old.contains(k)))
        .collect();
    !differ.is_empty()
        && differ
            .iter()
            .all(|k| k.starts_with("Autograd") || k.as_str() == "ADInplaceOrView")
}

/// Dim 0 shrank: the signature of a DataLoader's last, short batch.
fn short_batch(guard: &str) -> bool {
    crate::reasons::subject::size_mismatch_dim(guard) == Some(0)
        && crate::reasons::subject::size_shrank(guard).is_some()
}

/// What happens to a dim whose size changed: automatic dynamic shapes make
/// it dynamic, except for sizes 0 and 1 (always specialised) and when the
/// compile's config turned automatic dynamic off.
fn shape_outlook(actual: &str, automatic_dynamic: Option<bool>) -> String {
    if automatic_dynamic == Some(false) {
        "; automatic_dynamic_shapes is off in this compile's config, so the dim stays static and every new size compiles again".to_string()
    } else if actual == "0" || actual == "1" {
        format!("; size {actual} is always specialised (automatic dynamic never makes a size-0/1 dim dynamic), so the dim stays static and the next size recompiles again")
    } else {
        "; automatic dynamic shapes make this dim dynamic from this recompile on".to_string()
    }
}

/// Expands `{name}` with captures (missing ones expand to nothing),
/// `{@name}` with a capture rendered as a source, `{$name}` with a capture
/// as the Python name a user would type, `{culprit}` with the culprit.
fn expand(template: &str, caps: &Captures<'_>, culprit: &str) -> String {
    static PLACEHOLDER: OnceLock<Regex> = OnceLock::new();
    let re = PLACEHOLDER.get_or_init(|| Regex::new(r"\{([@$]?[a-z]+)\}").expect("valid regex"));
    re.replace_all(template, |c: &Captures<'_>| match &c[1] {
        "culprit" => culprit.to_string(),
        name if name.starts_with('$') => caps
            .name(&name[1..])
            .map(|m| culprit::python_name(m.as_str()))
            .unwrap_or_default(),
        // `{@name}`: the capture rendered as a guard source.
        name if name.starts_with('@') => caps
            .name(&name[1..])
            .map(|m| culprit::render(m.as_str()))
            .unwrap_or_default(),
        name => caps.name(name).map(|m| m.as_str().to_string()).unwrap_or_default(),
    })
    .replace(" (was )", "")
    .replace(" (key '')", "")
}

/// A guard too long to be a name is shortened, keeping both ends.
fn short(guard: &str) -> String {
    const MAX: usize = 80;
    let n = guard.chars().count();
    if n <= MAX {
        return guard.to_string();
    }
    let head: String = guard.chars().take(30).collect();
    let tail: String = guard.chars().skip(n - (MAX - 31)).collect();
    format!("{head}…{tail}")
}

#[cfg(test)]
mod tests;
