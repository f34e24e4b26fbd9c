//! Tests of `owner.rs`.

use super::*;
use crate::reasons::split;

fn owner_of(raw: &str, ctx: Context<'_>) -> Ownership {
    ownership(&split(raw), &ctx, &test_frame(), &Compile::default())
}

fn test_frame() -> Frame {
    Frame {
        rank: None,
        pid: 1,
        generation: 0,
        frame_id: 0,
        function: Some("forward".into()),
        file: Some("/home/me/train.py".into()),
        line: Some(1),
        module_class: None,
        run: 0,
        compiles: Vec::new(),
    }
}

// Hand-made snippets in the shape of torch 2.15's reason texts.
#[test]
fn owners_of_each_kind_of_source() {
    let ctx = Context::default();
    let o = |raw: &str| owner_of(raw, ctx).owner;
    assert_eq!(o("0/0: GLOBAL_STATE changed: grad_mode "), ValueOwner::TorchState);
    assert_eq!(
        o("0/0: tensor 'x' size mismatch at index 0. expected 8, actual 4"),
        ValueOwner::UserArgument
    );
    assert_eq!(
        o("0/0: self.step == 3  # if self.step:  # /home/me/train.py:9 in forward"),
        ValueOwner::UserAttribute
    );
    assert_eq!(o("0/0: G['__import___main__'].FLAG == False"), ValueOwner::Global);
    assert_eq!(o("0/0: ___stack0 == 3"), ValueOwner::GraphBreakValue);
    assert_eq!(o("0/0: len(m._forward_hooks) != 1"), ValueOwner::UserAttribute);
    assert_eq!(
        o("0/0: fn._forward_hooks[list(dict.keys(fn._forward_hooks))[0]].__closure__[0].cell_contents.on == False"),
        ValueOwner::Closure
    );
    let peft = owner_of(
        "0/0: self.base_model.model._modules['lm_head']._adapters_disabled == False",
        ctx,
    );
    assert_eq!(peft.owner, ValueOwner::LibraryAttribute);
    assert!(peft.set_by.unwrap().contains("disable_adapter"));
    let generate = Context {
        generate: true,
        ..Context::default()
    };
    assert_eq!(
        owner_of("0/0: kwargs['past_key_values'].is_updated[0] == False", generate).owner,
        ValueOwner::LibraryArgument
    );
    assert_eq!(
        owner_of(
            "0/0: tensor 'kwargs['input_ids']' size mismatch at index 1. expected 7, actual 9",
            generate
        )
        .owner,
        ValueOwner::UserArgument
    );
}

#[test]
fn an_inference_tensor_is_told_from_a_device_change() {
    let inference = split("0/0: tensor 'x' dispatch key set mismatch. expected DispatchKeySet(CPU, BackendSelect, ADInplaceOrView, AutogradCPU), actual DispatchKeySet(CPU, BackendSelect)");
    assert!(is_inference_change(&inference));
    let device = split("0/0: tensor 'x' dispatch key set mismatch. expected DispatchKeySet(CPU, BackendSelect, ADInplaceOrView, AutogradCPU), actual DispatchKeySet(CUDA, BackendSelect, ADInplaceOrView, AutogradCUDA)");
    assert!(!is_inference_change(&device));
}
