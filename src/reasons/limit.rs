//! The cause of a compile Dynamo refused at the recompile limit, built
//! from the reason (already classified) that filled the cache.

use super::classify::{Category, RecompileReason, NO_REASON};

/// The cause of a compile that Dynamo refused because the recompile limit
/// was hit: the category is `cache_limit`, the culprit that of the reason
/// (already classified) that pushed the frame over the limit.
pub fn cache_limit(inner: Option<RecompileReason>) -> RecompileReason {
    let culprit = inner
        .as_ref()
        .map_or_else(|| "the recompile limit".to_string(), |r| r.culprit.clone());
    let cause = inner.as_ref().map_or(String::new(), |r| {
        format!(
            " The recompiles that filled the cache were caused by {} ({}); fix that: {}",
            r.culprit,
            r.category.label(),
            r.advice
        )
    });
    RecompileReason {
        category: Category::CacheLimit,
        form: inner.as_ref().map_or(NO_REASON, |r| r.form),
        culprit,
        source: inner.as_ref().and_then(|r| r.source.clone()),
        code: inner.as_ref().and_then(|r| r.code.clone()),
        detail: Some(match &inner {
            Some(r) => format!("recompile limit hit; last guard failure: {} ({})", r.category.name(), r.culprit),
            None => "recompile limit hit".to_string(),
        }),
        advice: format!(
            "Dynamo hit the recompile limit (torch._dynamo.config.recompile_limit) and gave up: this frame runs eagerly, uncompiled, for the rest of the process.{cause}"
        ),
        library_line: inner.as_ref().and_then(|r| r.library_line.clone()),
        changed: inner.map(|r| r.changed).unwrap_or_default(),
        called_from: None,
        called_from_code: None,
    }
}
