//! What a failed guard is about, in the guard tree's terms: `x` for
//! `tensor 'x' size mismatch ...`, `grad_mode` for a global-state change,
//! `self.step` for `self.step == 3`. The cause's entry is picked by it, and
//! what happened after the recompile (did torch make the value dynamic?)
//! is read from the new entry's guard of it (`guard_tree::guarded_now`).

use super::culprit::{canonical, strip_locals, subject_of};

/// The subject of a failed guard.
pub fn failed_subject(guard: &str) -> String {
    if let Some(rest) = guard.strip_prefix("tensor '") {
        return strip_locals(guarded_tensor(guard).unwrap_or(rest));
    }
    if let Some(what) = guard.strip_prefix("GLOBAL_STATE changed: ") {
        // `autocast(cpu)_enabled` is `autocast_state.enabled` in the tree.
        let what = what.trim();
        return if what.starts_with("autocast") {
            "autocast_state".into()
        } else {
            what.into()
        };
    }
    // `expected type of 'pos_weight' to be <class 'torch.Tensor'>, but
    // found <class 'float'>`: about the value the source names.
    if let Some((src, _)) = guard
        .strip_prefix("expected type of '")
        .and_then(|rest| rest.split_once("' to be "))
    {
        return strip_locals(src);
    }
    // A guard whose accessor failed names only its source.
    if let Some(src) = guard
        .strip_prefix("KeyError on ")
        .or_else(|| guard.strip_prefix("IndexError on "))
    {
        return canonical(src.trim());
    }
    let guard = canonical(guard);
    // `___check_obj_id(SRC, 1403...)` is `id(SRC)` in the tree.
    for (call, name) in [("___check_obj_id(", "id"), ("___check_type_id(", "type id")] {
        if let Some(args) = guard.trim_start_matches("not ").strip_prefix(call) {
            if let Some((src, _)) = args
                .rsplit_once(", ")
                .filter(|(s, _)| !s.contains(", "))
                .or_else(|| args.split_once(", "))
            {
                return format!("{name}({src})");
            }
        }
    }
    // `2 <= x.size()[0]`: a symbolic guard on a dim of x.
    if let Some(at) = guard.find(".size()[") {
        let head = &guard[..at];
        let start = head.rfind([' ', '(']).map_or(0, |i| i + 1);
        return head[start..].to_string();
    }
    subject_of(&guard).to_string()
}

/// The list a guard's tensor or number is an element of, when it is one
/// of a list or tuple argument (`utterances[3]`, also in a comparison of
/// two elements' sizes: `utterances[1].size()[0] > utterances[0].size()[0]`;
/// `skip[0] == 3`): `utterances`. Not `*args` (its elements are separate
/// arguments) and not an attribute's element.
pub fn sequence_element(guard: &str) -> Option<String> {
    let subject = match guarded_tensor(guard) {
        Some(t) => crate::reasons::culprit::strip_locals(t),
        None if guard.contains(".size()[") => {
            crate::reasons::culprit::strip_locals(guard.split(".size()[").next()?.trim())
        }
        // `skip[0] == 3`, `not (skip[1] == 2 or skip[0] == 2)`: an element
        // of a list of numbers.
        None => {
            let text = guard.trim_start().trim_start_matches("not ").trim_start_matches('(');
            crate::reasons::culprit::strip_locals(text.split(" == ").next()?.trim())
        }
    };
    let (name, rest) = subject.split_once('[')?;
    let index = rest.strip_suffix(']')?;
    let plain = |s: &str| !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    (plain(name) && name != "args" && name != "self" && index.chars().all(|c| c.is_ascii_digit()) && !index.is_empty())
        .then(|| name.to_string())
}

/// A guard that compares two sizes with each other (`a.size()[0] >
/// b.size()[0]`): the traced code needed their order (the longest of a
/// list), so each new order compiles again; nothing was made dynamic by it.
pub fn size_relation(guard: &str) -> bool {
    let test = crate::reasons::split::guard_test(guard);
    test.matches(".size()[").count() >= 2 && [" > ", " >= ", " < ", " <= "].iter().any(|op| test.contains(op))
}

/// The local or global a subject is rooted in: `self` of `self.a.b`, `x`
/// of `x.size()`, `h` of `len(h)` (the owner stage and a resume function's
/// carried locals read it alike).
pub fn root_of(subject: &str) -> &str {
    let s = subject.trim_start_matches("not ");
    let s = s.strip_prefix("hasattr(").unwrap_or(s);
    // What a length or a key test is about: `len(self.history)`,
    // `___dict_contains(32, self.cache)`.
    let s = s.strip_prefix("len(").unwrap_or(s);
    // An entry's value: `dict.__getitem__(self._hparams, list(...)[2])`.
    let s = s.strip_prefix("dict.__getitem__(").unwrap_or(s);
    let s = match s.strip_prefix("___dict_contains(") {
        Some(args) => args.split_once(", ").map_or(args, |(_, of)| of),
        None => s,
    };
    let end = s.find(['.', '[', ' ', '(', ',']).unwrap_or(s.len());
    &s[..end]
}

/// The tensor a tensor guard failure names: `x` of `tensor 'x' size
/// mismatch ...` (as logged, locals maybe as `L['x']`).
pub fn guarded_tensor(guard: &str) -> Option<&str> {
    let rest = guard.strip_prefix("tensor '")?;
    rest.find("' ").map(|end| &rest[..end])
}

/// A path rooted in a name the frame was handed (an argument, a local),
/// not `self`, a bound method's `fn`, a global or the locals dict.
fn handed_in(path: &str) -> bool {
    let root = path.split(['.', '[']).next().unwrap_or("");
    !root.is_empty() && !matches!(root, "self" | "fn" | "G" | "L")
}

/// A guarded path that runs through a module's submodules (`_modules`,
/// which only an nn.Module has) from a model the frame is handed
/// (`model._modules['norm'].eps`): an attribute of that model, not a value
/// of its own.
pub fn through_submodules(subject: &str) -> bool {
    handed_in(subject) && subject.contains("._modules['")
}

/// A parameter of a module the frame is handed (`tensor
/// 'stage._modules['kv']._parameters['bias']' ...`): another size there is
/// another module passed in.
pub fn argument_module_parameter(guard: &str) -> bool {
    guarded_tensor(guard).is_some_and(|t| handed_in(t) && t.contains("._parameters['"))
}

/// The key and the dict of a key test, `___dict_contains(KEY, DICT)`
/// (negated or not): `("32", "self.cache")`.
pub fn dict_key_test(guard: &str) -> Option<(&str, &str)> {
    let call = "___dict_contains(";
    let args = &guard[guard.find(call)? + call.len()..];
    args[..args.rfind(')')?].rsplit_once(", ")
}

/// The container a length or emptiness guard tests: `X` of `len(X) != 2`
/// or of `not X` (`X` alone: whether it is empty), before the guard's
/// comment. None for any other guard.
pub fn container_tested(guard: &str) -> Option<&str> {
    let text = crate::reasons::split::guard_test(guard);
    if let Some(inner) = text.strip_prefix("len(") {
        return inner.rsplit_once(')').map(|(x, _)| x);
    }
    let bare = text.strip_prefix("not ").unwrap_or(text);
    (!bare.is_empty() && !bare.contains(' ')).then_some(bare)
}

/// An attribute of a torch-function mode on the stack
/// (`___get_torch_function_mode_stack_at(0).calls`): the mode object's own
/// state, not torch's mode stack.
pub fn function_mode_state(guard: &str) -> bool {
    guard
        .split_once("___get_torch_function_mode_stack_at(")
        .is_some_and(|(_, rest)| rest.contains(")."))
}

/// `___check_obj_id(self, ...)` (after `canonical`): the identity of the
/// object a compiled method runs on, not one of its attributes.
pub fn receiver_identity(guard: &str) -> bool {
    guard.trim_start().starts_with("___check_obj_id(self,")
}

/// The class an identity guard names, without its module
/// (`___check_obj_id(x, 1), type=<class 'mod.C'>` -> `C`).
pub fn guarded_class(guard: &str) -> Option<&str> {
    if !guard.trim_start().starts_with("___check_obj_id(") {
        return None;
    }
    let ty = guard.split("type=<class '").nth(1)?.split('\'').next()?;
    Some(ty.rsplit('.').next().unwrap_or(ty))
}

/// The dim of `tensor 'x' size mismatch at index D. ...`.
pub fn size_mismatch_dim(guard: &str) -> Option<usize> {
    let rest = &guard[guard.find("size mismatch at index ")? + "size mismatch at index ".len()..];
    rest.split(|c: char| !c.is_ascii_digit()).next()?.parse().ok()
}

/// The two sides of torch's `... mismatch. expected E, actual A` text (a
/// size, a stride, a dispatch key set): `E` whole, and `A` up to the end of
/// the text (torch may add a sentence after it: ". Guard failed on a
/// parameter, ...").
pub fn expected_actual(guard: &str) -> Option<(&str, &str)> {
    let (_, rest) = guard.split_once(". expected ")?;
    let (expected, actual) = rest.split_once(", actual ")?;
    Some((expected.trim(), actual.trim()))
}

/// `tensor '...' size mismatch at index D. expected E, actual A`, read once.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SizeMismatch<'a> {
    pub dim: usize,
    /// The size the failed entry was compiled for, as torch wrote it.
    pub expected: &'a str,
    /// The size the new call passed: the digits right after "actual".
    pub actual: u64,
}

impl SizeMismatch<'_> {
    /// The compiled size as a number.
    pub fn expected_size(&self) -> Option<u64> {
        self.expected.parse().ok()
    }
}

pub fn size_mismatch(guard: &str) -> Option<SizeMismatch<'_>> {
    let dim = size_mismatch_dim(guard)?;
    let (expected, actual) = expected_actual(guard)?;
    let digits = actual.bytes().take_while(u8::is_ascii_digit).count();
    Some(SizeMismatch {
        dim,
        expected,
        actual: actual[..digits].parse().ok()?,
    })
}

/// A size mismatch whose new size is below the compiled one: the sizes,
/// old and new.
pub fn size_shrank(guard: &str) -> Option<(u64, u64)> {
    let m = size_mismatch(guard)?;
    let expected = m.expected_size()?;
    (m.actual < expected).then_some((expected, m.actual))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn expected_and_actual_of_each_mismatch_text() {
        let with_sentence =
            "tensor 'w' size mismatch at index 0. expected 16, actual 8. Guard failed on a parameter, consider using ...";
        assert_eq!(
            size_mismatch(with_sentence),
            Some(SizeMismatch {
                dim: 0,
                expected: "16",
                actual: 8
            })
        );
        assert_eq!(size_shrank(with_sentence), Some((16, 8)));
        assert_eq!(
            size_shrank("tensor 'x' size mismatch at index 1. expected 8, actual 12"),
            None
        );
        assert_eq!(
            expected_actual("tensor 'x' dispatch key set mismatch. expected DispatchKeySet(CPU, AutogradCPU), actual DispatchKeySet(CPU)"),
            Some(("DispatchKeySet(CPU, AutogradCPU)", "DispatchKeySet(CPU)"))
        );
        assert_eq!(
            expected_actual("tensor 'x' stride mismatch at index 1. expected 1, actual 64"),
            Some(("1", "64"))
        );
        // A stride text is not a size mismatch.
        assert_eq!(
            size_mismatch("tensor 'x' stride mismatch at index 1. expected 1, actual 64"),
            None
        );
    }

    #[test]
    fn subjects_of_each_kind_of_guard() {
        assert_eq!(
            failed_subject("tensor 'L['x']' size mismatch at index 1. expected 8, actual 12"),
            "x"
        );
        assert_eq!(failed_subject("GLOBAL_STATE changed: grad_mode "), "grad_mode");
        assert_eq!(
            failed_subject("GLOBAL_STATE changed: autocast(cpu)_enabled"),
            "autocast_state"
        );
        assert_eq!(failed_subject("2 <= L['x'].size()[0] <= 16"), "x");
        assert_eq!(failed_subject("L['self'].step == 3"), "self.step");
        assert_eq!(
            failed_subject("___check_obj_id(L['f'].__code__, 1401)"),
            "id(f.__code__)"
        );
        assert_eq!(
            failed_subject("___check_type_id(dims, 1405), type=<class 'list'>"),
            "type id(dims)"
        );
    }

    #[test]
    fn the_dim_and_the_key_a_guard_names() {
        let size = "tensor 'x' size mismatch at index 1. expected 8, actual 12";
        assert_eq!(size_mismatch_dim(size), Some(1));
        // Hand-made key tests, as Dynamo prints them.
        assert_eq!(
            dict_key_test("not ___dict_contains(32, self.cache)"),
            Some(("32", "self.cache"))
        );
        assert_eq!(
            dict_key_test("not ___dict_contains((1399, 'weight'), G['m']._cache)"),
            Some(("(1399, 'weight')", "G['m']._cache"))
        );
        assert_eq!(dict_key_test("len(self.cache) == 1"), None);
    }
}
