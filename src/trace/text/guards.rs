//! `[__guards]` blocks (`TORCH_LOGS=guards`): the guard tree a compile
//! installed, printed line by line under `GUARDS:` as the TORCH_TRACE log's
//! `dynamo_cpp_guards_str` holds it whole. Gathered per process and
//! compile; the other lines of the artifact (the shape guard function,
//! `Guard eval latency`) end a tree and are passed over.

use super::block::Origin;
use super::prefix::LineView;
use crate::trace::envelope::CompileRef;
use std::collections::HashMap;

/// Bytes of one tree kept at most: a model's tree is a few MB at worst; one
/// longer is read by its start, as the trace parser reads a long line.
const TREE_CAP: usize = 32 << 20;

/// A compile's guard tree, read whole.
pub struct Tree {
    pub compile: CompileRef,
    pub origin: Origin,
    pub text: String,
}

/// The trees being read, one per writer `K` (a rank's lines interleave).
pub struct Trees<K> {
    open: HashMap<K, Tree>,
}

impl<K> Default for Trees<K> {
    fn default() -> Self {
        Trees { open: HashMap::new() }
    }
}

/// A line of the tree itself (`TREE_GUARD_MANAGER:`, `+- ...`, `| +- ...`,
/// or the blank line before it).
fn in_tree(body: &str) -> bool {
    body.trim().is_empty() || body.trim() == "TREE_GUARD_MANAGER:" || body.starts_with("+- ") || body.starts_with("| ")
}

impl<K: std::hash::Hash + Eq + Ord + Copy> Trees<K> {
    /// Takes a logged `[__guards]` line; the tree it ends, if any.
    pub fn line(&mut self, key: K, v: &LineView, origin: Origin) -> Option<Tree> {
        let compile = v.compile?;
        let body: &str = &v.body;
        let starts = body.trim() == "GUARDS:";
        let ends = self
            .open
            .get(&key)
            .is_some_and(|t| starts || t.compile != compile || !in_tree(body));
        let ended = if ends { self.open.remove(&key) } else { None };
        if starts {
            let text = String::new();
            self.open.insert(key, Tree { compile, origin, text });
        } else if let Some(tree) = self.open.get_mut(&key) {
            if tree.text.len() + body.len() < TREE_CAP {
                if !tree.text.is_empty() {
                    tree.text.push('\n');
                }
                tree.text.push_str(body.trim_end());
            }
        }
        ended.filter(|t| t.text.contains("+- "))
    }

    /// The trees still being read when the log ends.
    pub fn finish(&mut self) -> Vec<Tree> {
        let mut keys: Vec<K> = self.open.keys().copied().collect();
        keys.sort();
        keys.into_iter()
            .filter_map(|k| self.open.remove(&k))
            .filter(|t| t.text.contains("+- "))
            .collect()
    }
}
