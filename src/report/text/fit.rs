//! Lines that fit the terminal. Prose is wrapped between words; code (a
//! guard, a source line, a changed value's subject) is broken only between
//! its tokens, so a name, a number or a string literal is never split; and
//! where one line is all the room there is, code is cut with " … " between
//! whole tokens. A single token wider than the line stays whole.

use crate::report::format::{width, wrap_words};
use crate::report::paths::display_site;
use crate::report::text::terminal_safe;
use std::io::{self, Write};

/// Prose in lines of at most `columns`, the first after `first`, the rest
/// after `rest` (both included in the lines).
pub fn wrap(text: &str, columns: usize, first: &str, rest: &str) -> Vec<String> {
    let room = columns.saturating_sub(width(first).max(width(rest))).max(20);
    wrap_words(text, room)
        .into_iter()
        .enumerate()
        .map(|(i, line)| format!("{}{line}", if i == 0 { first } else { rest }))
        .collect()
}

/// Writes `wrap(text, columns, first, rest)`, a line each.
pub fn write_wrapped(out: &mut dyn Write, text: &str, columns: usize, first: &str, rest: &str) -> io::Result<()> {
    for line in wrap(text, columns, first, rest) {
        writeln!(out, "{line}")?;
    }
    Ok(())
}

/// `label` and `value` on one line when they fit, else the label alone and
/// the value wrapped below it after `rest`: a long path is never left
/// hanging past the edge after its label.
pub fn write_labelled(out: &mut dyn Write, label: &str, value: &str, columns: usize, rest: &str) -> io::Result<()> {
    if width(label) + width(value) <= columns {
        return writeln!(out, "{label}{}", terminal_safe(value));
    }
    writeln!(out, "{}", label.trim_end())?;
    write_wrapped(out, value, columns, rest, rest)
}

/// The pieces of `code` a line may break between, each with whether a space
/// stood before it: at whitespace, before an attribute's `.` or a `[` that
/// follow a name or a bracket (`a.b`, `x[0]`), and after `,` or `(`; never
/// inside a quoted literal.
fn pieces(code: &str) -> Vec<(bool, &str)> {
    let mut out = Vec::new();
    let mut start: Option<usize> = None;
    let mut space = false;
    let mut quote: Option<char> = None;
    let mut escaped = false;
    let mut prev: Option<char> = None;
    fn push<'c>(out: &mut Vec<(bool, &'c str)>, code: &'c str, from: usize, to: usize, space: bool) {
        if to > from {
            out.push((space, &code[from..to]));
        }
    }
    let mut chars = code.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        if let Some(q) = quote {
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == q {
                quote = None;
            }
            prev = Some(c);
            continue;
        }
        if c.is_whitespace() {
            if let Some(from) = start.take() {
                push(&mut out, code, from, i, space);
            }
            space = !out.is_empty();
            prev = Some(c);
            continue;
        }
        let after_operand = prev.is_some_and(|p| p.is_alphanumeric() || p == '_' || p == ')' || p == ']');
        // `.name` is an attribute; a `.` before a space ends a sentence.
        let attribute = c == '.' && chars.peek().is_some_and(|(_, n)| n.is_alphabetic() || *n == '_');
        match start {
            Some(from) if (attribute || c == '[') && after_operand => {
                push(&mut out, code, from, i, space);
                space = false;
                start = Some(i);
            }
            None => start = Some(i),
            _ => {}
        }
        if c == '\'' || c == '"' {
            quote = Some(c);
        } else if c == ',' || c == '(' {
            let end = i + c.len_utf8();
            push(&mut out, code, start.take().unwrap_or(i), end, space);
            space = false;
        }
        prev = Some(c);
    }
    if let Some(from) = start {
        push(&mut out, code, from, code.len(), space);
    }
    out
}

/// Code in lines of at most `columns`, broken between tokens; the first
/// line after `first`, the rest after `rest`.
pub fn wrap_code(code: &str, columns: usize, first: &str, rest: &str) -> Vec<String> {
    let code = terminal_safe(code);
    let mut lines = Vec::new();
    let mut line = first.to_string();
    let mut empty = true;
    for (space, piece) in pieces(&code) {
        let sep = if space && !empty { " " } else { "" };
        if !empty && width(&line) + width(sep) + width(piece) > columns {
            lines.push(std::mem::replace(&mut line, rest.to_string()));
            line.push_str(piece);
        } else {
            line.push_str(sep);
            line.push_str(piece);
        }
        empty = false;
    }
    lines.push(line);
    lines
}

/// `code` on one line of at most `max` columns: whole, or its first and last
/// tokens with " … " between them (more of the end, which names what was
/// compared: `.capture_activation_norms == False`).
pub fn clip_code(code: &str, max: usize) -> String {
    let code = code.split_whitespace().collect::<Vec<_>>().join(" ");
    if width(&code) <= max {
        return code;
    }
    let parts = pieces(&code);
    let text = |ps: &[(bool, &str)]| {
        let mut s = String::new();
        for (i, (space, p)) in ps.iter().enumerate() {
            if *space && i > 0 {
                s.push(' ');
            }
            s.push_str(p);
        }
        s
    };
    let budget = max.saturating_sub(3);
    let fits = |head: usize, tail: usize| width(&text(&parts[..head])) + width(&text(&parts[tail..])) <= budget;
    // A short first token (an entry id, `self`) is kept; then as much of
    // the end as fits, then more of the start with what is left.
    let mut head = usize::from(parts.first().is_some_and(|(_, p)| width(p) <= budget / 4));
    let mut tail = parts.len();
    while tail > head && fits(head, tail - 1) {
        tail -= 1;
    }
    while head < tail && fits(head + 1, tail) {
        head += 1;
    }
    let (front, back) = (text(&parts[..head]), text(&parts[tail..]));
    match (front.is_empty(), back.is_empty()) {
        (true, true) => "…".to_string(),
        (true, false) => format!("… {back}"),
        (false, true) => format!("{front} …"),
        (false, false) => format!("{front} … {back}"),
    }
}

/// A path shortened to at most `max` columns by dropping leading
/// directories (`…/scripts/model.py:117`); `None` when even its file name
/// does not fit.
pub fn tail_path(path: &str, max: usize) -> Option<String> {
    if width(path) <= max {
        return Some(path.to_string());
    }
    let mut at = 0;
    while let Some(slash) = path[at..].find('/') {
        at += slash + 1;
        let tail = format!("…/{}", &path[at..]);
        if width(&tail) <= max {
            return Some(tail);
        }
    }
    None
}

/// `label` and a user's line, then the code there: on the same line when it
/// fits, else below it, broken between tokens.
pub fn write_site(out: &mut dyn Write, label: &str, site: &str, code: Option<&str>, w: usize) -> io::Result<()> {
    let site = display_site(site);
    let Some(code) = code.filter(|c| !c.trim().is_empty()) else {
        return writeln!(out, "{label}{site}");
    };
    let code = code.trim();
    let whole = format!("{label}{site}: {code}");
    if width(&whole) <= w {
        return writeln!(out, "{whole}");
    }
    writeln!(out, "{label}{site}:")?;
    let indent = " ".repeat(width(label) - label.trim_start().len() + 4);
    for line in wrap_code(code, w, &indent, &format!("{indent}  ")) {
        writeln!(out, "{line}")?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn code_breaks_between_tokens_and_literals_stay_whole() {
        let guard = "self._modules['dec layers']._forward_hooks[0].capture_activation_norms == False";
        let lines = wrap_code(guard, 30, "  ", "    ");
        assert_eq!(
            lines,
            [
                "  self._modules['dec layers']",
                "    ._forward_hooks[0]",
                "    .capture_activation_norms",
                "    == False"
            ]
        );
    }

    #[test]
    fn code_cut_to_one_line_keeps_whole_tokens_at_both_ends() {
        let guard = "0/1: self._modules['dec_layers']._modules['0'].capture_activation_norms == False";
        let cut = clip_code(guard, 44);
        assert_eq!(cut, "0/1: … .capture_activation_norms == False");
        assert!(width(&cut) <= 44);
        assert_eq!(clip_code("x == 1", 44), "x == 1");
        assert_eq!(clip_code("logits = compiled(tokens[:, :-1])", 20), "… tokens[:, :-1])");
    }

    #[test]
    fn paths_lose_directories_never_part_of_a_name() {
        let p = "samples/scripts/_collision_model.py:117";
        assert_eq!(tail_path(p, 40).unwrap(), p);
        assert_eq!(tail_path(p, 33).unwrap(), "…/scripts/_collision_model.py:117");
        assert_eq!(tail_path(p, 25).unwrap(), "…/_collision_model.py:117");
        assert_eq!(tail_path(p, 24), None);
    }

    #[test]
    fn prose_wraps_between_words_with_its_indents() {
        let lines = wrap("one two three four five six seven eight nine", 30, "  why: ", "       ");
        assert!(lines.iter().all(|l| width(l) <= 30), "{lines:?}");
        assert_eq!(lines, ["  why: one two three four five", "       six seven eight nine"]);
    }
}
