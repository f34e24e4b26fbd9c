//! Where a guard without a comment came from. Tensor guard failures
//! (`tensor 'x' size mismatch ...`), a dict's length (`len(X) != 2`), a
//! module's number of children (`len(X._modules) != 6`) and a missing
//! attribute (`KeyError on self.aux_head`) carry no source line, but the
//! cache entries' guard trees (`dynamo_cpp_guards_str`) have a
//! `TENSOR_MATCH` line for the same tensor, a guard on one of the dict's
//! keys, the submodule's `TYPE_MATCH` or the attribute's `NO_HASATTR`, with
//! the user line that read it:
//!
//! ```text
//! +- TENSOR_MATCH: check_tensor(L['self']._buffers['cache'], Tensor, ...)  # n = self.cache.size(0)  # model.py:59 in forward
//! +- EQUALS_MATCH: list(dict.keys(L['self'].calls))[0] == 'linear'  # self.calls[name] += 1  # model.py:24 in __torch_function__
//! ```

use super::culprit::strip_locals;
use super::paths::{owner, Owner};
use super::split::{parse_location, split, GuardFailure, Location};
use super::subject::{container_tested, failed_subject, guarded_tensor};

const MARKER: &str = "TENSOR_MATCH: check_tensor(";
/// A key of a dict (`list(dict.keys(X))[0] == 'linear'`).
const KEY_MARKER: &str = "EQUALS_MATCH: list(dict.keys(";
/// A submodule's class (`___check_type_id(L['self']._modules['layers'], ..)`):
/// the user line that reads the submodule, for a guard on its children.
const MODULE_MARKER: &str = "TYPE_MATCH: ___check_type_id(";
/// An attribute tested for (`not hasattr(L['self'], 'aux_head')`): the
/// user line that tests it, for a guard on the attribute itself.
const HASATTR_MARKER: &str = "HASATTR: not hasattr(";

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
            let Some(at) = line.find(KEY_MARKER) else {
                return module_or_attribute_line(line);
            };
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

/// A submodule's class guard or an attribute's absence guard whose comment
/// names a line of the user's own code, as a site of that submodule
/// (`self._modules['layers']`) or attribute (`self.aux_head`). Only these
/// two, and only in user code: a model's classes are guarded once per
/// submodule, most inside a library's forward.
fn module_or_attribute_line(line: &str) -> Option<GuardSite> {
    let (at, subject) = if let Some(at) = line.find(MODULE_MARKER) {
        let rest = &line[at + MODULE_MARKER.len()..];
        let subject = &rest[..rest.find(", ")?];
        if !subject.ends_with("']") || !subject.contains("._modules['") {
            return None;
        }
        (at, subject.to_string())
    } else {
        let at = line.find(HASATTR_MARKER)?;
        let rest = &line[at + HASATTR_MARKER.len()..];
        let (object, name) = rest[..rest.find(')')?].split_once(", ")?;
        (at, format!("{object}.{}", name.trim_matches('\'')))
    };
    let g = split(&line[at..]);
    let location = g.location.filter(|l| owner(&l.file) == Owner::User)?;
    Some(GuardSite {
        subject: strip_locals(&subject),
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
    // `len(X._modules) != 6`: where the submodule X is read;
    // `KeyError on self.aux_head`: where the attribute is tested for.
    let children = dict.and_then(|d| d.strip_suffix("._modules"));
    let missing = guard.starts_with("KeyError on ");
    let subject = match (guarded_tensor(&g.guard), children, dict) {
        (Some(tensor), ..) => strip_locals(tensor),
        (None, Some(container), _) => container.to_string(),
        (None, None, Some(dict)) => dict.to_string(),
        (None, None, None) if missing => failed_subject(&g.guard),
        _ => return,
    };
    if passed_by_caller(&subject) {
        return;
    }
    // A submodule's parameter gone (pruning renames `weight`) whose guards
    // were installed in the library's forward: the user line that calls
    // that submodule. Not a tensor guard of a parameter still there (its
    // requires_grad, its size): those lines are where the value was set.
    let site = sites.iter().find(|s| s.subject == subject).or_else(|| {
        let enclosing = || enclosing_modules(&subject).find_map(|m| sites.iter().find(|s| s.subject == m));
        missing.then(enclosing).flatten()
    });
    if let Some(site) = site {
        g.location = Some(site.location.clone());
        g.source = Some(site.location.short());
        if g.code.is_none() {
            g.code = site.code.clone();
        }
    }
}

/// The submodules a subject lies in, innermost first
/// (`self._modules['a']._modules['b']._parameters['w']` ->
/// `self._modules['a']._modules['b']`, `self._modules['a']`).
fn enclosing_modules(subject: &str) -> impl Iterator<Item = &str> {
    const AT: &str = "._modules['";
    subject.rmatch_indices(AT).filter_map(move |(at, _)| {
        let end = at + AT.len() + subject[at + AT.len()..].find("']")? + 2;
        (end < subject.len()).then(|| &subject[..end])
    })
}

/// A graph's first read of an input (`trace::graph_reads`) as a site of the
/// user's code, its subject the input's name as Dynamo made it from its
/// source (`L_self_modules_fc1_parameters_bias_`); None for a read inside
/// torch or a library.
pub fn graph_read_site(input: &str, site: &str, code: Option<&str>) -> Option<GuardSite> {
    let location = parse_location(site).filter(|l| owner(&l.file) == Owner::User)?;
    Some(GuardSite {
        subject: input.to_string(),
        code: code.map(String::from),
        location,
    })
}

/// The user's line where the compiled graph first read a tensor whose
/// guard names no line: a module's parameter or buffer (its shape, dtype
/// or requires_grad). Not for an argument: its line is the call (see
/// `locate`). Not for a list of submodules either: the graph's comment
/// names the innermost line that used an element (inside the block's own
/// forward), not the loop over the list that made its length matter.
pub fn locate_read(g: &mut GuardFailure, reads: &[GuardSite]) {
    if g.source.is_some() || reads.is_empty() {
        return;
    }
    let Some(tensor) = guarded_tensor(&g.guard).map(strip_locals) else {
        return;
    };
    if passed_by_caller(&tensor) {
        return;
    }
    let name = graph_input_name(&tensor);
    // Only the line: the code it quotes is the call's as a whole, not the
    // guard's own, and the judgement reads a guard's code.
    g.read_at = reads.iter().find(|r| r.subject == name).map(|r| r.location.clone());
}

/// The name Dynamo gives the graph input of a source: `L['self']._modules['fc1']`
/// -> `L_self_modules_fc1_`, every run of other characters one `_`.
fn graph_input_name(subject: &str) -> String {
    let source = if subject.starts_with("G[") {
        subject.to_string()
    } else {
        format!("L_{subject}")
    };
    let mut out = String::with_capacity(source.len());
    for c in source.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c);
        } else if !out.ends_with('_') {
            out.push('_');
        }
    }
    out
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

/// The guard was placed by torch's own pass that hands a float it meant to
/// keep symbolic back to the graph as a constant, because an op needed the
/// number: `remove_tensorify_specialized_graphargs` (output_graph.py) or
/// `_tensorify_impl` (fx/passes/_tensorify_python_scalars.py; seen from
/// torch 2.12 to 2.15). The text's comment names that pass, not a line of
/// anyone's code.
pub fn tensorified(raw: &str) -> bool {
    raw.contains("remove_tensorify_specialized") || raw.contains("_tensorify_python_scalars")
}

impl GuardFailure {
    /// The guard's comment names a line of a library's code (an installed
    /// package): the value is read there, not in the user's code or torch's.
    pub fn read_in_library(&self) -> bool {
        self.location.as_ref().is_some_and(|l| owner(&l.file) == Owner::Library)
    }

    /// The guard's comment quotes a line of a `forward` that reads the
    /// guarded attribute as `self.NAME` (`block.eps == 1e-12`, read by
    /// `F.layer_norm(..., self.eps)` in forward): whatever name the frame
    /// reaches the object by (an argument, a local, a global), it is the
    /// module whose forward ran, and the value that module's attribute.
    pub fn read_as_self_in_forward(&self) -> bool {
        let in_forward = self.location.as_ref().and_then(|l| l.function.as_deref()) == Some("forward");
        let (true, Some(code)) = (in_forward, self.code.as_deref()) else {
            return false;
        };
        let subject = failed_subject(&self.guard);
        let Some((object, name)) = subject.rsplit_once('.') else {
            return false;
        };
        let plain = |t: &str| !t.is_empty() && t.chars().all(|c| c.is_alphanumeric() || c == '_');
        if !plain(name) || object == "self" {
            return false;
        }
        let read = format!("self.{name}");
        code.match_indices(&read).any(|(at, _)| {
            let before = code[..at].chars().next_back();
            let after = code[at + read.len()..].chars().next();
            !before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '.')
                && !after.is_some_and(|c| c.is_alphanumeric() || c == '_')
        })
    }
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
    fn graph_input_names_follow_dynamo() {
        assert_eq!(
            graph_input_name("self._modules['fc1']._parameters['bias']"),
            "L_self_modules_fc1_parameters_bias_"
        );
    }

    #[test]
    fn a_parameter_gets_the_line_its_graph_read_it_an_argument_does_not() {
        let read = |input: &str| {
            graph_read_site(
                input,
                "/home/user/proj/ensemble_width_search/train.py:22 in forward",
                Some("return self.fc2(torch.tanh(self.fc1(x))).squeeze(-1)"),
            )
            .unwrap()
        };
        let reads = [
            read("L_x_"),
            read("L_self_modules_fc1_parameters_bias_"),
            read("L_self_modules_blocks_modules_0_modules_ff_parameters_weight_"),
        ];
        let mut g = split(
            "0/0: tensor 'self._modules['fc1']._parameters['bias']' size mismatch at index 0. expected 16, actual 32",
        );
        locate_read(&mut g, &reads);
        assert_eq!(
            g.read_at.as_ref().map(Location::short).as_deref(),
            Some("/home/user/proj/ensemble_width_search/train.py:22")
        );
        // The length of a list of blocks: the read is inside a block.
        let mut g = split("0/0: len(self._modules['blocks']._modules) != 1");
        locate_read(&mut g, &reads);
        assert_eq!(g.read_at, None);
        let mut g = split("0/0: tensor 'x' size mismatch at index 0. expected 8, actual 3");
        locate_read(&mut g, &reads);
        assert_eq!(g.read_at, None);
        // A read in torch's own file is no line of the user's.
        assert!(graph_read_site(
            "L_a_",
            "/v/lib/python3.11/site-packages/torch/optim/adam.py:3 in f",
            None
        )
        .is_none());
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
