//! Where a compiled graph first reads each of its inputs, from Dynamo's
//! `dynamo_output_graph` payload. A guard on a module's parameter or on its
//! list of submodules carries no line of the user's (it is installed inside
//! torch), but the graph's nodes carry `# File:` comments, and the first node
//! that uses an input is the line that read it:
//!
//! ```text
//!         l_self_modules_fc1_parameters_bias_ = L_self_modules_fc1_parameters_bias_
//!         # File: /home/me/train.py:22 in forward, code: return self.fc2(torch.tanh(self.fc1(x)))
//!         linear: "f32[64, 16]" = torch._C._nn.linear(l_x_, l_self_modules_fc1_parameters_weight_, l_self_modules_fc1_parameters_bias_);  l_x_ = ...
//! ```
//!
//! The same comments quote the traced source lines, so they also tell which
//! names the traced code assigned (`keep = scores > thresh`): a resume
//! function's local of that name is a value computed before the graph
//! break, not an argument the caller passed.
//!
//! Streamed a line at a time: the graph itself (a model's is megabytes) is
//! never kept, only one site per input and the names assigned.

use foldhash::fast::RandomState;
use std::collections::HashMap;

/// The first read of one graph input.
#[derive(Debug, Clone, PartialEq)]
pub struct GraphRead {
    /// The input as Dynamo named it from its source
    /// (`L_self_modules_fc1_parameters_bias_`).
    pub input: String,
    /// `path:line in function`, as the comment gives it.
    pub site: String,
    /// The source line the comment quotes.
    pub code: Option<String>,
}

/// A name a traced source line assigns (`keep` of `keep = scores > t`).
#[derive(Debug, Clone, PartialEq)]
pub struct Assignment {
    pub file: String,
    pub line: u32,
    pub name: String,
}

/// What one output graph says: its inputs' first reads and the names its
/// traced lines assign.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct GraphSummary {
    pub reads: Vec<GraphRead>,
    pub assigned: Vec<Assignment>,
}

pub(super) struct GraphScan {
    /// The graph's local copy of an input -> the input (`l_x_` -> `L_x_`).
    inputs: HashMap<String, String, RandomState>,
    /// The first bytes of the copies' names: a node line's other words
    /// (`torch`, `linear`, `_C`) are passed over without a lookup.
    first_bytes: [bool; 256],
    /// The latest `# File:` comment: site and code.
    at: Option<(String, Option<String>)>,
    reads: Vec<GraphRead>,
    assigned: Vec<Assignment>,
}

impl Default for GraphScan {
    fn default() -> Self {
        GraphScan {
            inputs: HashMap::default(),
            first_bytes: [false; 256],
            at: None,
            reads: Vec::new(),
            assigned: Vec::new(),
        }
    }
}

const FILE: &[u8] = b"# File: ";
const CODE: &str = ", code: ";
/// The cleanup part of a node line (`;  a = b = None`) names inputs too.
const CLEANUP: &[u8] = b";  ";

impl GraphScan {
    pub(super) fn feed(&mut self, line: &[u8]) {
        let t = trim_start(line);
        if let Some(rest) = t.strip_prefix(FILE) {
            let rest = String::from_utf8_lossy(rest);
            let (site, code) = match rest.split_once(CODE) {
                Some((site, code)) => (site.to_string(), Some(code.trim_end().to_string())),
                None => (rest.trim_end().to_string(), None),
            };
            if let Some(code) = &code {
                self.note_assignments(&site, code);
            }
            self.at = Some((site, code));
            return;
        }
        let Some(eq) = memchr::memmem::find(t, b" = ") else {
            return;
        };
        let (lhs, rhs) = (&t[..eq], &t[eq + 3..]);
        let rhs = memchr::memmem::find(rhs, CLEANUP).map_or(rhs, |end| &rhs[..end]);
        // `l_x_ = L_x_`: the graph's copy of an input, before any node.
        if is_identifier(lhs) && is_identifier(rhs.trim_ascii_end()) && rhs.first().is_some_and(u8::is_ascii_uppercase)
        {
            let name = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
            self.first_bytes[usize::from(lhs[0])] = true;
            self.inputs.insert(name(lhs), name(rhs.trim_ascii_end()));
            return;
        }
        let Some((site, code)) = &self.at else {
            return;
        };
        if self.inputs.is_empty() {
            return;
        }
        for word in rhs.split(|b| !(b.is_ascii_alphanumeric() || *b == b'_')) {
            if word.first().is_none_or(|b| !self.first_bytes[usize::from(*b)]) {
                continue;
            }
            let Ok(word) = std::str::from_utf8(word) else {
                continue;
            };
            // Each input is read first once: taking it out of the map keeps
            // later lines from looking it up again.
            if let Some(input) = self.inputs.remove(word) {
                self.reads.push(GraphRead {
                    input,
                    site: site.clone(),
                    code: code.clone(),
                });
            }
        }
    }

    fn note_assignments(&mut self, site: &str, code: &str) {
        // `path:line in function`
        let at = site.rsplit_once(" in ").map_or(site, |(at, _)| at);
        let Some((file, line)) = at.rsplit_once(':') else {
            return;
        };
        let Ok(line) = line.parse() else {
            return;
        };
        for name in assigned_names(code) {
            let known = self
                .assigned
                .iter()
                .rev()
                .take(8)
                .any(|a| a.line == line && a.name == name && a.file == file);
            if !known {
                self.assigned.push(Assignment {
                    file: file.to_string(),
                    line,
                    name: name.to_string(),
                });
            }
        }
    }

    pub(super) fn finish(self) -> GraphSummary {
        GraphSummary {
            reads: self.reads,
            assigned: self.assigned,
        }
    }
}

/// The plain names a source line assigns: `a, b = f(x)` -> a, b; `x += 1`
/// -> x; `y: int = 3` -> y. Not an attribute or an item (`self.n = 1`,
/// `d[k] = v`): those are no local of the frame.
fn assigned_names(code: &str) -> Vec<&str> {
    let bytes = code.as_bytes();
    let Some(eq) = (0..bytes.len()).find(|&i| {
        bytes[i] == b'='
            && bytes.get(i + 1) != Some(&b'=')
            && (i == 0 || !matches!(bytes[i - 1], b'=' | b'!' | b'<' | b'>'))
    }) else {
        return Vec::new();
    };
    let mut target = code[..eq].trim_end();
    // `x += 1`: the operator's character sits before the `=`.
    target = target
        .trim_end_matches(['+', '-', '*', '/', '%', '&', '|', '^', '@'])
        .trim_end();
    // `y: int = 3`
    if let Some((name, _)) = target.split_once(':') {
        target = name;
    }
    if target.contains('(') && !target.trim_start().starts_with('(') {
        return Vec::new();
    }
    target
        .split(',')
        .map(|t| {
            t.trim()
                .trim_matches(|c| c == '(' || c == ')' || c == '[' || c == ']')
                .trim()
        })
        .filter(|t| is_identifier(t.as_bytes()))
        .collect()
}

fn trim_start(line: &[u8]) -> &[u8] {
    let at = line.iter().position(|b| !b.is_ascii_whitespace()).unwrap_or(line.len());
    &line[at..]
}

fn is_identifier(b: &[u8]) -> bool {
    b.first().is_some_and(|c| c.is_ascii_alphabetic() || *c == b'_')
        && b.iter().all(|c| c.is_ascii_alphanumeric() || *c == b'_')
}

#[cfg(test)]
mod tests {
    use super::*;

    // Lines of a real torch 2.12.1 graph (tests/scenarios4's
    // ensemble_width_search), the node lines shortened.
    const GRAPH: &str = "\
class GraphModule(torch.nn.Module):
    def forward(self, L_self_modules_fc1_parameters_weight_: \"f32[16, 10][10, 1]cpu\", L_x_: \"f32[64, 10][10, 1]cpu\"):
        l_self_modules_fc1_parameters_weight_ = L_self_modules_fc1_parameters_weight_
        l_x_ = L_x_

        # File: /home/user/proj/ensemble_width_search/train.py:22 in forward, code: return self.fc2(torch.tanh(self.fc1(x))).squeeze(-1)
        linear: \"f32[64, 16][16, 1]cpu\" = torch._C._nn.linear(l_x_, l_self_modules_fc1_parameters_weight_);  l_x_ = l_self_modules_fc1_parameters_weight_ = None
        tanh: \"f32[64, 16][16, 1]cpu\" = torch.tanh(linear);  linear = None
        return (tanh,)
";

    #[test]
    fn each_input_gets_the_comment_of_the_first_node_that_uses_it() {
        let mut scan = GraphScan::default();
        GRAPH.lines().for_each(|l| scan.feed(l.as_bytes()));
        let reads = scan.finish().reads;
        let site = "/home/user/proj/ensemble_width_search/train.py:22 in forward";
        let code = Some("return self.fc2(torch.tanh(self.fc1(x))).squeeze(-1)".to_string());
        assert_eq!(
            reads,
            [
                GraphRead {
                    input: "L_x_".into(),
                    site: site.into(),
                    code: code.clone()
                },
                GraphRead {
                    input: "L_self_modules_fc1_parameters_weight_".into(),
                    site: site.into(),
                    code
                },
            ]
        );
    }

    #[test]
    fn the_names_a_traced_line_assigns() {
        assert_eq!(
            assigned_names("boxes, scores, labels = boxes[0][keep], scores[keep], labels[keep]"),
            ["boxes", "scores", "labels"]
        );
        assert_eq!(assigned_names("keep = scores > score_thresh"), ["keep"]);
        assert_eq!(assigned_names("n += 1"), ["n"]);
        assert!(assigned_names("self.calls = 2").is_empty());
        assert!(assigned_names("return x == y").is_empty());
        assert!(assigned_names("out = f(a=1)").len() == 1);
        let mut scan = GraphScan::default();
        scan.feed(b"        # File: /p/train.py:51 in detect, code: keep = scores > score_thresh");
        assert_eq!(
            scan.finish().assigned,
            [Assignment {
                file: "/p/train.py".into(),
                line: 51,
                name: "keep".into()
            }]
        );
    }

    #[test]
    fn an_input_only_the_cleanup_names_is_not_read() {
        let mut scan = GraphScan::default();
        for l in [
            "l_a_ = L_a_",
            "# File: /p/train.py:3 in f, code: y = x + 1",
            "add = l_b_ + 1;  l_a_ = None",
        ] {
            scan.feed(l.as_bytes());
        }
        assert!(scan.finish().reads.is_empty());
    }
}
