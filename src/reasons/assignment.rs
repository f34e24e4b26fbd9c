//! Which attributes the traced code assigns, and where. Before Dynamo
//! traces a store to an object's attribute it guards that the object does
//! not override `__setattr__`, and that guard's comment quotes the store:
//!
//! ```text
//! +- DICT_CONTAINS: not ___dict_contains('__setattr__', G['model']._modules['pos'].__dict__)  # self.cached_len = n  # transformers/models/x/modeling_x.py:153 in forward
//! ```
//!
//! So a guard on `G['model']._modules['pos'].cached_len` that fails later
//! is on a value the compiled code writes itself, at that line: the
//! library's own state when the line is a library's, whoever reads it.

use super::culprit::strip_locals;
use super::split::{split, Assignment};

/// How the guard of a traced store starts (after the tree's `+- `).
pub(super) const MARKER: &str = "DICT_CONTAINS: not ___dict_contains('__setattr__', ";

/// A guard tree line that records a traced store: the attribute it assigns
/// (`model._modules['pos'].cached_len`, written as `subject.rs` names a
/// failed guard's subject) and the assigning line.
pub fn parse_line(line: &str) -> Option<(String, Assignment)> {
    let at = line.find(MARKER)?;
    let object = &line[at + MARKER.len()..];
    let object = &object[..object.find(".__dict__)")?];
    let g = split(&line[at..]);
    let (code, location) = (g.code?, g.location?);
    let attribute = assigned_attribute(&code)?;
    let subject = format!("{}.{attribute}", strip_locals(object));
    Some((subject, Assignment { code, location }))
}

/// The attribute a statement assigns: `cached_len` of `self.cached_len = n`
/// or `self.steps += 1`; None for anything else (`setattr(m, name, v)`, a
/// comparison, a call).
fn assigned_attribute(code: &str) -> Option<&str> {
    let target_len = code
        .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '.'))
        .unwrap_or(code.len());
    let (target, rest) = code.split_at(target_len);
    let rest = rest.trim_start();
    let op = rest.find('=')?;
    let augmented = ["", "+", "-", "*", "/", "//", "%", "**", "|", "&", "^", "<<", ">>", "@"];
    if !augmented.contains(&&rest[..op]) || rest[op + 1..].starts_with('=') {
        return None;
    }
    let (_, attribute) = target.rsplit_once('.')?;
    let plain = !attribute.is_empty() && !attribute.starts_with(|c: char| c.is_ascii_digit());
    plain.then_some(attribute)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_store_in_a_library_forward_names_the_attribute_and_its_line() {
        // A line of a real torch 2.14 tree (tests/scenarios83 hf_wav2vec2_conformer_transcribe, 0/0).
        let line = "| | +- DICT_CONTAINS: not ___dict_contains('__setattr__', G['model']._modules['wav2vec2_conformer']._modules['encoder']._modules['embed_positions'].__dict__)  # self.cached_sequence_length = sequence_length  # transformers/models/wav2vec2_conformer/modeling_wav2vec2_conformer.py:153 in forward";
        let (subject, a) = parse_line(line).expect("a store");
        assert_eq!(
            subject,
            "G['model']._modules['wav2vec2_conformer']._modules['encoder']._modules['embed_positions'].cached_sequence_length"
        );
        assert_eq!(a.code, "self.cached_sequence_length = sequence_length");
        assert_eq!(a.location.line, 153);
        assert!(a.location.file.ends_with("modeling_wav2vec2_conformer.py"));
    }

    #[test]
    fn locals_are_named_as_failed_guards_name_them() {
        // tests/scenarios40 rotary_cache_long_documents (torch 2.14).
        let line = "+- DICT_CONTAINS: not ___dict_contains('__setattr__', L['self']._modules['attn']._modules['rope'].__dict__)  # self.cached_len = n  # ome/user/proj/rotary_cache_long_documents/train.py:22 in _build";
        let (subject, _) = parse_line(line).expect("a store");
        assert_eq!(subject, "self._modules['attn']._modules['rope'].cached_len");
    }

    #[test]
    fn only_assignments_name_an_attribute() {
        assert_eq!(assigned_attribute("self.steps += 1"), Some("steps"));
        assert_eq!(
            assigned_attribute("self.config.problem_type = \"x\""),
            Some("problem_type")
        );
        assert_eq!(assigned_attribute("setattr(module, self._tensor_name, m)"), None);
        assert_eq!(assigned_attribute("if self.n == 3:"), None);
        assert_eq!(assigned_attribute("self.n == 3"), None);
        assert_eq!(assigned_attribute("x = 1"), None, "a local, no attribute");
    }
}
