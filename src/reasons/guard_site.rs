//! Where a guard without a comment came from. Tensor guard failures
//! (`tensor 'x' size mismatch ...`) and a dict's length (`len(X) != 2`)
//! carry no source line, but the failed cache entry's guard tree
//! (`dynamo_cpp_guards_str`) has a `TENSOR_MATCH` line for the same tensor,
//! or a guard on one of the dict's keys, with the user line that read it:
//!
//! ```text
//! +- TENSOR_MATCH: check_tensor(L['self']._buffers['cache'], Tensor, ...)  # n = self.cache.size(0)  # model.py:59 in forward
//! +- EQUALS_MATCH: list(dict.keys(L['self'].calls))[0] == 'linear'  # self.calls[name] += 1  # model.py:24 in __torch_function__
//! ```

use super::culprit::strip_locals;
use super::paths::{owner, Owner};
use super::split::{split, GuardFailure, Location};
use super::subject::{container_tested, guarded_tensor};

const MARKER: &str = "TENSOR_MATCH: check_tensor(";
/// A key of a dict (`list(dict.keys(X))[0] == 'linear'`).
const KEY_MARKER: &str = "EQUALS_MATCH: list(dict.keys(";

#[derive(Clone, Debug, PartialEq)]
pub struct GuardSite {
    /// The tensor, or the dict whose keys are guarded, as recompile
    /// reasons name it (`self._buffers['cache']`).
    pub subject: String,
    pub code: Option<String>,
    /// The guard comment's location (shortened as torch prints it).
    pub location: Location,
}

/// The sites of a guard tree payload that point into user code (guards
/// installed inside torch, e.g. on a Linear's weight, say nothing useful).
pub fn guard_sites(guard_tree: &str) -> Vec<GuardSite> {
    guard_tree.lines().filter_map(parse_line).collect()
}

pub(super) fn parse_line(line: &str) -> Option<GuardSite> {
    let (at, subject) = match line.find(MARKER) {
        Some(at) => {
            let rest = &line[at + MARKER.len()..];
            (at, &rest[..rest.find(", ")?])
        }
        None => {
            let at = line.find(KEY_MARKER)?;
            let rest = &line[at + KEY_MARKER.len()..];
            (
                line.find("EQUALS_MATCH: ")? + "EQUALS_MATCH: ".len(),
                &rest[..rest.find("))[")?],
            )
        }
    };
    // Most tensor guards (a model's parameters) are installed inside torch:
    // tell from the comment's last part before splitting the line in full.
    let last = line.rsplit("  # ").next().unwrap_or("");
    let file = last.trim_start_matches('(').split(':').next().unwrap_or("");
    if owner(file) == Owner::Torch {
        return None;
    }
    let g = split(&line[at..]);
    let location = g.location.filter(|l| owner(&l.file) != Owner::Torch)?;
    Some(GuardSite {
        subject: strip_locals(subject),
        code: g.code,
        location,
    })
}

/// Fills in the user line of a tensor guard failure from the sites of the
/// cache entry that failed, when the reason itself has none. Not for a
/// tensor the caller passed in: its new size or dtype comes from the line
/// that passes it (the call), not from where the compiled code first reads
/// it, so that read line would point the user at code that did not change.
pub fn locate(g: &mut GuardFailure, sites: &[GuardSite]) {
    if g.source.is_some() || g.location.is_some() {
        return;
    }
    // `len(X) != 2` of a dict: where one of its keys was read.
    let guard = crate::reasons::culprit::canonical(&g.guard);
    let dict = container_tested(&guard).filter(|_| guard.starts_with("len("));
    let subject = match (guarded_tensor(&g.guard), dict) {
        (Some(tensor), _) => strip_locals(tensor),
        (None, Some(dict)) => dict.to_string(),
        (None, None) => return,
    };
    if passed_by_caller(&subject) {
        return;
    }
    if let Some(site) = sites.iter().find(|s| s.subject == subject) {
        g.location = Some(site.location.clone());
        g.source = Some(site.location.short());
        if g.code.is_none() {
            g.code = site.code.clone();
        }
    }
}

/// Whether a guarded tensor is (part of) an argument of the compiled frame:
/// rooted in a local other than `self` (`x`, `proposals[0]`, numpy's
/// `___from_numpy(signal)`), not in a global, a module attribute or a value
/// Dynamo kept across a graph break (`___stack0`).
pub fn passed_by_caller(tensor: &str) -> bool {
    let t = tensor.strip_prefix("___from_numpy(").unwrap_or(tensor);
    let end = t.find(|c: char| !(c.is_alphanumeric() || c == '_')).unwrap_or(t.len());
    let root = &t[..end];
    let global = t[end..].starts_with("['") && root == "G";
    !root.is_empty() && root != "self" && !root.starts_with("___") && !global
}

#[cfg(test)]
mod tests {
    use super::*;

    // Lines copied from the collision sample's guard tree (real torch 2.15).
    const TREE: &str = "\
| | +- TENSOR_MATCH: check_tensor(L['self']._modules['pos_encoding']._buffers['pos_enc_cache'], Tensor, DispatchKeySet(CPU, BackendSelect, ADInplaceOrView, AutogradCPU), torch.float32, device=None, requires_grad=False, size=[0, 64], stride=[64, 1])  # cached = self.pos_enc_cache.size(0)  # samples/scripts/_collision_model.py:59 in forward
| | +- TENSOR_MATCH: check_tensor(L['self']._modules['norm']._parameters['weight'], Tensor, DispatchKeySet(CPU, BackendSelect, ADInplaceOrView, AutogradCPU), torch.float32, device=None, requires_grad=True, size=[64], stride=[1])  # input, self.normalized_shape, self.weight, self.bias, self.eps  # nn/modules/normalization.py:229 in forward
| | +- GuardManager: source=L['self']._modules['pos_encoding'].pos_enc_cache";

    #[test]
    fn only_user_sites_are_kept() {
        let sites = guard_sites(TREE);
        assert_eq!(
            sites,
            [GuardSite {
                subject: "self._modules['pos_encoding']._buffers['pos_enc_cache']".into(),
                code: Some("cached = self.pos_enc_cache.size(0)".into()),
                location: Location {
                    file: "samples/scripts/_collision_model.py".into(),
                    line: 59,
                    function: Some("forward".into())
                },
            }]
        );
    }

    #[test]
    fn a_size_mismatch_gets_the_line_that_read_the_tensor() {
        let mut g =
            split("0/0: tensor 'self._modules['pos_encoding']._buffers['pos_enc_cache']' size mismatch at index 0. expected 0, actual 32");
        locate(&mut g, &guard_sites(TREE));
        assert_eq!(g.source.as_deref(), Some("samples/scripts/_collision_model.py:59"));
        assert_eq!(g.code.as_deref(), Some("cached = self.pos_enc_cache.size(0)"));
    }

    #[test]
    fn an_argument_keeps_no_read_line() {
        // From tests/scenarios2's mark_unbacked_tokens log (torch 2.14).
        let tree = "| | +- TENSOR_MATCH: check_tensor(L['tokens'], Tensor, DispatchKeySet(CPU, BackendSelect, ADInplaceOrView, AutogradCPU), torch.int64, device=None, requires_grad=False, size=[None, 32], stride=[32, 1])  # positions = torch.arange(tokens.shape[1])  # ome/user/proj/mark_unbacked_tokens/train.py:16 in forward";
        let mut g = split("0/0: tensor 'tokens' size mismatch at index 1. expected 32, actual 48");
        locate(&mut g, &guard_sites(tree));
        assert_eq!((g.source, g.code), (None, None));
        assert!(passed_by_caller("___from_numpy(signal)"));
        assert!(passed_by_caller("proposals[0]"));
        assert!(!passed_by_caller("self._buffers['cache']"));
        assert!(!passed_by_caller("G['table']"));
        assert!(!passed_by_caller("___stack0"));
    }
}
