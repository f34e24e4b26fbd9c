//! What a failed guard's own text says of the value: a flag, a number, a
//! string option, a size of 0 or 1, a bound from a branch, a dict's length,
//! an Enum member, a range the user declared. The evidence and the fix stages read the value's kind
//! here; neither needs the rest of the log for it.

use crate::reasons::subject::{container_tested, dict_key_test, size_mismatch, size_mismatch_dim};
use crate::reasons::GuardFailure;

/// The constant the new entry holds the guarded value at (None when it
/// holds it symbolically, or the log does not say).
pub(super) fn held_constant(g: &GuardFailure) -> Option<&str> {
    match &g.now {
        Some(crate::reasons::GuardedNow::Constant(v)) => Some(&**v),
        _ => None,
    }
}

/// A length guard on a dict (the guard trees name its keys): another set
/// of entries, not a list growing.
pub(super) fn dict_length(g: &GuardFailure) -> bool {
    g.guard.trim_start().starts_with("len(")
        && (g.dict_subject || g.changes.iter().flatten().any(|c| c.subject.contains("dict.keys(")))
}

/// The class of an identity-guarded value that the guarded line compares
/// with one of that class's members (`if pooling is Pooling.MEAN:`).
pub(super) fn enum_member(g: &GuardFailure) -> Option<&str> {
    let class = crate::reasons::subject::guarded_class(&g.guard)?;
    g.code
        .as_deref()
        .is_some_and(|code| code.contains(&format!("{class}.")))
        .then_some(class)
}

/// A size mismatch to 0 or 1, or a symbolic guard whose bound is the 0/1
/// specialisation (`2 <= x.size()[0]`) failed by such a size.
pub(super) fn specialisation_note(g: &GuardFailure) -> bool {
    g.hint
        .as_deref()
        .is_some_and(|h| h.contains("0/1 specialization") || h.contains("0/1 specialisation"))
}

/// A private name (`_step_index`, `_update_count`), not a dunder one:
/// state its object keeps, not a setting.
pub(super) fn private_name(name: &str) -> bool {
    name.starts_with('_') && !name.starts_with("__")
}

/// Torch's hint on the guard names the value an integer attribute of an
/// nn.Module (its `allow_unspec_int_on_nn_module` advice).
pub(super) fn module_int_hint(g: &GuardFailure) -> bool {
    g.hint
        .as_deref()
        .is_some_and(|h| h.contains("integer attributes of the nn.Module"))
}

pub(super) fn small_size(guard: &str) -> bool {
    if size_mismatch_dim(guard).is_some() {
        return size_mismatch(guard).is_some_and(|m| m.actual <= 1);
    }
    guard.contains(".size()[") && guard.trim_start().starts_with("2 <= ") && upper_bound(guard).is_none()
}

/// `x is None` failed and the new entry holds x as a constant (a string, a
/// number): None is one of its values, each a graph of its own, not one
/// side of a flag.
pub(super) fn none_then_constant(g: &GuardFailure) -> bool {
    crate::reasons::guard_test(&g.guard).ends_with(" is None") && held_constant(g).is_some_and(|v| v != "None")
}

/// `x == True`, `x is None`: a flag compared by value.
pub(super) fn is_flag(guard: &str) -> bool {
    let g = guard.trim();
    [" == True", " == False", " is None", " is not None"]
        .iter()
        .any(|s| g.ends_with(s))
}

pub(super) fn boolean(guard: &str) -> bool {
    let g = guard.trim();
    if is_flag(g) {
        return true;
    }
    // `not x` / `x`: the truth of a value (a container empty or not).
    let bare = g.strip_prefix("not ").unwrap_or(g);
    !bare.is_empty() && !bare.contains(' ')
}

/// `mode == 'sum'`: an option spelled as a string.
pub(super) fn string_value(guard: &str) -> bool {
    guard
        .rsplit_once(" == ")
        .is_some_and(|(_, v)| v.trim().starts_with('\'') || v.trim().starts_with('"'))
}

/// `a <= x.size()[d] <= b`: the upper bound, when the guard has one.
pub(super) fn upper_bound(guard: &str) -> Option<u64> {
    let at = guard.find(".size()[")?;
    let after = &guard[at..];
    let (_, rest) = after.split_once(" <= ")?;
    rest.split(|c: char| !c.is_ascii_digit()).next()?.parse().ok()
}

/// A symbolic bound a branch in the user's code put there: the guard
/// comment quotes the test (`if x.shape[0] > 16:`).
pub(super) fn branch_bound(g: &GuardFailure) -> Option<&str> {
    if !g.guard.contains(".size()[") && !g.guard.contains("shape[") {
        return None;
    }
    let code = g.code.as_deref()?;
    let test = code.trim_start();
    (test.starts_with("if ") || test.starts_with("elif ") || test.starts_with("while ") || test.contains(" if "))
        .then_some(code)
}

/// Whose code the guard's line is in: "your code", or "transformers's
/// code" for a line in an installed package.
pub(in crate::analysis::judge) fn code_of(g: &GuardFailure) -> String {
    g.location
        .as_ref()
        .and_then(|l| crate::reasons::paths::library_name(&l.file))
        .map_or_else(|| "your code".to_string(), |lib| format!("{lib}'s code"))
}

/// `L['t'] == 0.5`: a constant comparison with a float literal.
pub(super) fn compared_with_float_literal(guard: &str) -> bool {
    compared_value(guard).is_some_and(|v| v.contains('.') && v.parse::<f64>().is_ok())
}

/// `self.n == 3`: a constant comparison with an int literal.
pub(super) fn compared_with_int(guard: &str) -> bool {
    compared_value(guard)
        .and_then(|v| v.split_whitespace().next())
        .is_some_and(|v| v.parse::<i64>().is_ok())
}

/// A relation (`size != 64`, `n < 8`) on a plain int the compiled entry
/// holds symbolically, put there by a branch of the traced code (yours or a
/// library's, `if (h, w) == (old_h, old_w):`): Dynamo writes `==` for a
/// constant it specialised, so any other relation is a bound on a dynamic
/// value, and values on either side of it compile once each. The branch's
/// code and where it is.
pub(super) fn int_branch(g: &GuardFailure) -> Option<(&str, String)> {
    let text = crate::reasons::guard_test(&g.guard);
    let name_like = |s: &str| {
        s.chars().all(|c| c.is_ascii_alphanumeric() || "_[]'.".contains(c))
            && !s.contains(".size()")
            && !s.contains("shape[")
    };
    // `250 <= t <= 999`: a range with a bound on either side, or one.
    let parts: Vec<&str> = text.split(" <= ").map(str::trim).collect();
    let chained = parts.len() >= 2
        && parts[0].parse::<i64>().is_ok()
        && name_like(parts[1])
        && parts.get(2).is_none_or(|hi| hi.parse::<i64>().is_ok());
    let (lhs, rest) = text.split_once(' ')?;
    let (op, rhs) = rest.split_once(' ')?;
    let relation = chained || matches!(op, "!=" | "<" | "<=" | ">" | ">=");
    let number = chained || rhs.trim().parse::<i64>().is_ok();
    let name_like = chained || name_like(lhs);
    let code = g.code.as_deref()?.trim_start();
    let branch =
        code.starts_with("if ") || code.starts_with("elif ") || code.starts_with("while ") || code.contains(" if ");
    if !(name_like && relation && number && branch) {
        return None;
    }
    let at = g
        .location
        .as_ref()
        .map(|l| {
            let file = l.file.rsplit_once("site-packages/").map_or(l.file.as_str(), |(_, t)| t);
            format!("{file}:{}", l.line)
        })
        .unwrap_or_default();
    Some((code, at))
}

/// A symbolic guard with an upper bound the user did not declare: the
/// traced code put it there (a branch on the size, or an op that needs
/// it), and sizes on either side compile once each.
pub(super) fn traced_bound(g: &GuardFailure) -> bool {
    g.guard.contains(".size()[") && upper_bound(&g.guard).is_some()
}

/// `expected N` of a size mismatch: the size the failed entry was compiled for.
pub(super) fn compiled_size(guard: &str) -> Option<&str> {
    Some(size_mismatch(guard)?.expected)
}

/// The failed entry had size 0 or 1 at the dim: specialised by torch,
/// whatever the user marks.
pub(super) fn from_small_size(guard: &str) -> bool {
    matches!(compiled_size(guard), Some("0" | "1"))
}

/// The dict whose keys include the size the failed entry was compiled for,
/// when another failure of the same compile tests that key
/// (`___dict_contains(32, self.cache)` beside `size mismatch ... expected
/// 32`): the size is a cache key, and each key compiles once.
pub(super) fn size_keyed_dict<'a>(g: &GuardFailure, all: &'a [GuardFailure]) -> Option<&'a str> {
    let size = compiled_size(&g.guard)?;
    all.iter().find_map(|o| {
        dict_key_test(&o.guard)
            .filter(|(key, _)| *key == size)
            .map(|(_, dict)| dict)
    })
}

/// The dict whose key holds the size the failed entry was compiled for
/// (alone, or in a tuple: `(32, 32)`), when a failure of the compile shows
/// the dict gained that kind of key while running (`not ___dict_contains(
/// (32, 32), D)`: absent when compiled, present now).
pub(super) fn size_in_filled_dict_key(guard: &str, failures: &[GuardFailure]) -> Option<String> {
    let size = compiled_size(guard)?;
    failures.iter().find_map(|f| {
        let t = f.guard.trim_start().strip_prefix("not ")?;
        let (key, dict) = dict_key_test(t)?;
        let parts: Vec<&str> = key.trim_matches(['(', ')']).split(',').map(str::trim).collect();
        parts.contains(&size).then(|| dict.to_string())
    })
}

/// A list the module keeps and fills per size (a cache of lengths the
/// forward compares the size with: `for length, idx in self.cache: if
/// length == n`): another failure of the compile guards its length or
/// emptiness. The list, when one does; a size compared with a cached
/// length is a constant, whatever automatic dynamic shapes do.
pub(super) fn size_list_cache<'a>(g: &GuardFailure, all: &'a [GuardFailure]) -> Option<&'a str> {
    size_mismatch_dim(&g.guard)?;
    all.iter().find_map(|o| {
        let tested = o.guard.trim_start();
        if !tested.starts_with("len(") && !tested.starts_with("not ") {
            return None;
        }
        let list = container_tested(tested)?;
        let on_module = list.starts_with("self.")
            || list.starts_with("fn.")
            || list.starts_with("self._modules")
            || list.starts_with("fn._modules");
        (on_module && !o.dict_subject && !list.ends_with("._modules")).then_some(list)
    })
}

/// A symbolic guard that failed on a range the user declared with
/// `mark_dynamic(x, d, min=, max=)`: the cause entry's compile created
/// that dim with the declared range (its `create_symbol`).
pub(super) fn declared_range(g: &GuardFailure, declared: &[(String, String)]) -> Option<String> {
    let guard = crate::reasons::culprit::canonical(&g.guard);
    let at = guard.find(".size()[")?;
    let head = &guard[..at];
    let start = head.rfind([' ', '(']).map_or(0, |i| i + 1);
    let dim = guard[at + ".size()[".len()..].split(']').next()?;
    let source = format!("{}.size()[{dim}]", &head[start..]);
    let (_, range) = declared.iter().find(|(s, _)| *s == source)?;
    Some(format!(
        "the call passed a size outside the range declared for dim {dim} of {} ({range}, from mark_dynamic(min=, max=)); the failed guard: {}",
        crate::reasons::culprit::python_name(&head[start..]),
        g.guard.trim()
    ))
}

/// `self.compute_dtype == torch.float32`: a dtype kept as a Python value
/// (a setting with a few values, each one graph).
pub(super) fn dtype_value(guard: &str) -> bool {
    guard.rsplit_once(" == ").is_some_and(|(_, v)| {
        let v = v.split_whitespace().next().unwrap_or("");
        v.strip_prefix("torch.").is_some_and(|d| {
            [
                "float", "bfloat", "half", "double", "int", "uint", "bool", "complex", "long", "short",
            ]
            .iter()
            .any(|k| d.starts_with(k))
        })
    })
}

/// `((1 + (x.size()[0] // 2)) % 4) == 3`: a size's remainder modulo a
/// constant (an uneven split, a stride that must divide): at most that
/// many variants, one per remainder. The modulus.
pub(super) fn size_modulus(guard: &str) -> Option<u64> {
    if !guard.contains(".size()[") {
        return None;
    }
    let (_, rest) = guard.split_once(" % ")?;
    let m: u64 = rest.split(|c: char| !c.is_ascii_digit()).next()?.parse().ok()?;
    (m >= 2).then_some(m)
}

/// `actual N` of a size mismatch: the size the new call passed.
pub(super) fn actual_size(guard: &str) -> Option<u64> {
    Some(size_mismatch(guard)?.actual)
}

/// Both sizes of a size mismatch are multiples of 8 (16 -> 32, 32 -> 64):
/// lengths padded to buckets, not a short last batch (8 -> 5, 32 -> 6).
pub(super) fn bucket_sizes(guard: &str) -> bool {
    let old = compiled_size(guard).and_then(|s| s.trim().parse::<u64>().ok());
    matches!((old, actual_size(guard)), (Some(a), Some(b)) if a >= 8 && b >= 8 && a % 8 == 0 && b % 8 == 0)
}

/// The largest size compiled for dim `dim` of `tensor` by any failed entry
/// of the compile: the full batch a short one could be padded to.
pub(super) fn largest_compiled(tensor: &str, dim: usize, all: &[GuardFailure]) -> Option<u64> {
    all.iter()
        .filter(|o| {
            crate::reasons::subject::guarded_tensor(&o.guard) == Some(tensor)
                && size_mismatch_dim(&o.guard) == Some(dim)
        })
        .filter_map(|o| compiled_size(&o.guard)?.trim().parse().ok())
        .max()
}

/// The 0/1-specialisation note, read only where it is the bound that
/// failed: `2 <= x.size()[1] <= 128` carries the note for its lower bound,
/// but a size past the upper one (another failure of the compile passed
/// 160) crossed a bound the traced code put there.
pub(super) fn zero_one_bound(g: &GuardFailure, all: &[GuardFailure]) -> bool {
    specialisation_note(g) && (upper_bound(&g.guard).is_none() || new_size(g, all).is_none_or(|n| n <= 1))
}

/// The size the new call passed at the dim a symbolic guard
/// (`2 <= x.size()[1] <= 128`) bounds: from the guard trees' change of
/// `x.size()`, else from another failure of the compile that names it
/// (`tensor 'x' size mismatch at index 1. expected 32, actual 160`).
pub(super) fn new_size(g: &GuardFailure, all: &[GuardFailure]) -> Option<u64> {
    let guard = crate::reasons::culprit::canonical(&g.guard);
    let at = guard.find(".size()[")?;
    let head = &guard[..at];
    let tensor = &head[head.rfind([' ', '(']).map_or(0, |i| i + 1)..];
    let dim: usize = guard[at + ".size()[".len()..].split(']').next()?.parse().ok()?;
    let from_tree = g.changes.iter().flatten().find_map(|c| {
        (*c.subject == *format!("{tensor}.size()"))
            .then(|| c.new.trim_matches(['[', ']']).split(", ").nth(dim)?.trim().parse().ok())
            .flatten()
    });
    from_tree.or_else(|| {
        all.iter()
            .filter(|o| {
                crate::reasons::subject::guarded_tensor(&o.guard).map(crate::reasons::culprit::strip_locals)
                    == Some(tensor.to_string())
                    && size_mismatch_dim(&o.guard) == Some(dim)
            })
            .find_map(|o| actual_size(&o.guard))
    })
}

/// A size mismatch whose dim the new entry still holds static although
/// automatic dynamic shapes are on and neither size is 0 or 1: torch did
/// not make it dynamic on its first change, so something pins it.
pub(super) fn pinned(g: &GuardFailure, automatic_dynamic: Option<bool>) -> bool {
    automatic_dynamic != Some(false)
        && size_mismatch_dim(&g.guard).is_some()
        && !small_size(&g.guard)
        && !from_small_size(&g.guard)
        && !g.guard.contains("_parameters[")
        && !g.guard.contains("_buffers[")
        && matches!(g.now, Some(crate::reasons::GuardedNow::Constant(_)))
}

/// `self.window == 8` where the line the guard quotes tests the same value
/// against None (`if self.window is not None:`), or any `X == V` where the
/// new entry holds X as None: a value on some calls and None on others, a
/// switch of code path torch cannot make dynamic.
pub(super) fn value_or_none_test(g: &GuardFailure) -> bool {
    let guard = crate::reasons::culprit::canonical(&g.guard);
    let Some((subject, value)) = crate::reasons::guard_test(&guard).rsplit_once(" == ") else {
        return false;
    };
    // The new entry holding another int is an int that changed, not None.
    let now_int = matches!(&g.now, Some(crate::reasons::GuardedNow::Constant(v)) if v.trim().parse::<i64>().is_ok());
    if now_int {
        return false;
    }
    // The guard trees show the call passed None (`X is None` in the new
    // entry), whatever kind of number the failed entry held.
    let none = crate::reasons::guard_tree::line::NONE_VALUE;
    if g.changes
        .iter()
        .flatten()
        .any(|c| *c.subject == *subject.trim() && &*c.new == none)
    {
        return true;
    }
    if value.trim().parse::<i64>().is_err() {
        return false;
    }
    let subject = subject.trim().trim_start_matches("L[").to_string();
    g.code.as_deref().is_some_and(|code| {
        code.contains(&format!("{subject} is not None")) || code.contains(&format!("{subject} is None"))
    })
}

/// A size of 0 or 1 that the new compile holds where the failed entry held
/// the dim symbolic (`edge_index.size()`: `[2, None]` -> `[2, 0]`), whatever
/// guard was reported first (a stride relation only the empty tensor
/// breaks): the 0/1 specialisation, as (tensor, dim, size).
pub(super) fn zero_one_change(g: &GuardFailure) -> Option<(String, usize, u64)> {
    g.changes.iter().flatten().find_map(|c| {
        let tensor = c.subject.strip_suffix(".size()")?;
        let dims = |v: &str| -> Vec<String> {
            v.trim_matches(['[', ']'])
                .split(',')
                .map(|d| d.trim().to_string())
                .collect()
        };
        let (old, new) = (dims(&c.old), dims(&c.new));
        (old.len() == new.len())
            .then(|| {
                old.iter()
                    .zip(&new)
                    .position(|(o, n)| o == "None" && (n == "0" || n == "1"))
            })
            .flatten()
            .map(|d| (tensor.to_string(), d, new[d].parse().unwrap_or(0)))
    })
}

mod modules;
mod numbers;
pub(super) use modules::{module_children, torch_layer_argument, torch_layer_number, Children};
pub(super) use numbers::{
    compared_value, counter_step, full_precision_float, int_zero_one, length_as_number, numeric, op_number,
    slice_bound, specialised_number,
};

#[cfg(test)]
mod tests;
