//! Tests of `classify.rs`.

use super::*;
use crate::reasons::split;

// Hand-made snippets in the shape of newer torch texts (torch 2.15's
// guards.py builds them); real logs of the common kinds are tested in
// tests/classify_real_logs.rs and tests/corpus_third_party.rs.
#[test]
fn backend_mismatch_and_empty_reason() {
    let g = split::split("0/0: BACKEND_MATCH failure: torch.compile detected different backend callables. Cached backend: my_backend (id=0x1). New backend: my_backend (id=0x2). If this is unexpected, wrap your backend in functools.partial");
    let r = classify(&g);
    assert_eq!(r.category, Category::ObjectId);
    assert_eq!(r.culprit, "the torch.compile backend object");
    let r = classify(&split::split("0/0: "));
    assert_eq!(r.category, Category::Other);
}
