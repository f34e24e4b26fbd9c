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
//! Streamed a line at a time: the graph itself (a model's is megabytes) is
//! never kept, only one site per input.

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

#[derive(Default)]
pub(super) struct GraphScan {
    /// The graph's local copy of an input -> the input (`l_x_` -> `L_x_`).
    inputs: HashMap<String, String>,
    /// The latest `# File:` comment: site and code.
    at: Option<(String, Option<String>)>,
    reads: Vec<GraphRead>,
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
            self.at = Some(match rest.split_once(CODE) {
                Some((site, code)) => (site.to_string(), Some(code.trim_end().to_string())),
                None => (rest.trim_end().to_string(), None),
            });
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

    pub(super) fn finish(self) -> Vec<GraphRead> {
        self.reads
    }
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
        let reads = scan.finish();
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
    fn an_input_only_the_cleanup_names_is_not_read() {
        let mut scan = GraphScan::default();
        for l in [
            "l_a_ = L_a_",
            "# File: /p/train.py:3 in f, code: y = x + 1",
            "add = l_b_ + 1;  l_a_ = None",
        ] {
            scan.feed(l.as_bytes());
        }
        assert!(scan.finish().is_empty());
    }
}
