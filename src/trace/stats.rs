//! What a parse counted: a TORCH_TRACE log's lines, envelopes and
//! payload checks, and what a text log held of Dynamo's. Both parsers
//! (`parser`, `text`) fill one `ParseStats`, so it lives below both.

use serde::Serialize;
use std::collections::BTreeMap;

/// Counters for one parsed file.
#[derive(Clone, Debug, Default, Serialize)]
pub struct ParseStats {
    pub lines: u64,
    pub bytes: u64,
    pub envelopes: u64,
    pub payload_lines: u64,
    /// Envelopes by event kind, including kinds guardscope does not use.
    pub kinds: BTreeMap<String, u64>,
    pub md5_ok: u64,
    pub md5_mismatch: u64,
    /// Payloads skipped without hashing (when not verifying all payloads).
    pub md5_unchecked: u64,
    pub pids: Vec<u64>,
    /// An unhashed payload (its envelope's line and its last line) that the
    /// end of the file cut mid-line: complete or cut, only its md5 can say,
    /// so the loader reads the file again verifying it (`load_source`).
    #[serde(skip)]
    pub unchecked_at_eof: Option<(u64, u64)>,
    /// The file was read as Dynamo's text log (`TORCH_LOGS`), not as a
    /// TORCH_TRACE log: what it held.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub text: Option<TextStats>,
}

impl ParseStats {
    /// Adds the counters of a later part of the same file.
    pub fn add(&mut self, part: ParseStats) {
        self.lines += part.lines;
        self.bytes += part.bytes;
        self.envelopes += part.envelopes;
        self.payload_lines += part.payload_lines;
        for (kind, n) in part.kinds {
            *self.kinds.entry(kind).or_default() += n;
        }
        self.md5_ok += part.md5_ok;
        self.md5_mismatch += part.md5_mismatch;
        self.md5_unchecked += part.md5_unchecked;
        self.unchecked_at_eof = part.unchecked_at_eof.or(self.unchecked_at_eof);
        if let Some(t) = &part.text {
            self.text.get_or_insert_default().add(t);
        }
        self.pids.extend(part.pids);
        self.pids.sort_unstable();
        self.pids.dedup();
    }
}

/// What a text log held of Dynamo's, for the summary's word on what it
/// could read.
#[derive(Clone, Debug, Default, Serialize, PartialEq, Eq)]
pub struct TextStats {
    /// Lines that were Dynamo's (prefixed, tagged, or inside its blocks).
    pub dynamo_lines: u64,
    /// `Recompiling function ...` headers and pasted reason blocks.
    pub recompile_blocks: u64,
    /// `torch._dynamo hit config.recompile_limit` warnings.
    pub limit_warnings: u64,
    pub graph_breaks: u64,
    /// Guard trees (`TORCH_LOGS=guards`) read for compiles in the model.
    pub guard_sets: u64,
}

impl TextStats {
    pub fn add(&mut self, other: &TextStats) {
        self.dynamo_lines += other.dynamo_lines;
        self.recompile_blocks += other.recompile_blocks;
        self.limit_warnings += other.limit_warnings;
        self.graph_breaks += other.graph_breaks;
        self.guard_sets += other.guard_sets;
    }
}
