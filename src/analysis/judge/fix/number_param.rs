//! A Python number that feeds a parameter of a torch op which must be a
//! Python number (`F.interpolate(..., scale_factor=s)`, a padding, a
//! window): "pass it as a tensor" cannot work there, so the fix says what
//! can. Read from the line the guard quotes, so it holds for any caller.

use super::input::FixInput;
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
    ("size", "interpolate", ""),
    ("output_size", "", ""),
    ("padding", "", ""),
    ("stride", "", ""),
    ("dilation", "", ""),
    ("kernel_size", "", ""),
    ("groups", "", ""),
    ("pad", "pad", ""),
];

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
    let code = g.code.as_deref()?;
    let subject = crate::reasons::failed_subject(&canonical(&g.guard));
    let name = python_name(&subject);
    let name = name.rsplit(['.', ' ']).next().unwrap_or(&name).to_string();
    if name.is_empty() || !name.chars().all(|c| c.is_alphanumeric() || c == '_') {
        return None;
    }
    NUMBER_PARAMS.iter().find_map(|&(param, call, instead)| {
        let at = keyword_value(code, param, &name)?;
        let callee = callee_before(&code[..at]);
        (call.is_empty() || callee.ends_with(call)).then(|| NumberParam {
            name: name.clone(),
            call: callee.to_string(),
            param,
            instead,
        })
    })
}

/// Where `param=` is followed by an expression that names `name` as a whole
/// word (`scale_factor=scale`, `padding=(p, p)`), before the next comma at
/// the same depth.
fn keyword_value(code: &str, param: &str, name: &str) -> Option<usize> {
    let key = format!("{param}=");
    code.match_indices(&key).find_map(|(i, _)| {
        let before_ok = !code[..i]
            .chars()
            .next_back()
            .is_some_and(|c| c.is_alphanumeric() || c == '_');
        let value = &code[i + key.len()..];
        if value.starts_with('=') || !before_ok {
            return None;
        }
        let mut depth = 0i32;
        let end = value
            .char_indices()
            .find(|&(_, c)| {
                match c {
                    '(' | '[' => depth += 1,
                    ')' | ']' => depth -= 1,
                    _ => {}
                }
                depth < 0 || (depth == 0 && c == ',')
            })
            .map_or(value.len(), |(j, _)| j);
        whole_word(&value[..end], name).then_some(i)
    })
}

fn whole_word(text: &str, word: &str) -> bool {
    text.match_indices(word).any(|(i, _)| {
        let ok = |c: Option<char>| !c.is_some_and(|c| c.is_alphanumeric() || c == '_');
        ok(text[..i].chars().next_back()) && ok(text[i + word.len()..].chars().next())
    })
}

/// The dotted name of the innermost call still open at the end of `code`.
fn callee_before(code: &str) -> &str {
    let mut depth = 0i32;
    for (i, c) in code.char_indices().rev() {
        match c {
            ')' | ']' => depth += 1,
            '(' if depth == 0 => {
                let head = &code[..i];
                let start = head
                    .rfind(|c: char| !(c.is_alphanumeric() || c == '_' || c == '.'))
                    .map_or(0, |j| j + 1);
                return &head[start..];
            }
            '(' | '[' => depth -= 1,
            _ => {}
        }
    }
    ""
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_the_keyword_and_its_call() {
        let code = r#"up = F.interpolate(lr, scale_factor=scale, mode="bilinear")"#;
        let at = keyword_value(code, "scale_factor", "scale").unwrap();
        assert_eq!(callee_before(&code[..at]), "F.interpolate");
        assert!(keyword_value(code, "scale_factor", "scal").is_none());
        assert!(keyword_value("y = conv(x, padding=(p, p))", "padding", "p").is_some());
        assert!(keyword_value("y = f(x, padding=q, p=1)", "padding", "p").is_none());
        let drop = "h = F.dropout(h, p=p, training=True)";
        let at = keyword_value(drop, "p", "p").unwrap();
        assert_eq!(callee_before(&drop[..at]), "F.dropout");
    }
}
