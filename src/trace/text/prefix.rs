//! What stands before Dynamo's words on a line of a job's stderr: colour
//! codes, a progress bar the line was printed over, torchrun's `[rankN]:`,
//! the glog prefix (`V1128 17:10:39.762000 26269 torch/_dynamo/guards.py:6374] `),
//! the compile id (`[0/1] `) and the logging artifact (`[__recompiles] `).
//! Each part may be missing: a block pasted into an issue keeps only words.

use crate::trace::envelope::CompileRef;
use crate::trace::glog::{self, LogTime};
use memchr::memmem::Finder;
use std::borrow::Cow;
use std::sync::OnceLock;

/// The logging artifact a line was written under (`TORCH_LOGS=recompiles`
/// prints `[__recompiles]`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tag {
    Recompiles,
    RecompilesVerbose,
    GraphBreaks,
    Guards,
    /// Another artifact (`[__dynamic]`, ...): a Dynamo line, not one read here.
    Other,
}

#[derive(Debug, PartialEq)]
pub struct LineView<'a> {
    pub rank: Option<u32>,
    pub pid: Option<u64>,
    pub time: Option<LogTime>,
    /// Glog's level letter (`W` for the recompile-limit warning).
    pub level: Option<u8>,
    pub compile: Option<CompileRef>,
    pub tag: Option<Tag>,
    /// What Dynamo wrote, its own indentation kept.
    pub body: Cow<'a, str>,
}

impl LineView<'_> {
    /// Whether the line came from a logger: glog-prefixed, or tagged.
    pub fn is_logged(&self) -> bool {
        self.level.is_some() || self.tag.is_some() || self.compile.is_some()
    }
}

/// Words that only Dynamo's text lines hold: a line holding none of them
/// is not looked at further, which keeps a job's own output (most of a
/// log) at the cost of a substring search.
pub fn might_be_dynamo(line: &[u8]) -> bool {
    static FINDERS: OnceLock<Vec<Finder<'static>>> = OnceLock::new();
    let finders = FINDERS.get_or_init(|| {
        [
            "ecompil",
            "graph_breaks",
            "raph break",
            "Graph Break",
            "_limit",
            "guard failure",
            "__guards",
            // The recompile-limit warning's further lines.
            "function: '",
            "last reason: ",
        ]
        .iter()
        .map(|w| Finder::new(w.as_bytes()).into_owned())
        .collect()
    });
    finders.iter().any(|f| f.find(line).is_some()) || is_reason_line(line)
}

/// `    - 0/1: ...`: a failed entry's reason, pasted without its header.
fn is_reason_line(line: &[u8]) -> bool {
    let rest = line.trim_ascii_start();
    rest.starts_with(b"- ")
        && rest.get(2).is_some_and(u8::is_ascii_digit)
        && memchr::memchr(b'/', &rest[2..rest.len().min(16)]).is_some()
}

/// Removes ANSI escape sequences (`ESC [ ... letter`, and lone `ESC x`).
fn strip_ansi(line: &str) -> Cow<'_, str> {
    if !line.contains('\x1b') {
        return Cow::Borrowed(line);
    }
    let mut out = String::with_capacity(line.len());
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\x1b' {
            out.push(c);
            continue;
        }
        if chars.peek() == Some(&'[') {
            chars.next();
            // Parameters, then one final byte in @..~.
            for c in chars.by_ref() {
                if ('@'..='~').contains(&c) {
                    break;
                }
            }
        } else {
            chars.next();
        }
    }
    Cow::Owned(out)
}

/// The start of a glog prefix anywhere in the line: a progress bar printed
/// without a newline leaves the logger's line after its own text.
fn glog_start(line: &str) -> Option<usize> {
    let b = line.as_bytes();
    (0..b.len().saturating_sub(14)).find(|&i| {
        matches!(b[i], b'V' | b'I' | b'W' | b'E' | b'C' | b'D')
            && b[i + 1..i + 5].iter().all(u8::is_ascii_digit)
            && b[i + 5] == b' '
            && glog::parse(&b[i..]).is_some()
    })
}

/// `[rank3]:` at the start (after spaces), and what follows it.
fn strip_rank(line: &str) -> (Option<u32>, &str) {
    let trimmed = line.trim_start();
    let Some(rest) = trimmed.strip_prefix("[rank") else {
        return (None, line);
    };
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    match rest[digits..].strip_prefix("]:") {
        Some(after) if digits > 0 => (rest[..digits].parse().ok(), after.strip_prefix(' ').unwrap_or(after)),
        _ => (None, line),
    }
}

/// `[0/1] `, `[0/1_1] ` (a restarted attempt) or `[!0/0/1] ` at the start.
fn strip_compile_id(line: &str) -> (Option<CompileRef>, &str) {
    let Some(rest) = line.strip_prefix('[') else {
        return (None, line);
    };
    let Some(end) = rest.find(']') else {
        return (None, line);
    };
    let id = &rest[..end];
    let (ca, frame) = match id.strip_prefix('!') {
        Some(r) => match r.split_once('/') {
            Some((ca, frame)) if frame.contains('/') => (ca.parse::<u32>().ok(), frame),
            _ => return (None, line),
        },
        None => (None, id),
    };
    let Some((f, n)) = frame.split_once('/') else {
        return (None, line);
    };
    let (n, attempt) = match n.split_once('_') {
        Some((n, a)) => (n, a.parse::<u32>().ok()),
        None => (n, Some(0)),
    };
    let (Ok(f), Ok(n)) = (f.parse::<u32>(), n.parse::<u32>()) else {
        return (None, line);
    };
    let after = &rest[end + 1..];
    let compile = CompileRef {
        frame_id: Some(f),
        frame_compile_id: Some(n),
        attempt,
        compiled_autograd_id: ca,
    };
    (Some(compile), after.strip_prefix(' ').unwrap_or(after))
}

/// `[__recompiles] ` and its kin at the start.
fn strip_tag(line: &str) -> (Option<Tag>, &str) {
    let Some(rest) = line.strip_prefix("[__") else {
        return (None, line);
    };
    let Some(end) = rest.find(']') else {
        return (None, line);
    };
    let tag = match &rest[..end] {
        "recompiles" => Tag::Recompiles,
        "recompiles_verbose" => Tag::RecompilesVerbose,
        "graph_breaks" => Tag::GraphBreaks,
        "guards" => Tag::Guards,
        name if name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') => Tag::Other,
        _ => return (None, line),
    };
    let after = &rest[end + 1..];
    (Some(tag), after.strip_prefix(' ').unwrap_or(after))
}

/// Takes a line of a job's output apart.
pub fn view(raw: &str) -> LineView<'_> {
    let clean = strip_ansi(raw);
    let (rank, pid, time, level, body_at) = {
        let line: &str = &clean;
        let (rank, after_rank) = strip_rank(line);
        let offset = line.len() - after_rank.len();
        match glog_start(after_rank) {
            Some(at) => {
                let g = glog::parse(&after_rank.as_bytes()[at..]).expect("checked by glog_start");
                let message_at = offset + at + (after_rank.len() - at - g.message.len());
                // `[rank1]:` can also come after a progress bar.
                let before = &after_rank[..at];
                let rank = rank.or_else(|| strip_rank(&before[before.rfind("[rank")?..]).0);
                (rank, Some(g.pid), Some(g.time), Some(g.level), message_at)
            }
            None => (rank, None, None, None, offset),
        }
    };
    let rest_of = |s: &str| -> (Option<CompileRef>, Option<Tag>, usize) {
        let (compile, after_id) = strip_compile_id(s);
        let (tag, after_tag) = strip_tag(after_id);
        (compile, tag, s.len() - after_tag.len())
    };
    let (compile, tag, skip) = rest_of(&clean[body_at..]);
    let at = body_at + skip;
    let body = match clean {
        Cow::Borrowed(s) => Cow::Borrowed(&s[at..]),
        Cow::Owned(s) => Cow::Owned(s[at..].to_string()),
    };
    LineView {
        rank,
        pid,
        time,
        level,
        compile,
        tag,
        body,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prefixes_come_off_in_any_combination() {
        // Hand-made from a recorded torch 2.15 line (tests/textlogs has the real ones).
        let line =
            "[rank1]: V1128 17:10:39.762000 26269 torch/_dynamo/guards.py:6374] [0/1] [__recompiles]     - 0/0: x == 1";
        let v = view(line);
        assert_eq!(v.rank, Some(1));
        assert_eq!(v.pid, Some(26269));
        assert_eq!(v.compile.and_then(|c| c.frame_compile_id), Some(1));
        assert_eq!(v.tag, Some(Tag::Recompiles));
        assert_eq!(v.body, "    - 0/0: x == 1");
        let bare = view("    - 0/0: x == 1");
        assert_eq!((bare.rank, bare.pid, bare.tag), (None, None, None));
        assert_eq!(bare.body, "    - 0/0: x == 1");
        let bar =
            view(" 30%|\x1b[32m###\x1b[0m | 3/10V1128 17:10:39.762000 7 x.py:1] [2/0_1] [__graph_breaks] Graph break");
        assert_eq!(bar.pid, Some(7));
        assert_eq!(bar.compile.and_then(|c| c.attempt), Some(1));
        assert_eq!(bar.body, "Graph break");
        assert!(might_be_dynamo(b"[__recompiles] Recompiling function f"));
        assert!(!might_be_dynamo(b"epoch 3 loss 0.25"));
    }
}
