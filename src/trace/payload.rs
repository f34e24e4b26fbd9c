//! A payload being collected for its envelope: which payloads guardscope
//! keeps (recompile reasons, graph breaks, the value-carrying lines of guard
//! trees), their md5 as lines stream past, and the cap on what is kept.

use super::envelope::{CompileRef, Envelope};
use super::event::CacheLookup;
use super::glog::LogTime;
use md5::{Digest, Md5};

/// What a pending payload is for.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum PayloadUse {
    Ignore,
    RecompileReasons,
    GraphBreak,
    GuardTree,
    /// Read a line at a time for where each graph input is first used
    /// (`graph_reads`); nothing of it is kept.
    OutputGraph,
    /// Only the envelope matters (which cache, hit or miss): the payload
    /// streams past like an ignored one.
    CacheLookup(CacheLookup),
}

impl PayloadUse {
    pub(super) fn keeps_payload(self) -> bool {
        !matches!(self, PayloadUse::Ignore | PayloadUse::CacheLookup(_))
    }
}

pub(super) struct Pending {
    pub(super) line: u64,
    pub(super) time: LogTime,
    pub(super) pid: u64,
    pub(super) rank: Option<u32>,
    pub(super) compile: CompileRef,
    pub(super) expected_md5: String,
    pub(super) payload_use: PayloadUse,
    pub(super) kept: Vec<u8>,
    pub(super) hasher: Option<Md5>,
    pub(super) lines: u64,
    pub(super) blank_run: u64,
    /// For an output graph: its reads so far.
    pub(super) graph: Option<Box<super::graph_reads::GraphScan>>,
}

impl Pending {
    /// Starts the next payload line: blank lines held back turn out to be
    /// payload after all, then the newline that joins lines.
    pub(super) fn start_line(&mut self) {
        for _ in 0..std::mem::take(&mut self.blank_run) {
            self.feed_separator();
        }
        self.feed_separator();
    }

    /// `start_line` for `n` payload lines that are neither hashed nor kept.
    pub(super) fn skip_lines(&mut self, n: u64) {
        debug_assert!(self.hasher.is_none() && !self.payload_use.keeps_payload());
        if n > 0 {
            self.start_line();
            self.lines += n - 1;
        }
    }

    fn feed_separator(&mut self) {
        if self.lines > 0 {
            if let Some(h) = self.hasher.as_mut() {
                h.update(b"\n");
            }
            if matches!(self.payload_use, PayloadUse::RecompileReasons | PayloadUse::GraphBreak) {
                self.kept.push(b'\n');
            }
        }
        self.lines += 1;
    }
}

/// Payload kept in memory for one event; anything longer is cut.
pub(super) const KEPT_PAYLOAD_CAP: usize = 16 << 20;

pub(super) fn payload_use(env: &Envelope<'_>) -> PayloadUse {
    match env.kind.as_ref() {
        "artifact" => {
            #[derive(serde::Deserialize)]
            struct Artifact<'a> {
                #[serde(borrow)]
                name: Option<std::borrow::Cow<'a, str>>,
            }
            match serde_json::from_str::<Artifact>(env.body).ok().and_then(|a| a.name) {
                Some(n) if n == "recompile_reasons" => PayloadUse::RecompileReasons,
                Some(n) if n == "dynamo_graph_break_reason" => PayloadUse::GraphBreak,
                Some(n) => CacheLookup::from_artifact(&n).map_or(PayloadUse::Ignore, PayloadUse::CacheLookup),
                None => PayloadUse::Ignore,
            }
        }
        "dynamo_graph_break_reason" => PayloadUse::GraphBreak,
        "dynamo_cpp_guards_str" => PayloadUse::GuardTree,
        "dynamo_output_graph" => PayloadUse::OutputGraph,
        _ => PayloadUse::Ignore,
    }
}

/// A guard tree line worth keeping: a guard (`+- NAME: ...`), or the
/// manager of a root local (`source=L['self'], ...`), which names its type.
pub(crate) fn is_kept_guard_line(line: &[u8]) -> bool {
    static BRANCH: std::sync::LazyLock<memchr::memmem::Finder<'static>> =
        std::sync::LazyLock::new(|| memchr::memmem::Finder::new(b"+- "));
    let Some(at) = BRANCH.find(line) else {
        return false;
    };
    let rest = &line[at + 3..];
    if let Some(manager) = rest.strip_prefix(b"GuardManager: source=") {
        // Only a root local (`L['self'], accessed_by=...`), a wrapper's
        // first argument (`L['args'][0]`) or a compiled bound method's
        // receiver (`L['fn'].__self__`), whose type names what was
        // compiled; managers of paths into them are half the tree.
        if manager.starts_with(b"L['args'][0], ") || manager.starts_with(b"L['fn'].__self__, ") {
            return true;
        }
        return manager.starts_with(b"L['")
            && memchr::memmem::find(manager, b"'], ")
                .is_some_and(|end| !manager[3..end].iter().any(|b| matches!(b, b'[' | b'.' | b'\'')));
    }
    // Guards that hold no value a user changes (dynamic-dim markers,
    // aliasing checks, which methods a module's __dict__ overrides) are a
    // third of a tree; leaving them out keeps the copy and the parse small.
    const STATIC_KINDS: [&[u8]; 3] = [
        b"DIMENSION_DYNAMIC_MARKING_GUARD",
        b"OBJECT_ALIASING",
        b"NO_TENSOR_ALIASING",
    ];
    if STATIC_KINDS.iter().any(|k| rest.starts_with(k)) {
        return false;
    }
    // Which methods a module's __dict__ overrides says nothing, except
    // `__setattr__`: Dynamo checks it before tracing a store, and its
    // comment quotes the store (who writes an attribute, `reasons::assignment`).
    if rest.starts_with(b"DICT_CONTAINS") && memchr::memmem::find(rest, b".__dict__").is_some() {
        return rest.starts_with(b"DICT_CONTAINS: not ___dict_contains('__setattr__', ");
    }
    rest.first().is_some_and(u8::is_ascii_uppercase)
}

pub(super) fn hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut s = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        s.push(DIGITS[(b >> 4) as usize] as char);
        s.push(DIGITS[(b & 15) as usize] as char);
    }
    s
}
