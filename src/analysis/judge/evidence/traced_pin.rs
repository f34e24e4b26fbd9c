//! A repeat torch would not have compiled again but for the traced code:
//! the new entry held the value symbolically until a line needed it as a
//! number and fixed it (`symbolic_shape_specialization` in the log). The
//! evidence names that line, so the fix can offer what removes the pin.

use super::facts::Facts;
use crate::reasons::paths::{library_name, owner, Owner};
use crate::reasons::GuardFailure;

/// For a repeat whose new entry the traced code pinned: why it repeats,
/// and the line that pinned it (the user's by file and line, else whose
/// code it is). None when this compile fixed nothing of the value the
/// guard failed on.
pub(super) fn traced_pin(f: &Facts<'_>) -> Option<(String, String)> {
    let s = fixed_while_tracing(f.guard?, f.compile)?;
    // The user's line by name; a library's or torch's only as whose it
    // is: the user does not edit that code.
    let line = s.at.as_ref().map(|at| {
        let path = at.file.as_deref().unwrap_or("");
        match owner(path) {
            Owner::User => {
                let code = at
                    .code
                    .as_deref()
                    .map_or(String::new(), |c| format!("`{}` at ", c.trim()));
                let file = path.rsplit(['/', '\\']).next().unwrap_or(path);
                format!("{code}{file}:{}", at.line.unwrap_or(0))
            }
            Owner::Library => format!(
                "{}'s own code",
                library_name(path).unwrap_or_else(|| "a library".into())
            ),
            Owner::Torch => "torch's own code".into(),
        }
    });
    let line = line.unwrap_or_else(|| "the traced code".into());
    let why = format!(
        "the same cause compiled this frame {} times ({}): torch made {} dynamic, but {line} needs it as a number and fixed it to {} again",
        f.same_cause.len(),
        f.same_cause.join(", "),
        if s.source.starts_with("___") {
            f.culprit.to_string()
        } else {
            crate::reasons::culprit::python_name(&s.source)
        },
        plain_number(&s.value)
    );
    Some((why, line))
}

/// A value as the user wrote it: sympy prints floats to 15 places
/// (`0.350000000000000`).
fn plain_number(value: &str) -> &str {
    if value.contains('.') && value.parse::<f64>().is_ok() {
        let trimmed = value.trim_end_matches('0');
        if trimmed.ends_with('.') {
            &value[..trimmed.len() + 1]
        } else {
            trimmed
        }
    } else {
        value
    }
}

/// What this compile fixed while tracing of the value the guard failed on
/// (a dim of the tensor, or the value itself).
fn fixed_while_tracing<'c>(g: &GuardFailure, c: &'c crate::model::Compile) -> Option<&'c crate::model::Specialization> {
    let subject = crate::reasons::failed_subject(&g.guard);
    let key = match crate::reasons::subject::size_mismatch_dim(&g.guard) {
        Some(dim) => format!("{subject}.size()[{dim}]"),
        None => subject,
    };
    c.specialized().iter().find(|s| s.source == key)
}

#[cfg(test)]
mod tests {
    use super::plain_number;

    #[test]
    fn a_float_reads_as_written_and_an_int_as_it_is() {
        assert_eq!(plain_number("0.350000000000000"), "0.35");
        assert_eq!(plain_number("2.00000000000000"), "2.0");
        assert_eq!(plain_number("7"), "7");
        assert_eq!(plain_number("10"), "10");
    }
}
