//! A Python number that feeds a parameter of a torch op which must be a
//! Python number (`F.interpolate(..., scale_factor=s)`, a padding, a
//! window): "pass it as a tensor" cannot work there, so the fix says what
//! can. Read from the line the guard quotes, so it holds for any caller.

use super::input::FixInput;
use crate::analysis::judge::caller::calls::calls;
use crate::reasons::culprit::{canonical, python_name};

/// Parameters that take Python numbers only, and what to do instead where
/// a better input exists: (parameter, the call it belongs to or "" for any,
/// what to pass instead).
const NUMBER_PARAMS: &[(&str, &str, &str)] = &[
    (
        "scale_factor",
        "interpolate",
        "compute the output size as ints outside the compiled function and pass size=(h, w) instead of scale_factor: an int argument becomes dynamic after its first change, a float scale does not",
    ),
    ("scale_factor", "", ""),
    // Checked on torch 2.15: F.dropout with a tensor p leaves the function
    // uncompiled (no graph at all); the mask written out compiles once for
    // every rate.
    (
        "p",
        "dropout",
        "write the dropout out with p as a tensor made outside the compiled function (p = torch.tensor(rate); x = x * (torch.rand_like(x) >= p) / (1 - p)): one graph for every rate. F.dropout needs a Python float there, and given a tensor it leaves the function uncompiled",
    ),
    // A scalar multiplier (`p.add_(q, alpha=1 - m)`, an EMA): the op takes
    // a Python number, but the same arithmetic on tensors takes a 0-d
    // tensor, which the graph reads instead of guarding.
    ("alpha", "", SCALE_BY_TENSOR),
    ("value", "addcmul_", SCALE_BY_TENSOR),
    ("value", "addcdiv_", SCALE_BY_TENSOR),
    ("size", "interpolate", ""),
    ("output_size", "", ""),
    ("padding", "", ""),
    ("stride", "", ""),
    ("dilation", "", ""),
    ("kernel_size", "", ""),
    ("groups", "", ""),
    ("pad", "pad", ""),
];

const SCALE_BY_TENSOR: &str = "pass the value as a 0-d tensor made outside the compiled function (w = torch.tensor(value)) and scale with tensor arithmetic rather than the number parameter (x.add_(y * w); an EMA as x.lerp_(y, w), whose weight may be a tensor): one graph for every value";

/// The guarded value's name, the call and parameter it feeds on the quoted
/// line, and the better input, when that parameter takes numbers only.
pub(super) struct NumberParam {
    pub name: String,
    pub call: String,
    pub param: &'static str,
    pub instead: &'static str,
}

pub(super) fn number_param(input: &FixInput<'_>) -> Option<NumberParam> {
    let g = input.guard?;
    // An expression's culprit is the name in it (`momentum`).
    let name = plain_name(g).or_else(|| {
        let last = input.reason.culprit.rsplit(' ').next()?;
        crate::reasons::culprit::is_plain_name(last).then(|| last.to_string())
    })?;
    // A guard on an expression of the value (`(1.0 + ((-1)*m)) == 0.01`)
    // quotes no line; an older entry's guard on the value itself does.
    let code = g.code.as_deref().or_else(|| {
        input
            .failures
            .iter()
            .find(|o| o.code.is_some() && plain_name(o).as_deref() == Some(name.as_str()))
            .and_then(|o| o.code.as_deref())
    })?;
    keywords_naming(code, &name).into_iter().find_map(|(callee, key)| {
        NUMBER_PARAMS
            .iter()
            .find(|&&(param, call, _)| param == key && (call.is_empty() || callee.ends_with(call)))
            .map(|&(param, _, instead)| NumberParam {
                name: name.clone(),
                call: callee.to_string(),
                param,
                instead,
            })
    })
}

/// The plain Python name a guard failed on (`momentum` of `L['momentum']`).
fn plain_name(g: &crate::reasons::GuardFailure) -> Option<String> {
    let name = python_name(&crate::reasons::failed_subject(&canonical(&g.guard)));
    let name = name.rsplit(['.', ' ']).next().unwrap_or(&name).to_string();
    crate::reasons::culprit::is_plain_name(&name).then_some(name)
}

/// The (callee, keyword) of every keyword argument on the line whose value
/// names `name` as a whole word (`scale_factor=scale`, `padding=(p, p)`);
/// `a == b` is no keyword.
fn keywords_naming<'a>(code: &'a str, name: &str) -> Vec<(&'a str, &'a str)> {
    let mut out = Vec::new();
    for call in calls(code) {
        for arg in call.args.iter().flatten() {
            if let Some((key, value)) = arg.split_once('=') {
                if !value.starts_with('=') && whole_word(value, name) {
                    out.push((call.callee, key.trim()));
                }
            }
        }
    }
    out
}

fn whole_word(text: &str, word: &str) -> bool {
    text.match_indices(word).any(|(i, _)| {
        let ok = |c: Option<char>| !c.is_some_and(|c| c.is_alphanumeric() || c == '_');
        ok(text[..i].chars().next_back()) && ok(text[i + word.len()..].chars().next())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_the_keyword_and_its_call() {
        let interpolate = r#"up = F.interpolate(lr, scale_factor=scale, mode="bilinear")"#;
        assert_eq!(
            keywords_naming(interpolate, "scale"),
            [("F.interpolate", "scale_factor")]
        );
        assert!(keywords_naming(interpolate, "scal").is_empty());
        assert_eq!(
            keywords_naming("y = conv(x, padding=(p, p))", "p"),
            [("conv", "padding")]
        );
        assert!(
            keywords_naming("y = f(x, padding=q, p=1)", "p").is_empty(),
            "p is a keyword there, not the value"
        );
        assert_eq!(
            keywords_naming("h = F.dropout(h, p=p, training=True)", "p"),
            [("F.dropout", "p")]
        );
    }
}
