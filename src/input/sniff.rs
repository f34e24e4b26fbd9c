//! What a file holds, told from its first bytes: a TORCH_TRACE log, an
//! activation trace, StepLogger records, or something else. Used to take
//! renamed logs in a directory and to tell a user who passed the wrong
//! kind of file which command reads it. Only a few KB are read per file,
//! so sniffing a directory of large unrelated files stays fast.

use flate2::read::MultiGzDecoder;
use std::fs::File;
use std::io::{self, Read};
use std::path::Path;
use std::sync::OnceLock;

/// Bytes read from disk per file: a first line's start is all it takes.
pub const SNIFF_BYTES: usize = 4096;
/// Bytes looked at after gunzipping those.
const SNIFF_TEXT: usize = 16 << 10;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Content {
    /// The first line has a glog prefix (`V1121 12:54:08.821000 ...`).
    TorchTrace,
    /// JSON lines with `module` and `tensor`: guardscope.trace_activations.
    Activations,
    /// JSON lines with `step` and `wall_ms`: guardscope.StepLogger.
    StepRecords,
    /// Anything else, binary included.
    Other,
    /// Nothing but whitespace in the bytes looked at.
    Empty,
}

impl Content {
    /// What the file is, for a problem line ("an activation trace ...").
    pub fn describe(self) -> &'static str {
        match self {
            Content::TorchTrace => "a TORCH_TRACE log",
            Content::Activations => "an activation trace (JSONL of guardscope.trace_activations)",
            Content::StepRecords => "step records (JSONL of guardscope.StepLogger)",
            Content::Other => "not a TORCH_TRACE log",
            Content::Empty => "empty",
        }
    }
}

/// Classifies the start of a file's text (already gunzipped) by its first
/// non-blank line, which may be cut short by the end of `prefix`.
pub fn classify(prefix: &[u8]) -> Content {
    let start = prefix.iter().position(|b| !b.is_ascii_whitespace());
    let Some(start) = start else {
        return Content::Empty;
    };
    let line = &prefix[start..];
    let line = &line[..memchr::memchr(b'\n', line).unwrap_or(line.len())];
    if is_glog_prefix(line) {
        return Content::TorchTrace;
    }
    if line.first() != Some(&b'{') {
        return Content::Other;
    }
    let keys = top_level_keys(line);
    let has = |k: &str| keys.iter().any(|key| key == k);
    if has("module") && has("tensor") {
        Content::Activations
    } else if has("step") && has("wall_ms") {
        Content::StepRecords
    } else {
        Content::Other
    }
}

/// `V1121 12:54:08.821000 ...`: a level letter, MMDD, a space, hh:mm:ss.
fn is_glog_prefix(line: &[u8]) -> bool {
    const SHAPE: &[u8] = b"L0000 00:00:00";
    line.len() >= SHAPE.len()
        && matches!(line[0], b'V' | b'I' | b'W' | b'E' | b'F')
        && SHAPE[1..].iter().zip(&line[1..]).all(|(want, got)| match want {
            b'0' => got.is_ascii_digit(),
            _ => want == got,
        })
}

/// The keys of a JSON object's outermost level, as far as `text` goes (a
/// first line longer than the sniffed bytes is cut mid-value).
fn top_level_keys(text: &[u8]) -> Vec<String> {
    let mut keys = Vec::new();
    let (mut depth, mut in_string, mut escaped) = (0usize, false, false);
    let mut string_start = 0;
    let mut last_string: Option<(usize, usize)> = None;
    for (i, &b) in text.iter().enumerate() {
        if in_string {
            match b {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => {
                    in_string = false;
                    last_string = (depth == 1).then_some((string_start, i));
                }
                _ => {}
            }
            continue;
        }
        match b {
            b'"' => {
                in_string = true;
                string_start = i + 1;
            }
            b'{' | b'[' => depth += 1,
            b'}' | b']' => depth = depth.saturating_sub(1),
            b':' if depth == 1 => {
                if let Some((from, to)) = last_string.take() {
                    keys.push(String::from_utf8_lossy(&text[from..to]).into_owned());
                }
            }
            b if b.is_ascii_whitespace() => continue,
            _ => {}
        }
        if b != b'"' {
            last_string = None;
        }
    }
    keys
}

/// Classifies a file by its first `SNIFF_BYTES` (gunzipped when they start
/// with the gzip magic number, whatever the name says).
pub fn sniff_file(path: &Path) -> io::Result<Content> {
    let mut raw = Vec::with_capacity(SNIFF_BYTES);
    File::open(path)?.take(SNIFF_BYTES as u64).read_to_end(&mut raw)?;
    Ok(classify(&gunzip_prefix(&raw)))
}

/// The text at the start of `bytes`: as is, or as much as their gzip
/// stream yields (a prefix of a stream ends early; that is expected).
pub fn gunzip_prefix(bytes: &[u8]) -> std::borrow::Cow<'_, [u8]> {
    if !bytes.starts_with(&[0x1f, 0x8b]) {
        return bytes.into();
    }
    let mut text = Vec::new();
    let mut decoder = MultiGzDecoder::new(bytes).take(SNIFF_TEXT as u64);
    let mut chunk = [0u8; 4096];
    // Keep what was inflated before the stream ran out.
    while let Ok(n) = decoder.read(&mut chunk) {
        if n == 0 {
            break;
        }
        text.extend_from_slice(&chunk[..n]);
    }
    text.into()
}

/// What stdin held, recorded when it was opened: it cannot be read twice.
static STDIN_CONTENT: OnceLock<Content> = OnceLock::new();
static STDIN_TEXT: OnceLock<bool> = OnceLock::new();

pub(crate) fn record_stdin(prefix: &[u8]) {
    let _ = STDIN_CONTENT.set(classify(prefix));
    let _ = STDIN_TEXT.set(is_text_log(prefix));
}

/// Whether the start of a file's text is read as a text log (a job's
/// stderr with Dynamo's `TORCH_LOGS` lines, a pasted block) rather than a
/// TORCH_TRACE log: no line in it is a trace envelope (`...] {`), it is
/// not one of guardscope's own JSONL files, and it is UTF-8 without NULs. Anything else is
/// text: what Dynamo wrote in it, if anything, is found by reading it all.
pub fn is_text_log(prefix: &[u8]) -> bool {
    if matches!(
        classify(prefix),
        Content::Activations | Content::StepRecords | Content::Empty
    ) {
        return false;
    }
    // NUL bytes or bytes that are not UTF-8 (a character cut at the end
    // of the prefix aside): a binary file, no one's log.
    let utf8 = match std::str::from_utf8(prefix) {
        Ok(_) => true,
        Err(e) => e.error_len().is_none(),
    };
    if !utf8 || memchr::memchr(0, prefix).is_some() {
        return false;
    }
    !prefix.split(|&b| b == b'\n').any(|line| {
        let line = line.trim_ascii_start();
        is_glog_prefix(line) && memchr::memmem::find(line, b"] ").is_some_and(|at| line.get(at + 2) == Some(&b'{'))
    })
}

/// Whether an input is read as a text log (see `is_text_log`): stdin as
/// recorded when it was opened, a file by its first bytes.
pub fn reads_as_text(path: &Path) -> bool {
    if super::is_stdin(path) {
        return STDIN_TEXT.get().copied().unwrap_or(false);
    }
    let mut raw = Vec::with_capacity(SNIFF_BYTES);
    let read = File::open(path).and_then(|f| f.take(SNIFF_BYTES as u64).read_to_end(&mut raw));
    read.is_ok() && is_text_log(&gunzip_prefix(&raw))
}

/// What an input holds: stdin (`-`) as recorded when it was read, a file by
/// its first bytes. None when it cannot be told (unreadable, stdin unread).
pub fn sniff(path: &Path) -> Option<Content> {
    if super::is_stdin(path) {
        return STDIN_CONTENT.get().copied();
    }
    sniff_file(path).ok()
}

/// A directory tlparse wrote (`tlparse LOG -o tl_out`): `raw.log`, a copy
/// of the log, beside `index.html` and `compile_directory.json`. With
/// `--all-ranks-html`, one such directory per rank (`rank_0/`, ...) under a
/// top `index.html`. Returns the `raw.log` files, or None.
pub fn tlparse_output(dir: &Path) -> Option<Vec<std::path::PathBuf>> {
    let one = |d: &Path| {
        let raw = d.join("raw.log");
        (raw.is_file() && (d.join("index.html").is_file() || d.join("compile_directory.json").is_file())).then_some(raw)
    };
    if let Some(raw) = one(dir) {
        return Some(vec![raw]);
    }
    if !dir.join("index.html").is_file() {
        return None;
    }
    let mut ranks: Vec<_> = std::fs::read_dir(dir)
        .ok()?
        .filter_map(Result::ok)
        .filter(|e| e.file_name().to_string_lossy().starts_with("rank_"))
        .filter_map(|e| one(&e.path()))
        .collect();
    ranks.sort();
    (!ranks.is_empty()).then_some(ranks)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_lines_are_classified_even_cut_short() {
        // Hand-made first lines in the shapes of the three writers.
        let glog = b"V1121 12:54:08.821000 5988 torch/_dynamo/utils.py:2473] {\"chromium_event\": {}}\n";
        assert_eq!(classify(glog), Content::TorchTrace);
        assert_eq!(classify(b"\n\nI0101 00:00:00.0 1 x.py:1] {}"), Content::TorchTrace);
        let act = br#"{"module":"blocks.0.ln","tensor":"out","step":0,"abs_mean":0.8}"#;
        assert_eq!(classify(act), Content::Activations);
        assert_eq!(classify(&act[..34]), Content::Activations);
        let step = br#"{"step": 1, "start": 1795275690.9, "wall_ms": 1656.64, "compiles": [{"step": 2}]}"#;
        assert_eq!(classify(step), Content::StepRecords);
        assert_eq!(classify(&step[..50]), Content::StepRecords);
        // Keys of nested objects and string values do not count.
        assert_eq!(classify(br#"{"a": {"module": 1, "tensor": 2}}"#), Content::Other);
        assert_eq!(classify(br#"{"a": "module", "b": "tensor:"}"#), Content::Other);
        assert_eq!(classify(b"  \n\t"), Content::Empty);
        assert_eq!(classify(b"\x00\x01binary"), Content::Other);
        assert_eq!(classify(b"V12 not a glog line"), Content::Other);
    }

    #[test]
    fn text_logs_are_told_from_trace_logs() {
        // Hand-made in the shapes torch writes (tests/textlogs has real ones).
        let trace = b"V1128 17:10:39.762000 26269 torch/_dynamo/guards.py:6378] {\"artifact\": {}}\n";
        assert!(!is_text_log(trace));
        let text =
            b"step 1\nV1128 17:10:39.762000 26269 torch/_dynamo/guards.py:6374] [0/1] [__recompiles] Recompiling\n";
        assert!(is_text_log(text));
        assert!(is_text_log(b"[rank1]: epoch 3 loss 0.2\n"));
        // A trace line after the job's own output is still a trace log.
        let mixed = [&b"warming up\n"[..], &trace[..]].concat();
        assert!(!is_text_log(&mixed));
        assert!(!is_text_log(b"\x00\x01binary"));
        assert!(!is_text_log(b"\xbb\xcc not utf-8\n"));
        assert!(!is_text_log(br#"{"step": 1, "start": 1.0, "wall_ms": 2.0}"#));
        assert!(!is_text_log(b"  \n"));
    }

    #[test]
    fn a_gzip_prefix_yields_its_text() {
        use std::io::Write;
        let text: String = (0..10_000)
            .map(|i| format!("V1121 12:54:08.821000 {i} x.py:1] {{}}\n"))
            .collect();
        let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        enc.write_all(text.as_bytes()).unwrap();
        let gz = enc.finish().unwrap();
        let prefix = gunzip_prefix(&gz[..SNIFF_BYTES.min(gz.len())]);
        assert!(!prefix.is_empty() && text.as_bytes().starts_with(&prefix));
        assert_eq!(classify(&prefix), Content::TorchTrace);
    }
}
