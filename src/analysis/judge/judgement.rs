//! The judgement a finding carries: whose value changed and what decided
//! its severity. It sits apart from `judge_frame` (the parent module),
//! which reads findings to fill it in, so that a finding depends on this
//! type and not on the judge that reads it.

use super::evidence::{Evidence, EvidenceKind};
use super::owner::{Ownership, ValueOwner};
use serde::Serialize;

/// What a recompile means: whose value changed and what decided its severity.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Judgement {
    #[serde(flatten)]
    pub ownership: Ownership,
    pub evidence: Evidence,
}

impl Default for Judgement {
    fn default() -> Self {
        Judgement {
            ownership: Ownership::by(ValueOwner::UserArgument, None),
            evidence: Evidence::new(EvidenceKind::DidNotRecur, ""),
        }
    }
}
