//! The fix for an attribute the user's code sets: a module flag or number,
//! a dtype setting, an int that is None on some instances, a submodule
//! whose class changed, a torch layer's constructor argument.

use super::input::{expected, once, requires_grad_fix, FixInput};
use crate::analysis::judge::evidence::EvidenceKind;
use crate::analysis::judge::guard_text::{
    compared_with_int, dtype_value, is_flag as boolean, length_as_number, module_children, none_then_constant, numeric,
    op_number, string_value, torch_layer_argument, torch_layer_number, value_or_none_test, Children,
};
use crate::analysis::judge::owner::ValueOwner;
use crate::analysis::judge::verdict::Severity;
use crate::reasons::culprit::python_name;
use crate::reasons::subject::size_shrank;
use crate::reasons::Category;

pub(super) fn user_attribute_fix(input: &FixInput<'_>) -> String {
    let r = input.reason;
    let g = input.guard.map(|g| g.guard.as_str()).unwrap_or("");
    if g.contains("___dict_contains('forward'") || g.contains("___dict_contains('__call__'") {
        return format!(
            "{}An instance attribute named forward was assigned after compiling (model.forward = ..., a monkeypatched method), so calls no longer reach the compiled class's forward: one compile for the patched forward, reused while it stays. Patch before compiling, or give the replacement its own compiled function (a separate compiled callable: torch.compile(the_replacement)) instead of assigning it to forward.",
            expected(input)
        );
    }
    if crate::reasons::subject::function_mode_state(g) {
        return format!(
            "Your TorchFunctionMode keeps state ({}) that its __torch_function__ changes as ops run, and Dynamo traces the mode inside the compiled call and guards on that state: every call under the mode compiles again. Run the calls you observe uncompiled: under torch.compiler.set_stance(\"force_eager\"), or through the original function (compiled_fn._torchdynamo_orig_callable); or keep the counting out of the trace (its body under @torch._dynamo.disable).",
            r.culprit
        );
    }
    if let Some(layer) = input.guard.and_then(torch_layer_argument) {
        return torch_layer_fix(input, &layer);
    }
    // Not when torch made it dynamic: then the graph no longer holds it.
    let held = input.evidence.kind != EvidenceKind::BecameDynamic;
    if let Some((name, layer)) = input.guard.and_then(torch_layer_number).filter(|_| held) {
        return torch_layer_number_fix(input, &name, &layer);
    }
    if dtype_value(g) {
        return format!(
            "{}{} holds a dtype your code switches ({}), read as a constant: one graph per dtype, each compiled once and reused when it returns (two variants for two dtypes). No action needed; to compile once, keep one dtype for the compiled call and cast outside it.",
            expected(input),
            r.culprit,
            change_words(input).unwrap_or_else(|| g.trim().to_string())
        );
    }
    if int_or_none(input) {
        return format!(
            "{}{} is a value on some calls and None on others (instances of one class with different settings, as blocks compiled one by one share one code object), and the code branches on it: one graph for each, two variants at most, each compiled once and reused. No action needed; a value/None switch cannot be made dynamic (allowing unspecialised ints does not cover None).",
            expected(input),
            r.culprit
        );
    }
    if let Some(c) = input.guard.and_then(module_children) {
        return children_fix(input, &c);
    }
    if let Some(fix) = config_field_fix(input, g) {
        return fix;
    }
    match r.category {
        Category::RequiresGrad => requires_grad_fix(input),
        Category::TypeChange => {
            // The class compiled for: a `Parametrized...` one lost its
            // parametrizations; any other was replaced, converted or given
            // one (orthogonal, weight_norm make the class Parametrized...).
            let compiled = g.split("type=<class '").nth(1).and_then(|t| t.split('\'').next());
            let removed = compiled.is_some_and(|c| c.rsplit('.').next().is_some_and(|c| c.starts_with("Parametrized")));
            let (how, first) = if removed {
                (
                    "its parametrizations removed, e.g. remove_parametrizations folding weight_norm",
                    "remove_parametrizations before torch.compile, or convert first",
                )
            } else {
                (
                    "a module replaced or converted, or given a parametrization (orthogonal, weight_norm)",
                    "apply the parametrization or the conversion before torch.compile",
                )
            };
            format!(
                "{}the class of {} changed after compiling ({how}): one graph per class, compiled once, reused if it returns. To avoid it, make the change before compiling ({first}), or compile the changed model separately.",
                if expected(input).is_empty() { "" } else { "Expected once: " },
                r.culprit
            )
        }
        // The code that checks for the attribute is a library's (a block
        // that looks for factors a method of its model sets): its
        // `__init__` is not the user's to edit.
        Category::NewAttribute if input.guard.is_some_and(|g| g.read_in_library()) => format!(
            "{} appeared after the first compile (set by your code, or by a method of the library's model you called after compiling, one that switches a feature on), and the library's code checks for it: one compile with and one without it, each reused. To avoid it, switch the feature on (or off) before compiling, so every call sees the same attributes.",
            r.culprit
        ),
        // A buffer that got smaller, and no traced line assigns it: the
        // module was rebuilt or resized outside the compiled code (pruning
        // rounds), not a cache forward fills.
        Category::ShapeLazyBuffer if input.guard.is_some_and(|g| g.assigned_at.is_none()) && size_shrank(g).is_some() => {
            let (exp, act) = size_shrank(g).unwrap_or_default();
            format!(
                "{} got smaller ({exp} -> {act}) and no compiled line assigns it: your code replaced or resized the module outside the compiled function (pruning, a narrower layer), not a cache forward fills. Module buffer and parameter shapes are compiled static, so each new size compiles again, once per resize. To keep those compiles off the training steps, compile the resized model again after each round (torch._dynamo.reset(), then torch.compile); to have one graph, keep the shapes and zero (mask) the pruned channels instead; or let torch make the sizes dynamic (torch._dynamo.config.force_parameter_static_shapes = False and force_nn_module_property_static_shapes = False: one more compile, then none).",
                r.culprit
            )
        }
        Category::ShapeLazyBuffer | Category::NewAttribute | Category::ObjectId | Category::FunctionIdentity => {
            r.advice.clone()
        }
        Category::DictKeys => format!(
            "{}{} is a dict your code fills while running (a cache keyed by a length or an id), and the compiled code reads which keys it holds: each new key compiles once, reused when it returns, so the cost is one compile per key you use. To compile nothing after warm-up, fill it before compiling (precompute every length up to the maximum in __init__), or keep one tensor of the maximum length (register_buffer) and slice it.",
            expected(input),
            r.culprit
        ),
        Category::ContainerLen if input.guard.and_then(length_as_number).is_some() => {
            let code = input.guard.and_then(length_as_number).unwrap_or_default();
            let name = python_name(&r.culprit);
            format!(
                "The compiled code uses the length of {name} as a number (`{code}`): a Python int read there is a constant of the graph, so each new length compiles again, every time the list grows. Compute the length outside the compiled function and pass it in as a tensor (torch.tensor(len({name}))), or compute what depends on it outside and pass the result in."
            )
        }
        Category::ContainerLen => format!(
            "{} is a list your code keeps on the object, and the compiled code reads its length (or whether it is empty): each new length compiles again, so a list appended to every step recompiles every step until the recompile limit. Keep the history in a fixed-size tensor buffer instead (self.register_buffer(\"history\", torch.zeros(maxlen, ...)) written at an index as a ring buffer, or a running mean), or append outside the compiled region.",
            r.culprit
        ),
        _ if g.contains(".training") => r.advice.clone(),
        // None on some calls and a string or a number on others, which the
        // code branches on (a field to drop, a mode's name): every value is
        // a graph, so it is no flag, and a choice of data can be a tensor.
        _ if (input.guard.is_some_and(none_then_constant) || string_value(g))
            && input.evidence.kind.severity() == Severity::Problem =>
        {
            format!(
                "Your code changed {} after compiling and the compiled code branches on which value it holds (a string, or None, is a constant of the graph): each value is a graph of its own, compiled once and reused when it returns, so every new value (a new job, a new stage) compiles again. If it changes once per job, start each job from a fresh compile (torch._dynamo.reset() after setting it) so old graphs do not count toward the recompile limit; to have one graph for every value, turn the choice into data: a mask tensor (register_buffer, updated in place) that the code multiplies by instead of branching on the attribute.",
                r.culprit
            )
        }
        _ if boolean(g) => format!(
            "{}Your code changed the module flag {} after compiling and forward reads it: one compile per value. Set it before compiling and keep it, or keep one compiled model per setting (a bool flag stays a Python value; don't turn it into a tensor).",
            once(input),
            r.culprit
        ),
        // A number a library's code reads off its own module (timm's
        // DropBlock2d.drop_prob) that your loop sets: a buffer or a tensor
        // there breaks the library's code, which needs the Python number.
        _ if numeric(g) && read_in_library(input) && input.evidence.kind != EvidenceKind::BecameDynamic => {
            library_setting_fix(input)
        }
        _ if numeric(g) && input.evidence.kind == EvidenceKind::BecameDynamic => format!(
            "Expected once: your code changed module attribute {} after compiling and torch made it dynamic at this recompile, so later values compile nothing. To avoid even this one, set it before compiling{}.",
            r.culprit,
            // A library's code needs the number: no buffer there.
            if read_in_library(input) { "" } else { ", or make it a buffer (a tensor)" }
        ),
        // An op that takes the number as a Python number (a window, a pool
        // size) pins it again whatever the config: no buffer, no unspec int.
        _ if numeric(g) && input.guard.and_then(op_number).is_some() => op_attribute_fix(input),
        // allow_unspec_int_on_nn_module is for ints: a float (or a value the
        // guard does not show) gets only what works for any number.
        _ if numeric(g) && compared_with_int(g) => format!(
            "Module attribute {} changed after compiling; integer and float attributes of an nn.Module stay static. Make it a buffer (a tensor), set it once before compiling, or for an int set torch._dynamo.config.allow_unspec_int_on_nn_module = True (the int then becomes dynamic at its first change: that one recompile stays, none after).",
            r.culprit
        ),
        _ if numeric(g) => format!(
            "Module attribute {} changed after compiling; its value is a constant of the graph. Make it a buffer (a tensor, register_buffer) updated in place with copy_(), or set it once before compiling.",
            r.culprit
        ),
        _ => r.advice.clone(),
    }
}

/// A container of the model (blocks, prompt parameters) grown or pruned
/// while compiled: one graph per count, the cure for repeats is building it
/// to its final size first.
fn children_fix(input: &FixInput<'_>, c: &Children) -> String {
    let (container, what, unit) = (&c.container, c.what, c.unit());
    let repeats = input.evidence.kind != EvidenceKind::OnePerVariant;
    // Blocks can be built up front or compiled one by one; parameters can
    // only be created up front.
    let cure = match (what == "submodules", repeats) {
        (true, true) => format!("Build the model to its final depth before compiling (mask or skip the blocks not in use yet), or compile the blocks rather than the whole model (regional compilation: block.compile() for each block in {container}), so a new block compiles only itself."),
        (true, false) => format!("To compile each block once instead of each depth, compile the blocks rather than the whole model (regional compilation: block.compile() for each block in {container})."),
        (false, true) => format!("Build {container} to its final size before compiling (mask the entries not in use yet)."),
        (false, false) => format!("To compile once, create all of {container}'s entries before compiling and mask the ones not in use yet."),
    };
    if repeats {
        return format!(
            "Your code keeps changing how many {what} {container} holds, and the compiled forward loops over them: every new {unit} is a new graph, so growing it this often recompiles each time until the frame hits the recompile limit. {cure}"
        );
    }
    format!(
        "Expected: your code changed how many {what} {container} holds (a model grown or pruned in stages), and the compiled forward loops over them: one graph per {unit}, compiled once per stage and reused while the {unit} stays. No action needed. {cure}"
    )
}

/// A module attribute your code sets that an op takes as a Python number
/// (`F.local_response_norm(x, size=self.lrn_size)`): a buffer cannot
/// replace it, and allowing unspecialised ints does not help, because the
/// op pins each value again.
fn op_attribute_fix(input: &FixInput<'_>) -> String {
    let op = input.guard.and_then(op_number).unwrap_or_default();
    let culprit = &input.reason.culprit;
    if input.evidence.kind.severity() == crate::analysis::judge::verdict::Severity::Problem {
        return format!(
            "Your code keeps changing module attribute {culprit}, which {op} takes as a Python number (a tensor or a buffer cannot replace it there, and no config makes it dynamic): every new value compiles the graph again. Use a few distinct values (each compiles once and is reused when it returns), keep it fixed while the model is compiled, or keep one compiled model per setting."
        );
    }
    // Expected: the evidence leads (judged() adds it), this says how to
    // avoid it anyway.
    format!(
        "Module attribute {culprit} is passed to {op} as a Python number (a tensor or a buffer cannot replace it there, and no config makes it dynamic), so each value is a graph of its own: set it once before compiling and keep it, or keep one compiled model per setting."
    )
}

/// The failed guard's value is read in a library's code (the guard's
/// line is in its file).
fn read_in_library(input: &FixInput<'_>) -> bool {
    input.guard.is_some_and(crate::reasons::GuardFailure::read_in_library)
}

/// A number your code sets on a library's module, which the library's
/// code reads as a Python number: only how often it changes is yours.
fn library_setting_fix(input: &FixInput<'_>) -> String {
    let lib = input
        .guard
        .and_then(|g| g.location.as_ref())
        .and_then(|l| crate::reasons::paths::library_name(&l.file))
        .unwrap_or_else(|| "the library".to_string());
    let culprit = &input.reason.culprit;
    let problem = input.evidence.kind.severity() == crate::analysis::judge::verdict::Severity::Problem;
    if !problem {
        return format!(
            "{}your code set {culprit}, a setting of a {lib} module that {lib}'s code reads as a Python number: one compile for the new value, reused while it stays. To avoid it, set it once before compiling.",
            expected(input)
        );
    }
    format!(
        "Your code keeps changing {culprit}, a setting of a {lib} module that {lib}'s code reads as a Python number, so every new value compiles the graph again (a buffer or a tensor there would break {lib}'s code, which needs the number). Use a few distinct values (change it in coarse steps: each value compiles once and is reused when it returns), keep it fixed while the model is compiled (set it once, or compile after the ramp ends), or run that module uncompiled (torch.compiler.disable around its forward)."
    )
}

/// A field of the model's config the forward (often a library's) reads as
/// a constant. It is no module attribute the user can turn into a buffer:
/// the library's code needs the Python value. Changed once, set it before
/// compiling; changed again and again, say what each choice costs.
fn config_field_fix(input: &FixInput<'_>, g: &str) -> Option<String> {
    // A config your own forward reads is your code's to change (a buffer,
    // the numeric fixes below); only a library's code needs the Python value.
    if !read_in_library(input) {
        return None;
    }
    let subject = crate::reasons::failed_subject(g);
    let field = subject.split_once(".config.").map(|(_, f)| f)?;
    let culprit = &input.reason.culprit;
    if input.evidence.kind.severity() != crate::analysis::judge::verdict::Severity::Problem {
        return Some(format!(
            "{}the model's config field {field} ({culprit}) changed after compiling and the forward reads it as a constant: one compile per value. Set it before compiling (model.config.{field} = ...) so it never changes.",
            expected(input)
        ));
    }
    let int = numeric(g) && compared_with_int(g);
    let unspec = if int {
        " For an int, torch._dynamo.config.allow_unspec_int_on_nn_module = True lets it become dynamic after its first change (one recompile stays; a field the code only compares or branches on is specialised again, then this does not help)."
    } else {
        ""
    };
    Some(format!(
        "Your code changes the model's config field {field} ({culprit}) between calls, and the compiled forward reads it as a constant: each new value compiles again. A config field stays a Python value (the model's code needs it so; it cannot become a tensor).{unspec} To sweep settings, run those calls without torch.compile (the eager model), or keep one compiled model per setting; in training, set it once before compiling."
    ))
}

/// `old -> new` of the guarded value, from the guard trees.
fn change_words(input: &FixInput<'_>) -> Option<String> {
    let g = input.guard?;
    let subject = crate::reasons::failed_subject(&g.guard);
    let c = g.changes.iter().flatten().find(|c| *c.subject == *subject)?;
    Some(format!("{} -> {}", c.old, c.new))
}

/// The value was an int in the failed entry and is None in the new one
/// (or the reverse).
fn int_or_none(input: &FixInput<'_>) -> bool {
    let Some(g) = input.guard else { return false };
    if value_or_none_test(g) {
        return true;
    }
    let g_text = g.guard.trim();
    let was_int = g_text
        .rsplit_once(" == ")
        .is_some_and(|(_, v)| v.split_whitespace().next().is_some_and(|v| v.parse::<i64>().is_ok()));
    let now_none = matches!(&g.now, Some(crate::reasons::GuardedNow::Constant(v)) if &**v == "None");
    (was_int && now_none)
        || (g_text.ends_with(" is None")
            && matches!(&g.now, Some(crate::reasons::GuardedNow::Constant(v)) if v.parse::<i64>().is_ok()))
}

fn torch_layer_fix(input: &FixInput<'_>, layer: &str) -> String {
    let culprit = python_name(&input.reason.culprit);
    let limit = input
        .compile
        .recompile_limit
        .map_or("the recompile limit (8 by default)".to_string(), |n| {
            format!("the recompile limit ({n} in this compile's config)")
        });
    let choices = "raise torch._dynamo.config.recompile_limit (or torch.compile(..., recompile_limit=N)) to at least the number of distinct values, compile the whole model once (torch.compile(model)) so every block is traced into one graph, or give every instance the same value";
    let layer_value = format!(
        "{culprit} is the {layer} a torch layer was built with, read inside torch's own layer code: the op needs a Python int there, so it cannot become a tensor or dynamic, and each distinct value needs its own graph"
    );
    let what = format!(
        "{layer_value}. Instances of one class with different values (blocks compiled one by one with block.compile(), which share one code object and one cache) compile once per value, up to {limit}; the values past it run eagerly"
    );
    if matches!(input.evidence.kind, EvidenceKind::Repeats | EvidenceKind::LimitHit) {
        format!("{what}. The choices: {choices}.")
    } else if input.cause_recompiles == 1 && input.evidence.kind.severity() == Severity::Expected {
        // One change, not a set of instances seen: a setting changed once
        // (a model switched to another output stride) is one more graph.
        let change = change_words(input).map(|c| format!(" ({c})")).unwrap_or_default();
        format!("Expected: {layer_value}. It changed once here{change}: one more graph, compiled once and reused when the setting returns. No action needed; to avoid it, make the change before compiling (or keep one compiled model per setting).")
    } else if let Some(n) = input.compile.recompile_limit.filter(|n| n.get() > 8) {
        // The limit was raised above the default (the fix for these
        // values): saying "past it, raise the limit" again would loop.
        format!("Expected: {layer_value}. The recompile limit is raised to {n} in this compile's config and no value passed it: one compile per instance's value, none runs eagerly. No action needed.")
    } else {
        format!("Expected: {what}. No action needed while the values are fewer than the limit; past it: {choices}.")
    }
}

/// A float of a torch layer that its own code passes to the functional op
/// as a Python number (BatchNorm's momentum under a decay schedule): a
/// buffer would break the op, so the choices are the schedule's.
fn torch_layer_number_fix(input: &FixInput<'_>, name: &str, layer: &str) -> String {
    let culprit = python_name(&input.reason.culprit);
    let how = format!(
        "{culprit} is a number torch's own layer code (torch.nn's {layer} module) passes to its functional op as a Python number: the graph holds it as a constant, so each new value compiles again, and a tensor or a buffer cannot replace it there"
    );
    let cumulative = match (layer, name) {
        ("batchnorm", "momentum") => {
            " (BatchNorm with momentum=None keeps a cumulative average instead of a decayed one)"
        }
        _ => "",
    };
    if input.evidence.kind.severity() == super::super::verdict::Severity::Problem {
        return format!(
            "{how}. Keep {name} fixed while the model is compiled{cumulative}, or change it in a few steps (each value compiles once and is reused when it returns): a schedule that sets a new {name} every step or epoch recompiles each time until the recompile limit."
        );
    }
    let lead = match once(input) {
        "" => expected(input),
        lead => lead,
    };
    format!(
        "{lead}{how}: one graph per value, reused when it returns. No action needed while it takes a few values; to compile once, keep {name} fixed while the model is compiled{cumulative}."
    )
}

/// An attribute's number torch held symbolically that the traced code
/// pinned again through an expression it needed as a number (an op's
/// probability or scale): the user's or a library's module, the choices
/// are the same, but for who can turn it into a tensor.
pub(super) fn pinned_number_fix(input: &FixInput<'_>) -> Option<String> {
    // An argument's fixes (pass it as a tensor) are its own.
    if !matches!(
        input.ownership.owner,
        ValueOwner::UserAttribute | ValueOwner::LibraryAttribute
    ) {
        return None;
    }
    let g = input.guard?;
    // The failed guard itself is the pinning expression (this row), or
    // older torch wrote the value itself, from the pass that gives a float
    // it meant to keep symbolic back to the graph as a constant.
    let pinned_here = input.reason.form == "module.attribute_expression"
        || (crate::reasons::tensorified(&g.raw) && input.reason.category != Category::OptimizerHyperparam);
    let expr = match &g.now {
        Some(crate::reasons::GuardedNow::Specialised(expr)) => expr.to_string(),
        _ if pinned_here => crate::reasons::guard_test(&g.guard).to_string(),
        _ => return None,
    };
    let culprit = python_name(&input.reason.culprit);
    // Where torch's own pass wrote the guard (remove_tensorify_...), the
    // code that reads the value is the compiled frame's.
    let library = |file: &str| crate::reasons::paths::owner(file) == crate::reasons::paths::Owner::Library;
    let torch = |file: &str| crate::reasons::paths::owner(file) == crate::reasons::paths::Owner::Torch;
    let frame_in_library = input
        .compile
        .stack
        .last()
        .and_then(|f| f.file.as_deref())
        .is_some_and(library);
    let in_library = g.location.as_ref().map_or(frame_in_library, |l| {
        library(&l.file) || (torch(&l.file) && frame_in_library)
    });
    let outside = if in_library {
        "replace the library's module that reads it with your own version that takes the value as a tensor"
    } else {
        "keep the value in a tensor the compiled code reads (a buffer: register_buffer, updated in place with copy_()), so no Python number is made from it"
    };
    Some(format!(
        "{culprit} changes, and although torch held it symbolically, the traced code needs a number made from it (`{expr}`, an op's argument), so every new value compiles again. Use fewer distinct values (a coarser schedule: one compile per value, each reused when it returns), keep it fixed while compiled, or {outside}."
    ))
}
