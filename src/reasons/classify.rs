//! Classification of one recompile reason into category, culprit, source,
//! detail and advice, using the rule table in `rules.rs`.

use super::culprit::{self, from_guard_on_hint};
use super::rules::{rules, Culprit, Rule};
use super::split::GuardFailure;
use regex::{Captures, Regex};
use serde::Serialize;
use std::sync::OnceLock;

/// Category names are part of the JSON output: keep them stable.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Category {
    ShapeLazyBuffer,
    ShapeInput,
    Stride,
    Dtype,
    Device,
    RequiresGrad,
    ClosureHookState,
    ClosureState,
    GlobalVar,
    TorchGlobalState,
    NnModuleAttr,
    ObjectId,
    TypeChange,
    ConstantValue,
    ContainerLen,
    DictKeys,
    HooksChanged,
    CacheLimit,
    Other,
}

impl Category {
    pub fn name(self) -> &'static str {
        match self {
            Category::ShapeLazyBuffer => "shape_lazy_buffer",
            Category::ShapeInput => "shape_input",
            Category::Stride => "stride",
            Category::Dtype => "dtype",
            Category::Device => "device",
            Category::RequiresGrad => "requires_grad",
            Category::ClosureHookState => "closure_hook_state",
            Category::ClosureState => "closure_state",
            Category::GlobalVar => "global_var",
            Category::TorchGlobalState => "torch_global_state",
            Category::NnModuleAttr => "nn_module_attr",
            Category::ObjectId => "object_id",
            Category::TypeChange => "type_change",
            Category::ConstantValue => "constant_value",
            Category::ContainerLen => "container_len",
            Category::DictKeys => "dict_keys",
            Category::HooksChanged => "hooks_changed",
            Category::CacheLimit => "cache_limit",
            Category::Other => "other",
        }
    }

    /// What the category means, in words that finish "caused by ...".
    pub fn label(self) -> &'static str {
        match self {
            Category::ShapeLazyBuffer => "lazily grown buffers",
            Category::ShapeInput => "input shape changes",
            Category::Stride => "stride changes",
            Category::Dtype => "dtype changes",
            Category::Device => "device changes",
            Category::RequiresGrad => "requires_grad changes",
            Category::ClosureHookState => "forward-hook closure state",
            Category::ClosureState => "closure variables",
            Category::GlobalVar => "global variables",
            Category::TorchGlobalState => "torch global state (grad mode, autocast)",
            Category::NnModuleAttr => "nn.Module attributes",
            Category::ObjectId => "object identity",
            Category::TypeChange => "type changes",
            Category::ConstantValue => "constant values",
            Category::ContainerLen => "container lengths",
            Category::DictKeys => "dict keys",
            Category::HooksChanged => "added or removed hooks",
            Category::CacheLimit => "the recompile limit",
            Category::Other => "unrecognised guards",
        }
    }

    pub const ALL: [Category; 19] = [
        Category::ShapeLazyBuffer,
        Category::ShapeInput,
        Category::Stride,
        Category::Dtype,
        Category::Device,
        Category::RequiresGrad,
        Category::ClosureHookState,
        Category::ClosureState,
        Category::GlobalVar,
        Category::TorchGlobalState,
        Category::NnModuleAttr,
        Category::ObjectId,
        Category::TypeChange,
        Category::ConstantValue,
        Category::ContainerLen,
        Category::DictKeys,
        Category::HooksChanged,
        Category::CacheLimit,
        Category::Other,
    ];

    pub fn parse(name: &str) -> Option<Category> {
        Category::ALL.into_iter().find(|c| c.name() == name)
    }
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RecompileReason {
    pub category: Category,
    /// What a user would name: `pos_encoding.pos_enc_cache (buffer)`.
    pub culprit: String,
    /// The user's `file.py:LINE`, when the text gives one.
    pub source: Option<String>,
    /// The source line Dynamo quotes, when it does.
    pub code: Option<String>,
    pub detail: Option<String>,
    pub advice: String,
}

struct CompiledRule {
    regex: Regex,
    rule: Rule,
}

fn table() -> &'static [CompiledRule] {
    static TABLE: OnceLock<Vec<CompiledRule>> = OnceLock::new();
    TABLE.get_or_init(|| {
        rules()
            .into_iter()
            .map(|rule| CompiledRule {
                regex: Regex::new(rule.pattern).expect("rule pattern is valid"),
                rule,
            })
            .collect()
    })
}

pub fn classify(g: &GuardFailure) -> RecompileReason {
    let guard = culprit::strip_locals(&g.guard);
    for row in table() {
        if let Some(caps) = row.regex.captures(&guard) {
            return apply(&row.rule, &caps, g);
        }
    }
    RecompileReason {
        category: Category::Other,
        culprit: g
            .hint
            .as_deref()
            .and_then(from_guard_on_hint)
            .unwrap_or_else(|| short(&g.guard)),
        source: g.source.clone(),
        code: g.code.clone(),
        detail: Some(format!("unrecognised guard: {}", g.guard)),
        advice: "guardscope does not recognise this guard; read the raw text below: it names the value that changed."
            .to_string(),
    }
}

/// Classifies a compile that Dynamo refused because the recompile limit was
/// hit: the category is `cache_limit`, the culprit that of the reason that
/// pushed the frame over the limit.
pub fn cache_limit(newest: Option<&GuardFailure>) -> RecompileReason {
    let inner = newest.map(classify);
    let culprit = inner
        .as_ref()
        .map_or_else(|| "the recompile limit".to_string(), |r| r.culprit.clone());
    let cause = inner.as_ref().map_or(String::new(), |r| {
        format!(" Fix the cause listed before it: {}", r.advice)
    });
    RecompileReason {
        category: Category::CacheLimit,
        culprit,
        source: inner.as_ref().and_then(|r| r.source.clone()),
        code: inner.as_ref().and_then(|r| r.code.clone()),
        detail: Some(match &inner {
            Some(r) => format!("recompile limit hit; last guard failure: {} ({})", r.category.name(), r.culprit),
            None => "recompile limit hit".to_string(),
        }),
        advice: format!(
            "Dynamo hit the recompile limit (torch._dynamo.config.recompile_limit) and gave up: this frame now runs eagerly for the rest of the process.{cause}"
        ),
    }
}

fn apply(rule: &Rule, caps: &Captures<'_>, g: &GuardFailure) -> RecompileReason {
    let culprit = match rule.culprit {
        Culprit::Source(name) => match caps.name(name) {
            Some(m) => culprit::render(m.as_str()),
            None => short(&g.guard),
        },
        Culprit::Template(t) => expand(t, caps, ""),
        Culprit::HintOr(t) => g
            .hint
            .as_deref()
            .and_then(from_guard_on_hint)
            .unwrap_or_else(|| expand(t, caps, "")),
    };
    let mut detail = rule.detail.map(|d| expand(d, caps, &culprit));
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
    let mut advice = expand(rule.advice, caps, &culprit);
    if matches!(rule.category, Category::NnModuleAttr | Category::DictKeys) {
        // Dynamo's own hint is specific to the attribute; show it too.
        if let Some(h) = g.hint.as_deref().filter(|h| from_guard_on_hint(h).is_none()) {
            advice = format!("{advice} Dynamo's hint: {h}");
        }
    }
    RecompileReason {
        category: rule.category,
        culprit,
        source: g.source.clone(),
        code: g.code.clone(),
        detail,
        advice,
    }
}

/// Expands `{name}` with captures (missing ones expand to nothing),
/// `{@name}` with a capture rendered as a source, `{culprit}` with the culprit.
fn expand(template: &str, caps: &Captures<'_>, culprit: &str) -> String {
    static PLACEHOLDER: OnceLock<Regex> = OnceLock::new();
    let re = PLACEHOLDER.get_or_init(|| Regex::new(r"\{(@?[a-z]+)\}").expect("valid regex"));
    re.replace_all(template, |c: &Captures<'_>| match &c[1] {
        "culprit" => culprit.to_string(),
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
