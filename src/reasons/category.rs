//! Recompile categories, from one table: each row is the category, its
//! name in the JSON output (stable), what it means in words that finish
//! "caused by ...", and whether one occurrence is expected in a healthy run.
//! Adding a category is adding a row here, a rule row in `rules.rs`, a
//! colour in `report/html/palette.rs` and a test with a real log.

use serde::{Serialize, Serializer};

macro_rules! categories {
    ($($variant:ident => $name:literal, $label:literal, $once:literal;)*) => {
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Category {
            $($variant,)*
        }

        impl Category {
            pub const ALL: &'static [Category] = &[$(Category::$variant,)*];

            /// The name in the JSON output and on the command line.
            pub fn name(self) -> &'static str {
                match self {
                    $(Category::$variant => $name,)*
                }
            }

            /// What the category means, in words that finish "caused by ...".
            pub fn label(self) -> &'static str {
                match self {
                    $(Category::$variant => $label,)*
                }
            }

            /// A cause that is expected once (the first decode step, train
            /// -> eval, optimizer state creation, one size change before
            /// automatic dynamic shapes kick in, one new argument value or
            /// structure); it is a problem only when it repeats. The others
            /// (Python state read inside compiled code: hook flags, globals,
            /// closures, step counters; objects created anew) are a problem
            /// from the first time.
            pub fn expected_once(self) -> bool {
                match self {
                    $(Category::$variant => $once,)*
                }
            }
        }
    };
}

categories! {
    ShapeLazyBuffer => "shape_lazy_buffer", "lazily grown buffers", false;
    ShapeInput => "shape_input", "input shape changes", true;
    Stride => "stride", "stride changes", true;
    Dtype => "dtype", "dtype changes", true;
    Device => "device", "device changes", true;
    RequiresGrad => "requires_grad", "requires_grad changes", true;
    ClosureHookState => "closure_hook_state", "forward-hook closure state", false;
    ClosureState => "closure_state", "closure variables", false;
    GlobalVar => "global_var", "global variables", false;
    TorchGlobalState => "torch_global_state", "torch global state (grad mode, autocast)", true;
    NnModuleAttr => "nn_module_attr", "nn.Module attributes", true;
    ObjectId => "object_id", "object identity", false;
    TypeChange => "type_change", "type changes", true;
    ConstantValue => "constant_value", "constant values", true;
    ContainerLen => "container_len", "container lengths", true;
    DictKeys => "dict_keys", "dict keys", true;
    HooksChanged => "hooks_changed", "added or removed hooks", false;
    OptimizerHyperparam => "optimizer_hyperparam", "optimizer hyperparameters (lr, betas, ...)", false;
    OptimizerState => "optimizer_state", "optimizer state created on the first step", true;
    OptimizerRecreated => "optimizer_recreated", "an optimizer created again", false;
    FunctionIdentity => "function_identity", "another function passed (one compile per definition)", true;
    KvCache => "kv_cache", "generate(): prefill/decode and KV-cache growth", true;
    NewAttribute => "new_attribute", "attributes added after compiling", false;
    CacheLimit => "cache_limit", "the recompile limit", false;
    Other => "other", "unrecognised guards", false;
}

impl Category {
    pub fn parse(name: &str) -> Option<Category> {
        Category::ALL.iter().copied().find(|c| c.name() == name)
    }
}

impl Serialize for Category {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_round_trip() {
        let mut names: Vec<&str> = Category::ALL.iter().map(|c| c.name()).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), Category::ALL.len());
        for c in Category::ALL {
            assert_eq!(Category::parse(c.name()), Some(*c));
            assert_eq!(serde_json::to_value(c).unwrap(), c.name());
        }
    }
}
