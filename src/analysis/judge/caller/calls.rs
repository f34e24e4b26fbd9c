//! The calls on one line of Python, nested ones and method chains
//! included: for `loss = F.cross_entropy(net(ids).reshape(-1, 64), y)`,
//! `F.cross_entropy(...)`, `net(ids)` and `net(ids).reshape(...)`, each with
//! its callee and its top-level arguments. Strings and comments are skipped;
//! a call the line does not close (a call over several lines) is kept with
//! no arguments, so a caller can tell it does not see them.

/// One call on the line.
#[derive(Debug, PartialEq)]
pub struct Call<'a> {
    /// The callee as written: `net`, `self.model`, `F.cross_entropy`,
    /// `net(ids).reshape`.
    pub callee: &'a str,
    /// The top-level arguments, trimmed; None when the line ends inside
    /// the call.
    pub args: Option<Vec<&'a str>>,
}

impl Call<'_> {
    /// The callee's last name: `reshape` of `net(ids).reshape`.
    pub fn name(&self) -> &str {
        self.callee.rsplit('.').next().unwrap_or(self.callee)
    }

    /// The first name of a dotted callee: `F` of `F.cross_entropy`.
    pub fn root(&self) -> &str {
        self.callee.split(['.', '(', '[']).next().unwrap_or(self.callee)
    }

    /// A method called on what another call or a subscript returned
    /// (`net(ids).reshape`, `batch["x"].to`): a method of a value, not a
    /// name the user bound to compiled code.
    pub fn on_a_result(&self) -> bool {
        match self.callee.rfind('.') {
            Some(dot) => self.callee[..dot].ends_with([')', ']']),
            None => false,
        }
    }
}

/// Every call on `code`, in the order their `(` appear.
pub fn calls(code: &str) -> Vec<Call<'_>> {
    let code = without_comment(code);
    let bytes = code.as_bytes();
    let (opener_of, closer_of) = brackets(code);
    let mut out = Vec::new();
    for (i, &b) in bytes.iter().enumerate() {
        // A `(` inside a string has no entry.
        if b != b'(' || i == 0 || !closer_of.contains_key(&i) {
            continue;
        }
        let prev = bytes[i - 1];
        if !(prev.is_ascii_alphanumeric() || prev == b'_' || prev == b')' || prev == b']') {
            continue;
        }
        let start = callee_start(bytes, i, &opener_of);
        let callee = code[start..i].trim();
        if callee.is_empty() || KEYWORDS.contains(&callee) || callee.starts_with(|c: char| c.is_ascii_digit()) {
            continue;
        }
        let args = closer_of
            .get(&i)
            .and_then(|c| *c)
            .map(|close| split_args(code, i + 1, close));
        out.push(Call { callee, args });
    }
    out
}

const KEYWORDS: [&str; 16] = [
    "if", "elif", "while", "return", "and", "or", "not", "in", "is", "lambda", "assert", "yield", "await", "for",
    "with", "else",
];

/// The bytes of `code[from..to]` outside string literals, with their
/// index: quotes, what they enclose and escapes inside them are skipped.
/// Every scan of a call line reads the line through this.
fn outside_strings(code: &str, from: usize, to: usize) -> impl Iterator<Item = (usize, u8)> + '_ {
    let bytes = code.as_bytes();
    let mut quote: Option<u8> = None;
    let mut i = from;
    std::iter::from_fn(move || {
        while i < to {
            let (at, b) = (i, bytes[i]);
            i += 1;
            match quote {
                Some(_) if b == b'\\' => i += 1,
                Some(q) if b == q => quote = None,
                Some(_) => {}
                None if b == b'\'' || b == b'"' => quote = Some(b),
                None => return Some((at, b)),
            }
        }
        None
    })
}

/// The line up to a `#` outside a string.
fn without_comment(code: &str) -> &str {
    match outside_strings(code, 0, code.len()).find(|&(_, b)| b == b'#') {
        Some((at, _)) => &code[..at],
        None => code,
    }
}

type Closers = std::collections::HashMap<usize, Option<usize>>;

/// For each closing bracket its opener, and for each opener its closer
/// (None when the line ends first); brackets inside strings are not brackets.
fn brackets(code: &str) -> (std::collections::HashMap<usize, usize>, Closers) {
    let mut opener_of = std::collections::HashMap::new();
    let mut closer_of = Closers::new();
    let mut open: Vec<usize> = Vec::new();
    for (i, b) in outside_strings(code, 0, code.len()) {
        match b {
            b'(' | b'[' | b'{' => open.push(i),
            b')' | b']' | b'}' => {
                if let Some(o) = open.pop() {
                    opener_of.insert(i, o);
                    closer_of.insert(o, Some(i));
                }
            }
            _ => {}
        }
    }
    for o in open {
        closer_of.insert(o, None);
    }
    (opener_of, closer_of)
}

/// Where the callee ending just before the `(` at `open` starts: back over
/// names, dots and whole bracketed groups (`a.b(c)[0].d`).
fn callee_start(bytes: &[u8], open: usize, opener_of: &std::collections::HashMap<usize, usize>) -> usize {
    let mut i = open;
    while i > 0 {
        let b = bytes[i - 1];
        if b.is_ascii_alphanumeric() || b == b'_' || b == b'.' {
            i -= 1;
        } else if b == b')' || b == b']' {
            match opener_of.get(&(i - 1)) {
                Some(&o) => i = o,
                None => break,
            }
        } else {
            break;
        }
    }
    i
}

/// The top-level arguments between `from` and `to` (exclusive).
fn split_args(code: &str, from: usize, to: usize) -> Vec<&str> {
    let mut parts = Vec::new();
    let (mut depth, mut start) = (0i32, from);
    for (i, b) in outside_strings(code, from, to) {
        match b {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => depth -= 1,
            b',' if depth == 0 => {
                parts.push(code[start..i].trim());
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(code[start..to].trim());
    parts.retain(|p| !p.is_empty());
    parts
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shown(code: &str) -> Vec<(String, Option<Vec<String>>)> {
        calls(code)
            .into_iter()
            .map(|c| {
                (
                    c.callee.to_string(),
                    c.args.map(|a| a.into_iter().map(str::to_string).collect()),
                )
            })
            .collect()
    }

    fn call(callee: &str, args: &[&str]) -> (String, Option<Vec<String>>) {
        (callee.to_string(), Some(args.iter().map(|a| a.to_string()).collect()))
    }

    #[test]
    fn nested_calls_and_method_chains_each_with_their_arguments() {
        assert_eq!(
            shown("loss = F.cross_entropy(net(ids).reshape(-1, 64), labels.reshape(-1))"),
            vec![
                call("F.cross_entropy", &["net(ids).reshape(-1, 64)", "labels.reshape(-1)"]),
                call("net", &["ids"]),
                call("net(ids).reshape", &["-1", "64"]),
                call("labels.reshape", &["-1"]),
            ]
        );
        let chain = calls("z = self.helper.run(x=batch['a, b'][:, :-1], k=(1, 2)).float()  # f(y)");
        assert_eq!(chain.len(), 2);
        assert_eq!(chain[0].callee, "self.helper.run");
        assert_eq!(
            chain[0].args.as_deref(),
            Some(&["x=batch['a, b'][:, :-1]", "k=(1, 2)"][..])
        );
        assert!(chain[1].on_a_result());
        assert_eq!(chain[1].name(), "float");
        assert_eq!(chain[0].root(), "self");
    }

    #[test]
    fn a_call_the_line_does_not_close_has_no_arguments() {
        let c = calls("out = model(");
        assert_eq!(
            c,
            vec![Call {
                callee: "model",
                args: None
            }]
        );
        let c = calls("loss = crit(net(ids),");
        assert_eq!(c[0].args, None);
        assert_eq!(c[1].args.as_deref(), Some(&["ids"][..]));
    }

    #[test]
    fn keywords_and_grouping_parentheses_are_not_calls() {
        assert!(calls("if (a and b) or not (c):").is_empty());
        assert!(calls("x = (a + b) * [c][0]").is_empty());
        assert_eq!(calls("return net(x)")[0].callee, "net");
    }
}
