//! Event kinds torch's structured trace is known to emit. Anything else is
//! reported once per line as an unknown kind (a newer torch, or corruption).

const KNOWN: &[&str] = &[
    "aot_backward_graph",
    "aot_forward_graph",
    "aot_inference_graph",
    "aot_joint_graph",
    "artifact",
    "bwd_compilation_metrics",
    "bwd_compilation_metrics_runtime",
    "chromium_event",
    "compilation_metrics",
    "compilation_metrics_runtime",
    "compiled_autograd_graph",
    "create_symbol",
    "create_unbacked_symbol",
    "describe_source",
    "describe_storage",
    "describe_tensor",
    "dump_file",
    "dynamo_cpp_guards_str",
    "dynamo_error",
    "dynamo_graph_break_reason",
    "dynamo_guards",
    "dynamo_output_graph",
    "dynamo_start",
    "exported_program",
    "expression_created",
    "graph_dump",
    "guard_added",
    "guard_added_fast",
    "inductor_output_code",
    "inductor_post_grad_graph",
    "inductor_pre_grad_graph",
    "link",
    "mismatched_fake_kernel",
    "missing_fake_kernel",
    "optimize_ddp_split_child",
    "optimize_ddp_split_graph",
    "propagate_real_tensors_provenance",
    "stack",
    "str",
    "symbolic_shape_specialization",
    "unbacked_symbol",
];

pub fn is_known_kind(kind: &str) -> bool {
    KNOWN.binary_search(&kind).is_ok()
}

#[cfg(test)]
mod tests {
    #[test]
    fn table_is_sorted_for_binary_search() {
        assert!(super::KNOWN.windows(2).all(|w| w[0] < w[1]));
        assert!(super::is_known_kind("dynamo_start"));
        assert!(!super::is_known_kind("made_up_kind"));
    }
}
