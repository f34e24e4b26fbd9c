//! The table's rows for attributes the compiled code reads: of modules
//! (the frame's own, one handed in, one in a global), of globals and of
//! other objects, and the plain constants after them. They come last
//! (after `values.rs`), in order: the first match wins.

use super::common::{leak, MODULE_ATTR_ADVICE, MODULE_ATTR_DETAIL, MODULE_ROOT};
use crate::reasons::category::Category;
use crate::reasons::rule::{Culprit, Rule, When};

pub(super) fn rows() -> Vec<Rule> {
    use Category::*;
    vec![
        Rule {
            // `(1.0 + ((-1)*self.drop.p)) == 0.95`: a symbolic expression of
            // a module attribute that an op of the traced code needed as a
            // number (bernoulli_'s p), guarded as a constant.
            id: "module.attribute_expression",
            category: NnModuleAttr,
            when: When::Always,
            pattern: leak(format!(
                r"^\(.*?(?P<src>{MODULE_ROOT}(?:\._modules\['[^']+'\])*\.[A-Za-z_][A-Za-z0-9_]*)[^\[(A-Za-z0-9_.].*\) == -?[0-9][0-9.e+-]*$"
            )),
            culprit: Culprit::Source("src"),
            detail: Some("an expression of {culprit} that the traced code needed as a number (an op's argument) is a constant of the graph"),
            advice: "Torch holds {culprit} symbolically, but an op of the traced code takes a number made from it (here a probability or a scale), so each new value compiles again. Keep it fixed while compiled, give it a few values (one compile each), or compute that op outside the compiled region.",
        },
        Rule {
            // `block.eps == 1e-12` or `G['model'].clip_value is None` whose
            // comment quotes a `forward` reading `self.eps`: a module handed
            // to the compiled function (an argument, a local) or kept in a
            // global is still a module, and the value its attribute, not a
            // field of a config or batch object, nor a global the code
            // reassigns. Recorded: tests/scenarios48
            // layernorm_eps_checkpoint_families, gelu_approx_checkpoint_mlp
            // (2.12.1, 2.14.1); tests/scenarios50 activation_grad_clip_hook
            // (2.12.1, 2.14.1).
            id: "module.attribute_read_in_forward",
            category: NnModuleAttr,
            when: When::ReadAsSelfInForward,
            pattern: r"^(?:not )?(?P<src>(?:G\['[^']+'\]|[A-Za-z_][A-Za-z0-9_]*)(?:\.[A-Za-z_][A-Za-z0-9_]*)+)\s*(?:==|!=|is|$)",
            culprit: Culprit::Source("src"),
            detail: Some(MODULE_ATTR_DETAIL),
            advice: MODULE_ATTR_ADVICE,
        },
        Rule {
            // `G['metric']._update_count == 0` with torch's hint that it is
            // an integer attribute of an nn.Module: a module kept in a
            // global, whose attribute changed, not the global itself.
            id: "global.module_attribute",
            category: NnModuleAttr,
            when: When::ModuleHint,
            pattern: r"^(?:not )?(?P<src>G\['[^']+'\](?:\.[A-Za-z_][A-Za-z0-9_]*)+)\s*(?:==|!=|is|$)",
            culprit: Culprit::Source("src"),
            detail: Some(MODULE_ATTR_DETAIL),
            advice: MODULE_ATTR_ADVICE,
        },
        Rule {
            // `G['model'].__dict__['_modules']['base_model']...
            // ._modules['fc1'].scaling['default'] == 2.0`: an attribute of a
            // submodule of a model the compiled function reaches through a
            // global (`def val_loss(x): return model(x)`), not the global;
            // so is a field of a submodule's object (`.._modules['model']
            // .config.vocab_size`). Recorded: tests/scenarios41
            // peft_lora_scale_sweep_eval (2.12.1, 2.14.1), tests/scenarios98
            // arcee_lora_chat_tokens_resize (2.12.1, 2.14.1).
            id: "global.submodule_attribute",
            category: NnModuleAttr,
            when: When::Always,
            pattern: r"^(?:not )?(?P<src>G\['[A-Za-z][^']*'\](?:\.__dict__\['_modules'\]\['[^']+'\]|\._modules\['[^']+'\])+(?:\.[A-Za-z_][A-Za-z0-9_]*)+(?:\[(?:'[^']*'|-?\d+)\])*)\s*(?:==|!=|is|$)",
            culprit: Culprit::Source("src"),
            detail: Some(MODULE_ATTR_DETAIL),
            advice: MODULE_ATTR_ADVICE,
        },
        Rule {
            // `G['model'].config.problem_type is None`, `G['scheduler'].dt is
            // None`, read in a library's code: an attribute of the library's
            // object the user keeps in a global (a model, a scheduler), which
            // the library's methods set: optional or not, not a global.
            id: "global.library_object_none",
            category: TypeChange,
            when: When::ReadInLibrary,
            pattern: r"^(?P<src>G\['[A-Za-z][^']*'\](?:\.[A-Za-z_][A-Za-z0-9_]*)+) is (?:not )?None\s*$",
            culprit: Culprit::Source("src"),
            detail: Some("an attribute of a library's object is None on one call and a value on another"),
            advice: "{culprit} is None on some calls and a value on others (the library sets it as it runs): one compile for each.",
        },
        Rule {
            // `G['scheduler']._step_index == 3`, read in diffusers' code: a
            // value the library's object keeps, compared as a constant.
            id: "global.library_object_value",
            category: ConstantValue,
            when: When::ReadInLibrary,
            pattern: r"^(?:not )?(?P<src>G\['[A-Za-z][^']*'\](?:\.[A-Za-z_][A-Za-z0-9_]*)+)\s*(?:==|!=|$)",
            culprit: Culprit::Source("src"),
            detail: Some("a value a library's object keeps is a constant of the graph"),
            advice: "{culprit} is state of a library's object, read by the library's own code as a constant: each new value compiles again. Keep the library call that changes it outside the compiled function.",
        },
        Rule {
            // `G['os'].environ._data[b'DEBUG'] == b'1'`: os.environ (or
            // os.getenv) read inside the compiled code, guarded as bytes.
            id: "global.environment_variable",
            category: GlobalVar,
            when: When::Always,
            pattern: r"^(?P<src>G\['[A-Za-z_][A-Za-z0-9_]*'\]\.environ\._data\[b'(?P<name>[^']+)'\])",
            culprit: Culprit::Template("environment variable {name} (os.environ)"),
            detail: Some("an environment variable read inside the compiled code changed"),
            advice: "The compiled code reads {culprit}, which changed after the first compile: one graph per value. Read it once outside the compiled code (at import, or into an attribute in __init__).",
        },
        Rule {
            id: "global.value",
            category: GlobalVar,
            when: When::Always,
            pattern: r"(?P<src>G\['[^']+'\][A-Za-z0-9_.]*)",
            culprit: Culprit::Source("src"),
            detail: Some("a module-level global read inside the compiled code changed"),
            advice: "Don't change {culprit} after the first compile: pass it in as an argument (a tensor if it varies), or branch on it outside the compiled function.",
        },
        Rule {
            id: "module.config_value",
            category: NnModuleAttr,
            when: When::Always,
            pattern: leak(format!(
                r"^(?:not )?(?P<src>{MODULE_ROOT}(?:\._modules\['[^']+'\])*\.config\.[A-Za-z_][A-Za-z0-9_.]*)\s*(?:==|!=|is|$)"
            )),
            culprit: Culprit::Source("src"),
            detail: Some("a value of the model's config is read in forward and changed after the first call"),
            advice: "A config value the forward reads ({culprit}) changed after compiling; some libraries set one on the first call (transformers sets config.problem_type). Expected once: set it before compiling (model.config.<name> = ...) so it never changes.",
        },
        Rule {
            id: "module.training",
            category: NnModuleAttr,
            when: When::Always,
            pattern: leak(format!(
                r"^(?:not )?(?P<src>{MODULE_ROOT}(?:\._modules\['[^']+'\])*\.training)\s*(?:==|!=|is|$)"
            )),
            culprit: Culprit::Source("src"),
            detail: Some("model.train() / model.eval() switched the mode"),
            advice: "Switching train()/eval() compiles once per mode; that is expected. It is a problem only if the mode flips repeatedly; keep separate compiled models per mode if so.",
        },
        Rule {
            id: "module.attribute",
            category: NnModuleAttr,
            when: When::ModuleReceiver,
            pattern: leak(format!(
                r"^(?:not )?(?P<src>{MODULE_ROOT}(?:\._modules\['[^']+'\])*\.[A-Za-z_][A-Za-z0-9_]*)\s*(?:==|!=|is|$)"
            )),
            culprit: Culprit::Source("src"),
            detail: Some(MODULE_ATTR_DETAIL),
            advice: MODULE_ATTR_ADVICE,
        },
        Rule {
            // `model._modules['blocks']._modules['0'].cfg.slope == 0.01`: a
            // path through `_modules`, which only an nn.Module has, so the
            // value is an attribute of a submodule of a model the frame is
            // handed (an argument or a local), wherever it is read (the
            // user's forward, torch's Dropout or RMSNorm). Recorded:
            // tests/scenarios52 leaky_relu_slope_model_configs,
            // timm_vit_drop_rate_two_experiments (2.12.1, 2.14.1);
            // tests/scenarios53 rmsnorm_eps_per_model_family (2.12.1,
            // 2.15.0).
            id: "module.submodule_attribute",
            category: NnModuleAttr,
            when: When::Always,
            pattern: r"^(?:not )?(?P<src>[A-Za-z_][A-Za-z0-9_]*(?:\._modules\['[^']+'\])+(?:\.[A-Za-z_][A-Za-z0-9_]*)+)\s*(?:==|!=|is|$)",
            culprit: Culprit::Source("src"),
            detail: Some(MODULE_ATTR_DETAIL),
            advice: MODULE_ATTR_ADVICE,
        },
        Rule {
            id: "graph_break.stack_value",
            category: ConstantValue,
            when: When::Always,
            pattern: r"(?P<src>___stack\d+)",
            culprit: Culprit::Template("a value computed before a graph break ({src})"),
            detail: Some("a Python value produced in eager code (e.g. .item()) is a constant of the resumed graph"),
            advice: "A Python scalar from the previous graph (e.g. tensor.item()) was specialized as a constant. Keep it a tensor, or set torch._dynamo.config.capture_scalar_outputs = True.",
        },
        Rule {
            id: "value.none",
            // An optional argument: None on one call, a value on another.
            category: TypeChange,
            when: When::Always,
            // Also an object's attribute (`self._step_index is None` of a
            // scheduler's method): a module's own attributes are read by
            // the module rows above, first.
            pattern: r"^(?P<src>[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*|kwargs\['[^']+'\]|args\[\d+\]) is (?:not )?None\s*$",
            culprit: Culprit::Source("src"),
            detail: Some("None on one call and a value on another"),
            advice: "{culprit} is None on some calls and a value on others: one compile for each. Always pass a value (e.g. a mask of ones) to have one compile.",
        },
        Rule {
            // DUPLICATE_INPUT: two arguments were one object (or two) when
            // compiled; `x is None` is the row above's.
            id: "object.same_argument",
            category: ObjectId,
            when: When::Always,
            pattern: r"^(?P<src>[A-Za-z_][A-Za-z0-9_.\[\]']*) is (?P<other>[A-Za-z_][A-Za-z0-9_.\[\]']*)\s*$",
            culprit: Culprit::Template("{@src} and {@other} (the same object when compiled)"),
            detail: Some("two arguments were the same object when compiled and are not now"),
            advice: "Dynamo compiled for {culprit}; now they differ (or the reverse): one compile each. Pass the same object in both places every call, or distinct objects every call.",
        },
        Rule {
            id: "value.now_tensor",
            // `aux_weight == 0.5` failed, and the new entry guards
            // aux_weight's sizes: a float on the first calls, a 0-d tensor
            // after (recorded: tests/scenarios32 aux_weight_from_loss_ratio).
            category: TypeChange,
            when: When::NowTensor,
            pattern: r"^(?P<src>[A-Za-z_][A-Za-z0-9_.\[\]']*)\s*==\s*-?[\d.]",
            culprit: Culprit::Source("src"),
            detail: Some("a Python number in the compiled entry, a tensor in this call"),
            advice: "{culprit} was a Python number where the compiled call had it, and a tensor now: one compile for each type, and the tensor's entry takes every later tensor value. To have one compile, pass a tensor from the start (torch.tensor(value)).",
        },
        Rule {
            id: "value.constant",
            category: ConstantValue,
            when: When::Always,
            pattern: r"^(?:not )?(?P<src>[A-Za-z_][A-Za-z0-9_]*|kwargs\['[^']+'\]|args\[\d+\])\s*(?:==|!=|is not|is|<|>|<=|>=)\s*\S|^(?:not )?(?P<bare>[A-Za-z_][A-Za-z0-9_]*)\s*$",
            culprit: Culprit::Source("src"),
            detail: Some("a Python int/float/str/bool value is a constant of the graph"),
            advice: "Python scalars are baked into the graph; each new value of {culprit} compiles again. Pass it as a tensor, or branch on it outside the compiled function.",
        },
        Rule {
            id: "module.attribute_hinted",
            category: NnModuleAttr,
            when: When::ModuleHint,
            pattern: r"^(?:not )?(?P<src>[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)+)\s*(?:==|!=|is|$)",
            culprit: Culprit::Source("src"),
            detail: Some(MODULE_ATTR_DETAIL),
            advice: MODULE_ATTR_ADVICE,
        },
        Rule {
            id: "value.attribute",
            // `cfg.step`: the log does not say whether `cfg` is an argument
            // or a captured variable (both are frame locals to Dynamo);
            // arguments (a config, a batch object) are the common case.
            category: ConstantValue,
            when: When::Always,
            pattern: r"^(?:not )?(?P<src>[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)+)\s*(?:==|!=|is|$)",
            culprit: Culprit::Source("src"),
            detail: Some("a Python value read from an object the compiled code is given is a constant of the graph"),
            advice: "The compiled code reads {culprit} as a Python value, and it changed. Pass the value itself as a tensor argument if it changes every step, or branch on it outside the compiled function.",
        },
        Rule {
            // `self.boundaries[0] == -1.28`: an entry of a list or dict the
            // module keeps as an attribute; the module's, not an argument's.
            id: "module.attribute_item",
            category: NnModuleAttr,
            when: When::Always,
            pattern: leak(format!(
                r"^(?:not )?(?P<src>{MODULE_ROOT}(?:\._modules\['[^']+'\])*\.[A-Za-z_][A-Za-z0-9_]*(?:\[(?:'[^']*'|-?\d+)\])+)\s*(?:==|!=|is not|is|<|>|<=|>=)\s*\S"
            )),
            culprit: Culprit::Source("src"),
            detail: Some("an entry of a list or dict the module keeps as an attribute is a constant of the graph"),
            advice: "{culprit} is an entry of a list or dict attribute of the module, read as a constant: each new value compiles again. Keep the values in a tensor buffer (register_buffer) updated in place with copy_(), or set them once before compiling.",
        },
        Rule {
            // `skip[1] == 0 or skip[0] == 0`, `not (skip[1] == 2 or skip[0]
            // == 2)`: `i in skip` over a list whose elements torch holds as
            // dynamic ints. Recorded: tests/scenarios16 layerdrop_random_sample
            // (torch 2.15).
            id: "value.membership",
            category: ConstantValue,
            when: When::Always,
            pattern: r"^(?:not )?\(?(?P<src>[A-Za-z_][A-Za-z0-9_]*)\[\d+\] == (?P<v>-?\d+)(?: or [A-Za-z_][A-Za-z0-9_]*\[\d+\] == -?\d+)+\)?$",
            culprit: Culprit::Source("src"),
            detail: Some("whether {v} is in {culprit} (`in` over its elements, which torch holds as dynamic ints) decided a branch"),
            advice: "The compiled code tests membership in {culprit} (`if i in {culprit}:`), whose elements torch holds as dynamic ints: each call whose elements answer the test differently compiles another graph, one per pattern, until the recompile limit. Pass the decision as a tensor (a keep mask: `torch.where(keep[i], block(h), h)`), or compile each block on its own (regional compilation) and keep the loop and the test outside the compiled code.",
        },
        Rule {
            id: "value.item",
            // `state['mode'] == 'm0'`, `cfg.opts['k'] == 3`, `xs[0] == 2`: an
            // entry of a dict or list the frame reads (an argument or a
            // captured variable; the text does not say which), compared as
            // a constant. Recorded: tests/data/killed_mid_compile.
            category: ConstantValue,
            when: When::Always,
            pattern: r"^(?:not )?(?P<src>[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*|\[(?:'[^']*'|-?\d+)\])*\[(?:'[^']*'|-?\d+)\](?:\.[A-Za-z_][A-Za-z0-9_]*)*)\s*(?:==|!=|is not|is|<|>|<=|>=)\s*\S",
            culprit: Culprit::Source("src"),
            detail: Some("an entry of a dict or list the compiled code reads is a constant of the graph"),
            advice: "The compiled code reads {culprit} as a Python value, and it changed: each new value compiles again. Pass the value itself as a tensor argument if it changes every step, or branch on it outside the compiled function.",
        },
        Rule {
            // `16000 == ((16000 // (batch.sample_rate // 50))*(batch.sample_rate
            // // 50))`: an arithmetic relation of a value torch held
            // symbolically that an op of the traced code relied on (a length
            // that divides evenly); this value is on the other side of it.
            // Recorded: tests/scenarios26 pytree_sensor_batches.
            id: "value.symbolic_relation",
            category: ConstantValue,
            when: When::Always,
            pattern: r"^(?:not )?(?P<lhs>[^#]*?(?://|%|\*|\+| - )[^#]*?|-?[0-9][0-9.]*) (?:==|!=|<|>|<=|>=) [^#]*?(?P<src>[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)+)[^#]*?(?://|%|\*|\+| - )",
            culprit: Culprit::Source("src"),
            detail: Some("a relation of {culprit} that the traced code relied on (a division that comes out even, a length it computes) does not hold for this value"),
            advice: "Torch holds {culprit} symbolically, but an op of the traced code relied on a relation of it (here a division that comes out even): a value on the other side of the relation compiles a graph of its own, one per side, reused when it returns. No action needed for a few values; to have one graph, make the relation hold for every value (trim or pad to a multiple), or compute that part outside the compiled function.",
        },
        Rule {
            // `(cy + (-1)*(cut_h // 2)) == 4` (torch 2.12: `== (-11)`): an
            // arithmetic expression of Python ints torch held symbolically,
            // which an op of the traced code needed as one number (numpy's
            // np.clip through torch._numpy): the expression is a constant of
            // the entry. Any expression of plain names compared with a
            // number, whatever the op. Recorded: tests/scenarios34
            // timm_mixup_train_step (2.12.1, 2.14.1).
            id: "value.expression",
            category: ConstantValue,
            when: When::Always,
            // Also with a number first, `(1.0 + ((-1)*s)) == (-0.17)` (a
            // saturation factor torchvision's _blend needs as 1 - s): the
            // culprit is the first name.
            pattern: r"^(?:not )?\((?:\d[eE][-+]?\d|[^A-Za-z_#=<>!])*(?P<src>[A-Za-z_][A-Za-z0-9_]*)(?:[^A-Za-z0-9_\[.(#=<>!]|$)[^#=<>!]*\) (?:==|!=|<|>|<=|>=) \(?-?[0-9][0-9.e+-]*\)?$",
            culprit: Culprit::Source("src"),
            detail: Some("an expression of {culprit} (and the values beside it) that the traced code needed as one number is a constant of the graph"),
            advice: "Torch holds {culprit} symbolically, but an op of the traced code needs an expression of it as a Python number (a numpy call, an int argument), so the entry holds that expression constant and each new value compiles again. Keep the values fixed while compiled, give them a few values (one compile each), or compute that part outside the compiled function.",
        },
    ]
}
