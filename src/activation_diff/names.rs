//! Module names: interning (records carry small ids, not strings) and the
//! mapping that makes a port's module paths comparable with the original's
//! (`--strip-prefix`, `--map`).

use regex::Regex;
use std::collections::HashMap;
use std::fmt;
use std::path::Path;
use std::sync::Arc;

/// A map with a fast, fixed hash (foldhash): every record costs several
/// lookups (names, the window's keys), and SipHash was a tenth of the diff's
/// time. Keys come from local trace files, not from a network peer choosing
/// collisions; fixed, so no run differs from another in anything.
pub type FastMap<K, V> = HashMap<K, V, foldhash::fast::FixedState>;
pub type FastSet<K> = std::collections::HashSet<K, foldhash::fast::FixedState>;

/// Strings to dense ids. Names repeat every step (tens of modules, a few
/// tensors and stats), so this holds as many entries as distinct names.
#[derive(Default)]
pub struct Interner {
    ids: FastMap<Arc<str>, u32>,
    names: Vec<Arc<str>>,
}

impl Interner {
    pub fn intern(&mut self, name: &str) -> u32 {
        if let Some(&id) = self.ids.get(name) {
            return id;
        }
        let id = self.names.len() as u32;
        let name: Arc<str> = name.into();
        self.names.push(Arc::clone(&name));
        self.ids.insert(name, id);
        id
    }

    /// `intern`, trying `guess` first: traces repeat their names in the
    /// same order record after record, so a caller that remembers the id
    /// of the last name in the same place mostly pays a compare instead of
    /// a hash lookup (interning was a tenth of a diff).
    pub fn intern_guessed(&mut self, name: &str, guess: u32) -> u32 {
        match self.names.get(guess as usize) {
            Some(known) if same_short(known.as_bytes(), name.as_bytes()) => guess,
            _ => self.intern(name),
        }
    }

    pub fn name(&self, id: u32) -> &Arc<str> {
        &self.names[id as usize]
    }

    pub fn len(&self) -> usize {
        self.names.len()
    }

    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }

    /// Names added since `from`, in id order.
    pub fn since(&self, from: usize) -> &[Arc<str>] {
        &self.names[from..]
    }
}

/// Shapes to dense ids, as `Interner` does names: a trace has a few
/// distinct shapes, and a record holding an id neither allocates nor
/// compares slices (a boxed shape per record, freed by the aligner's
/// thread, was a third of that thread's time).
#[derive(Default)]
pub struct Shapes {
    ids: FastMap<Arc<[i64]>, u32>,
    shapes: Vec<Arc<[i64]>>,
}

impl Shapes {
    pub fn intern(&mut self, dims: &[i64]) -> u32 {
        if let Some(&id) = self.ids.get(dims) {
            return id;
        }
        let id = self.shapes.len() as u32;
        let shape: Arc<[i64]> = dims.into();
        self.shapes.push(Arc::clone(&shape));
        self.ids.insert(shape, id);
        id
    }

    pub fn get(&self, id: u32) -> &[i64] {
        &self.shapes[id as usize]
    }

    pub fn len(&self) -> usize {
        self.shapes.len()
    }

    pub fn is_empty(&self) -> bool {
        self.shapes.is_empty()
    }

    /// Shapes added since `from`, in id order.
    pub fn since(&self, from: usize) -> &[Arc<[i64]>] {
        &self.shapes[from..]
    }
}

/// `a == b`, by two overlapping 8-byte loads when both have 8 to 16 bytes
/// (keys, tensor and stat names): memcmp's call cost more than the
/// compare, 18 times a record (a loop for longer names cost more again).
#[inline]
pub fn same_short(a: &[u8], b: &[u8]) -> bool {
    let n = a.len();
    if n != b.len() {
        return false;
    }
    if !(8..=16).contains(&n) {
        return a == b;
    }
    let word = |s: &[u8], at: usize| u64::from_le_bytes(s[at..at + 8].try_into().expect("8 bytes"));
    word(a, 0) == word(b, 0) && word(a, n - 8) == word(b, n - 8)
}

/// One side's rewriting of module names, applied before alignment: the first
/// `--strip-prefix` that matches is removed, then every `--map` rule runs in
/// file order on the result of the previous one (like a sed script).
#[derive(Clone, Debug, Default)]
pub struct NameMap {
    pub strip: Vec<String>,
    pub rules: Vec<Rule>,
}

#[derive(Clone, Debug)]
pub struct Rule {
    pub pattern: Regex,
    pub replacement: String,
}

impl NameMap {
    pub fn is_identity(&self) -> bool {
        self.strip.is_empty() && self.rules.is_empty()
    }

    pub fn apply(&self, name: &str) -> String {
        let mut out = self
            .strip
            .iter()
            .find_map(|p| name.strip_prefix(p.as_str()))
            .unwrap_or(name)
            .to_string();
        for rule in &self.rules {
            if rule.pattern.is_match(&out) {
                out = rule.pattern.replace(&out, rule.replacement.as_str()).into_owned();
            }
        }
        out
    }
}

#[derive(Debug)]
pub struct MapFileError {
    pub at: String,
    pub why: String,
}

impl fmt::Display for MapFileError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "{}: {}", self.at, self.why)
    }
}

/// Reads a `--map` file: one `REGEX -> REPLACEMENT` per line (split at the
/// first ` -> `); blank lines and lines starting with `#` are skipped.
/// The replacement may use `$1` / `${1}` / `${name}` and may be empty.
pub fn read_map_file(path: &Path) -> Result<Vec<Rule>, MapFileError> {
    let text = std::fs::read_to_string(path).map_err(|e| MapFileError {
        at: path.display().to_string(),
        why: e.to_string(),
    })?;
    parse_rules(&text, &path.display().to_string())
}

pub fn parse_rules(text: &str, file: &str) -> Result<Vec<Rule>, MapFileError> {
    let mut rules = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let at = || format!("{file}:{}", i + 1);
        let trimmed = line.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let Some((pattern, replacement)) = trimmed.split_once(" -> ").or_else(|| {
            // An empty replacement leaves "REGEX ->" once trimmed.
            trimmed.strip_suffix(" ->").map(|p| (p, ""))
        }) else {
            return Err(MapFileError {
                at: at(),
                why: "expected `REGEX -> REPLACEMENT`".into(),
            });
        };
        let pattern = Regex::new(pattern.trim()).map_err(|e| MapFileError {
            at: at(),
            why: format!("bad regex: {}", e.to_string().lines().last().unwrap_or("")),
        })?;
        rules.push(Rule {
            pattern,
            replacement: replacement.trim().to_string(),
        });
    }
    Ok(rules)
}

#[cfg(test)]
mod tests {
    #[test]
    fn same_short_is_equality() {
        let text = b"transformer.blocks.10.attention.out_proj.weight";
        for i in 0..text.len() {
            for j in i..=text.len() {
                let a = &text[i..j];
                let mut b = a.to_vec();
                assert!(super::same_short(a, &b));
                for k in 0..b.len() {
                    b[k] ^= 1;
                    assert!(!super::same_short(a, &b), "{i} {j} {k}");
                    b[k] ^= 1;
                }
                assert!(!super::same_short(a, &text[i..]) || j == text.len());
            }
        }
    }

    use super::*;

    #[test]
    fn interned_names_get_dense_ids_and_new_ones_can_be_listed() {
        let mut i = Interner::default();
        assert_eq!(i.intern("a"), 0);
        assert_eq!(i.intern("b"), 1);
        assert_eq!(i.intern("a"), 0);
        assert_eq!(&**i.name(1), "b");
        assert_eq!(i.since(1).len(), 1);
    }

    #[test]
    fn strip_first_matching_prefix_then_every_rule_in_order() {
        let rules = parse_rules(
            "# port of the reference\n\
             ^layers\\.(\\d+)\\.self_attn$ -> blocks.${1}.attn\n\
             \n\
             \\.mlp\\. -> .ffn.\n\
             ^extra\\. ->\n",
            "map.txt",
        )
        .unwrap();
        let map = NameMap {
            strip: vec!["model.".into(), "model.decoder.".into()],
            rules,
        };
        assert_eq!(map.apply("model.layers.3.self_attn"), "blocks.3.attn");
        assert_eq!(map.apply("model.layers.3.mlp.fc1"), "layers.3.ffn.fc1");
        assert_eq!(map.apply("extra.head"), "head");
        assert_eq!(map.apply("unrelated"), "unrelated");
        assert!(NameMap::default().is_identity());
    }

    #[test]
    fn a_bad_map_line_names_its_line() {
        let err = parse_rules("a -> b\nno arrow here\n", "m.txt").unwrap_err();
        assert_eq!(err.to_string(), "m.txt:2: expected `REGEX -> REPLACEMENT`");
        let err = parse_rules("(unclosed -> x\n", "m.txt").unwrap_err();
        assert!(err.to_string().starts_with("m.txt:1: bad regex"), "{err}");
    }
}
