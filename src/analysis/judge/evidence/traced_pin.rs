//! A repeat torch would not have compiled again but for the traced code:
//! the new entry held the value symbolically until a line needed it as a
//! number and fixed it (`symbolic_shape_specialization` in the log). The
//! evidence names that line, so the fix can offer what removes the pin.

use super::facts::Facts;
use crate::analysis::cause::TracedLine;
use crate::reasons::GuardFailure;

/// What fixed a value to a number again after torch made it dynamic: the
/// traced frame, when the log names one.
#[derive(Clone, Debug, PartialEq)]
pub struct FixedBy {
    pub at: Option<TracedLine>,
}

impl FixedBy {
    pub fn describe(&self) -> String {
        self.at
            .as_ref()
            .map_or_else(|| "the traced code".into(), TracedLine::describe)
    }

    /// The user's source line that pinned it, when it is the user's.
    pub fn user_code(&self) -> Option<&str> {
        self.at.as_ref()?.user_code()
    }
}

/// For a repeat whose new entry the traced code pinned: why it repeats,
/// and the frame that pinned it, when the log names one. None when this
/// compile fixed nothing of the value the guard failed on.
pub(super) fn traced_pin(f: &Facts<'_>) -> Option<(String, FixedBy)> {
    let s = fixed_while_tracing(f.guard?, f.compile)?;
    let pin = FixedBy {
        at: s.at.as_deref().and_then(TracedLine::of),
    };
    let line = pin.describe();
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
    Some((why, pin))
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
