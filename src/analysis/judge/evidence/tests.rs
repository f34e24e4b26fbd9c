//! Tests of `evidence.rs`.

use super::*;
use crate::analysis::judge::owner::Ownership;
use crate::model::Compile;
use crate::reasons::{split, GuardFailure};

fn facts<'a>(g: &'a GuardFailure, category: Category, owner: &'a Ownership, compile: &'a Compile) -> Facts<'a> {
    Facts {
        category,
        recognised: true,
        form: "",
        culprit: "x",
        ownership: owner,
        compile,
        guard: Some(g),
        same_cause: vec!["0/1"],
        values_taken: 1,
        declared: &[],
        retry_of: None,
        other_region: false,
        filled_limit: None,
    }
}

// Hand-made snippets in the shape of torch 2.15's reason texts.
#[test]
fn a_size_made_dynamic_is_expected_and_a_static_config_is_not() {
    let arg = Ownership::by(ValueOwner::UserArgument, None);
    let mut g = split("0/0: tensor 'x' size mismatch at index 0. expected 8, actual 4");
    g.now = Some(GuardedNow::Dynamic);
    let c = Compile::default();
    assert_eq!(
        evidence(&facts(&g, Category::ShapeInput, &arg, &c)).kind,
        EvidenceKind::BecameDynamic
    );
    let off = Compile {
        automatic_dynamic: Some(false),
        ..Compile::default()
    };
    assert_eq!(
        evidence(&facts(&g, Category::ShapeInput, &arg, &off)).kind,
        EvidenceKind::StaticShapes
    );
    let one = split("0/1: tensor 'x' size mismatch at index 0. expected 8, actual 1");
    assert_eq!(
        evidence(&facts(&one, Category::ShapeInput, &arg, &c)).kind,
        EvidenceKind::OnePerVariant
    );
}

#[test]
fn hidden_state_is_a_problem_even_once_and_a_bool_argument_is_not() {
    let closure = Ownership::by(ValueOwner::Closure, None);
    let c = Compile::default();
    let g = split("0/0: fn._forward_hooks[0].__closure__[0].cell_contents.on == False");
    let e = evidence(&facts(&g, Category::ClosureHookState, &closure, &c));
    assert_eq!(e.kind, EvidenceKind::HiddenState);
    let arg = Ownership::by(ValueOwner::UserArgument, None);
    let g = split("0/0: need_weights == True");
    let e = evidence(&facts(&g, Category::ConstantValue, &arg, &c));
    assert_eq!(e.kind, EvidenceKind::OnePerVariant);
    assert_eq!(e.kind.severity(), Severity::Expected);
}
