//! The fix, the last stage of judging a recompile: written for whoever owns
//! the value (the rule table says what a guard is; this says what to do
//! about it) and true to what the log showed next. A user is never told to
//! change a value they do not pass, never given a fix that stops gradients
//! or turns a module's flag into a tensor, and never told "each new value
//! compiles again" about a value torch made dynamic.

use super::evidence::EvidenceKind;
use super::guard_text::is_flag as boolean;
use super::owner::{ValueOwner, Via};
use crate::reasons::culprit::python_name;
use crate::reasons::paths::{owner as code_owner, Owner as Code};
use crate::reasons::Category;

mod argument;
mod attribute;
mod follows;
mod input;
mod library;
mod number_param;
mod shape;
mod torch_state;
use argument::user_argument_fix;
use attribute::{pinned_number_fix, user_attribute_fix};
pub use follows::Follows;
use input::once;
pub use input::FixInput;
use library::library_attribute_fix;
use shape::declared_range_fix;
use torch_state::torch_state_fix;

/// The advice for one recompile.
pub fn fix(input: &FixInput<'_>) -> String {
    let advice = match &input.follows {
        Some(follows) => follows::follows_fix(follows),
        None => judged(input),
    };
    match &input.partner {
        Some(note) => format!("{} {note}", advice.trim_end()),
        None => advice,
    }
}

/// The advice from the owner and the evidence, for a value that follows
/// no other.
fn judged(input: &FixInput<'_>) -> String {
    let body = for_owner(input);
    match input.evidence.kind {
        EvidenceKind::LimitHit => format!(
            "Dynamo hit the recompile limit (torch._dynamo.config.recompile_limit{}) and gave up: this frame runs eagerly, uncompiled, for the rest of the process. The recompiles that filled the cache were caused by {} ({}); fix that: {body}",
            lowered_limit(input).map_or(String::new(), |n| format!(
                ", {n} in this compile's config where the default is 8: set lower by torch._dynamo.config.recompile_limit or torch.compile(..., recompile_limit={n}), so only {n} entries of the frame compile"
            )),
            input.reason.culprit,
            input.reason.category.label()
        ),
        EvidenceKind::LimitRaised => format!(
            "The frame hit the recompile limit and Dynamo raised FailOnRecompileLimitHit into your call (torch._dynamo.config.fail_on_recompile_limit_hit, or fullgraph=True at the limit): the call failed. Raising the limit only delays it; fix what filled the cache, {} ({}): {body}",
            input.reason.culprit,
            input.reason.category.label()
        ),
        EvidenceKind::Repeats => format!(
            "{body}{} {}.",
            parameter_sweep(input, &body),
            capitalise(&input.evidence.text)
        ),
        // The error comes first: until the compile succeeds, no fix of the
        // cause can take effect.
        // No value changed: the frame compiled again only because the
        // previous compile cached nothing.
        EvidenceKind::CompileFailed if input.guard.is_none() => format!(
            "{}. Fix that error (guardscope lists the frame under eager frames, with it): then the frame compiles once and this compile goes away.",
            capitalise(&input.evidence.text)
        ),
        EvidenceKind::CompileFailed => format!(
            "{}. Fix the error first (guardscope lists the frame under eager frames, with the error); then, for the value that changed: {}",
            capitalise(&input.evidence.text),
            body.strip_prefix("Expected: ").unwrap_or(&body)
        ),
        kind if kind.severity() == super::verdict::Severity::Expected && !body.starts_with("Expected") => {
            // An expected recompile says so first: no action is needed, and
            // what follows is only how to avoid it.
            // The evidence and the body can open with one sentence (sizes
            // 0 and 1): say it once.
            let opening = |t: &str| t.split(':').next().unwrap_or("").trim().to_lowercase();
            if opening(&body) == opening(&input.evidence.text) {
                format!("Expected, no action needed. {body}")
            } else {
                format!("Expected: {}. No action needed. To avoid it anyway: {body}", input.evidence.text)
            }
        }
        _ => body,
    }
}

/// A parameter whose size keeps changing (new models of other widths, a
/// resize each stage): the setting that lets parameter sizes become
/// dynamic, as input sizes do. Only for repeats: a one-off needs nothing.
fn parameter_sweep(input: &FixInput<'_>, body: &str) -> &'static str {
    let parameter = input
        .guard
        .is_some_and(|g| g.guard.starts_with("tensor '") && g.guard.contains("._parameters['"));
    if parameter && !body.contains("force_parameter_static_shapes") {
        " Parameter sizes are static by default: torch._dynamo.config.force_parameter_static_shapes = False lets them become dynamic after their first change, as input sizes do."
    } else {
        ""
    }
}

/// The recompile limit of the compile, when the user set it below the
/// default (8).
fn lowered_limit(input: &FixInput<'_>) -> Option<u8> {
    input.compile.recompile_limit.map(|n| n.get()).filter(|&n| n < 8)
}

fn for_owner(input: &FixInput<'_>) -> String {
    let r = input.reason;
    // Another compiled region's first compile: no value to change.
    if r.form == crate::reasons::classify::NO_REASON && input.evidence.kind == EvidenceKind::OnePerVariant {
        return "compile the function once and call that compiled function from every place, or drop isolate_recompiles=True: each torch.compile call made with it compiles the function once for its own calls, and one set of entries serves every caller without it (if you passed neither, the log does not say why this call compiled again).".to_string();
    }
    // A text no row reads: only what it says itself (torch's HINT), never
    // a fix written for a guess at what it is.
    if !r.recognised() || crate::reasons::rules::advice_stands(r.form) {
        return r.advice.clone();
    }
    let g = input.guard.map(|g| g.guard.as_str()).unwrap_or("");
    let dynamic = input.evidence.kind == EvidenceKind::BecameDynamic;
    let culprit = r.culprit.as_str();
    if input.evidence.kind == EvidenceKind::DeclaredRange {
        return declared_range_fix(input);
    }
    if let Some(fix) = pinned_number_fix(input) {
        return fix;
    }
    if let Some(code) = loop_count(input) {
        return format!(
            "{culprit} sets how many times a Python loop runs (`{code}`), and Dynamo unrolls the loop into the graph: every count is a new graph, and no config makes it dynamic. Compile the loop body instead of the loop (torch.compile the function each iteration calls), run a fixed number of iterations (max_iters, masking the extra ones), or use torch._higher_order_ops.while_loop."
        );
    }
    match input.ownership.owner {
        ValueOwner::LibraryArgument => {
            if r.category == Category::KvCache && !g.contains("is_updated") {
                return r.advice.clone();
            }
            let lib = input.ownership.set_by.as_deref().unwrap_or("the library");
            // A tensor the library computed inside the call: its size follows
            // the user's inputs, and torch already made it dynamic.
            if dynamic && g.starts_with("tensor '") && lib != "generate()" {
                return format!(
                    "Expected once: {culprit}, which {lib}'s own code computes inside your call and passes on, changed size and torch made it dynamic at this recompile (automatic dynamic shapes), so later sizes compile nothing. No action needed; nothing in your call names it."
                );
            }
            // A size the library's code pins at each new value (the entry
            // holds it static again): it follows what your call passes, and
            // only the sizes you pass can be made few.
            let problem = input.evidence.kind.severity() == super::verdict::Severity::Problem;
            if problem && crate::reasons::subject::size_mismatch_dim(g).is_some() && lib != "generate()" {
                return format!(
                    "{culprit} is a tensor {lib}'s own code passes on, and its size follows what your call passes (an input's length); the compiled entry holds it static at each new size, so every new size compiles this frame again, and marking your input dynamic does not reach it. Pad your inputs to a fixed length, or round the length up to a few sizes (a tokenizer's pad_to_multiple_of=N, padding=\"max_length\"), so only those compile."
                );
            }
            if problem && lib != "generate()" {
                if let Some(fix) = library_step_fix(input) {
                    return fix;
                }
            }
            if lib != "generate()" {
                return format!(
                    "Expected: {lib}'s own code called this compiled function (torch.compile entered it after a graph break inside {lib}, or through a wrapper {lib} shares between classes) and passed {culprit} itself: one compile per value it passes, reused when it returns. No action needed in your calls; removing the graph break before it (TORCH_LOGS=graph_breaks names it) lets one graph cover the call."
                );
            }
            format!(
                "Expected: {} passes {culprit} itself and changes it between its own steps (prefill, decode, cache updates), one compile for each; nothing in your call sets it. A static cache (model.generate(..., cache_implementation=\"static\")) keeps the decode steps' shapes and flags fixed.",
                input.ownership.set_by.as_deref().unwrap_or("the library")
            )
        }
        ValueOwner::LibraryAttribute => library_attribute_fix(input),
        ValueOwner::TorchState => torch_state_fix(input),
        ValueOwner::GraphBreakValue => graph_break_value_fix(input),
        ValueOwner::Unknown => r.advice.clone(),
        ValueOwner::Closure | ValueOwner::Global if in_hook(input) => format!(
            "The hook reads mutable state ({culprit}) inside the traced region, so Dynamo guards on it and recompiles whenever it changes; a flag, a counter or a list the hook appends to are all the hook's state (one cause). Read it outside the traced region: decorate the hook body with @torch._dynamo.disable (one graph break per hook call; if the hooked module runs inside a loop, as blocks in a forward that loops over them do, Dynamo skips the whole function that loops, which then runs eagerly: there, compile each block instead), keep the state where Dynamo cannot see it (e.g. inside a torch.library.custom_op the hook calls), or use guardscope's hooks.{}",
            in_sequential(input)
        ),
        ValueOwner::Closure | ValueOwner::Global if dynamic => format!(
            "Expected once: {culprit} changed and torch made it dynamic at this recompile (automatic dynamic shapes: the new entry holds it as a symbolic number, not a constant), so later values compile nothing. No action needed; to avoid even this one, pass it in as a tensor argument rather than reading it from the enclosing scope."
        ),
        ValueOwner::Closure => {
            if boolean(g) {
                format!("{}The compiled code reads the captured flag {culprit}, which your code changed: one compile per value. Branch on it outside the compiled function (or compile one function per setting) instead of reading it inside.", once(input))
            } else {
                format!("{}The compiled code reads {culprit} through a closure and your code changed it. Pass it in as an argument (a tensor when it changes every step), or move the code that reads it outside the compiled function.", once(input))
            }
        }
        // An object the global names was replaced (built again, the old
        // one freed): what to keep is the object, not a value in a tensor.
        ValueOwner::Global if r.category == Category::ObjectId => format!("{}{}", once(input), r.advice),
        ValueOwner::Global if r.form == "global.environment_variable" => environment_fix(input),
        ValueOwner::Global => {
            let name = python_name(culprit.strip_prefix("global ").unwrap_or(culprit));
            if boolean(g) {
                format!("{}The compiled code reads the global flag {name}, which your code changed: one compile per value. Don't change it after the first compile, or branch on it outside the compiled function: one compiled function per setting, each compiled once (passed in as an argument, a flag still compiles once per value).", once(input))
            } else {
                format!("{}The compiled code reads the global {name}, which your code changed after the first compile. Keep a value that changes every call in a tensor passed in as an argument (a count as torch.tensor(0), bumped in place with += 1), or branch on it outside the compiled function.", once(input))
            }
        }
        // Hooks the user's code registers and removes (owner.rs): the
        // hooks' fix, not an attribute's.
        ValueOwner::UserAttribute if input.ownership.via == Some(Via::HookDict) => torch_state::hooks_fix(),
        ValueOwner::UserAttribute => user_attribute_fix(input),
        ValueOwner::UserArgument => match &input.ownership.via {
            Some(Via::HookBinding { binder }) => hook_bound_fix(input, binder),
            _ => user_argument_fix(input, dynamic),
        },
    }
}

/// An argument of the user's call that a library binds into a hook on each
/// layer it wraps (PEFT's adapter_names per request): the graph holds the
/// value, a list item by item, so the calls are what to arrange.
fn hook_bound_fix(input: &FixInput<'_>, binder: &str) -> String {
    let culprit = &input.reason.culprit;
    let how = format!(
        "{binder} binds a value your call passes into a hook on each layer it wraps ({culprit}), and the compiled graph holds it as a constant (a list item by item), so each new value or mix of values compiles again"
    );
    if input.evidence.kind.severity() == super::verdict::Severity::Problem {
        return format!(
            "{how}, until the recompile limit. Group the calls so that each passes the same value: sort or bucket the requests by it (one adapter per batch, say) and make one call per group."
        );
    }
    format!(
        "Expected (each value compiles once, reused when it returns): {how}. No action needed while the calls pass a few values; if they vary per call, group the calls so that each passes the same value (bucket the requests by it)."
    )
}

/// An environment variable the compiled code reads: the script's to set,
/// a few values at most (a debug flag per phase), read once to compile once.
fn environment_fix(input: &FixInput<'_>) -> String {
    let culprit = &input.reason.culprit;
    if input.evidence.kind.severity() == super::verdict::Severity::Problem {
        return format!(
            "Your code keeps changing {culprit}, which the compiled code reads: every new value compiles again. Read it once outside the compiled code (at import, or into an attribute in __init__), and pass what must change per call as an argument."
        );
    }
    format!(
        "{}the compiled code reads {culprit}, which your script changed between calls: one graph per value, compiled once and reused when it returns. No action needed while it takes a few values (a flag per phase); to compile once, read it once outside the compiled code (at import, or into an attribute in __init__) so the graph never reads os.environ.",
        match once(input) {
            "" => "Expected: ",
            lead => lead,
        }
    )
}

fn graph_break_value_fix(input: &FixInput<'_>) -> String {
    let g = input.guard;
    let code = g.and_then(|g| g.code.as_deref());
    // The file's name, not its path: advice is read where the log was not
    // made (the JSON, another clone), and the views show the full site.
    let at = g
        .and_then(|g| g.source.as_deref())
        .map(|s| s.rsplit(['/', '\\']).next().unwrap_or(s));
    let what = match (code, at) {
        (Some(code), Some(at)) => format!("the value of `{code}` ({at})"),
        (Some(code), None) => format!("the value of `{code}`"),
        _ => "a Python value computed before a graph break".to_string(),
    };
    let scalar = g.is_some_and(|g| g.guard.contains(" == ") || g.guard.contains(" <= ") || g.guard.contains(" < "));
    // A tensor the code before the break computed (a mask, the boxes it
    // kept): its size follows the data, and torch made it dynamic.
    if let Some(name) = g.and_then(|g| crate::reasons::subject::guarded_tensor(&g.guard)) {
        if input.evidence.kind == EvidenceKind::BecameDynamic {
            return format!("Expected once: {name}, computed before a graph break and handed to the code after it, changed size and torch made it dynamic at this recompile (automatic dynamic shapes); later sizes compile nothing. No action needed; removing the graph break (TORCH_LOGS=graph_breaks names it) lets one graph cover both parts.");
        }
        return format!("{name} is computed before a graph break and handed to the code after it, whose graph guards its size: each new size compiles that part again. Remove the graph break (TORCH_LOGS=graph_breaks names it) so one graph covers both parts, or keep its size fixed (pad it).");
    }
    if input.evidence.kind == EvidenceKind::BecameDynamic {
        return format!("Expected once: {what} crossed a graph break as a Python number and torch made it dynamic at this recompile; later values compile nothing. To avoid the break and the recompile, keep it a tensor (no .item()/int()), or set torch._dynamo.config.capture_scalar_outputs = True.");
    }
    // The break is in a library's code (its resume function is in the
    // library's file): the value comes from code the user cannot change,
    // and repeating, it is fixed by where the user calls that code.
    if input.evidence.kind.severity() == super::verdict::Severity::Problem {
        if let Some(fix) = library_step_fix(input) {
            return fix;
        }
    }
    let picks = " If the value picks modules or list items (expert ids from .tolist(), an index into a ModuleList), no config keeps it symbolic: compute every choice with tensor ops instead (run all experts and mask or torch.gather by the routing weights).";
    if scalar {
        format!("{} crosses a graph break as a Python number (an .item(), int() or a list from the eager code between graphs) and the resumed graph guards on it. Keep it a tensor, or set torch._dynamo.config.capture_scalar_outputs = True so the number stays in the graph.{picks}", capitalise(&what))
    } else {
        format!("{} crosses a graph break and the resumed graph guards on it. Remove the graph break before it (TORCH_LOGS=graph_breaks names it), or keep the value a tensor.{picks}", capitalise(&what))
    }
}

/// A value that repeats in a frame of a library's code entered after a
/// graph break inside it (computed there, or passed on by the library's
/// code before the break): the library's code is not the user's to change,
/// so the fix is where the user calls that library step. None when the
/// compiled frame is not a library's.
fn library_step_fix(input: &FixInput<'_>) -> Option<String> {
    let f = input.compile.stack.last()?;
    let lib = crate::reasons::paths::library_name(f.file.as_deref()?)?;
    let function = f.function.as_deref()?;
    let function = crate::reasons::paths::resumed_function(function).map_or(function, |(name, _)| name);
    let code = input.guard.and_then(|g| g.code.as_deref());
    let what = code.map_or("a Python value".to_string(), |code| format!("the value of `{code}`"));
    Some(format!(
        "{} is computed in {lib}'s code between two graphs (a graph break inside {lib}'s {function}) and crosses the break as a Python value the resumed graph guards on: each new value compiles again, and {lib}'s code is not yours to change. Call that {lib} step outside the compiled function (on the inputs before the compiled call, or on its outputs after), or wrap your call to it in a function decorated with @torch._dynamo.disable; or compile only the model.",
        capitalise(&what)
    ))
}

/// The guarded value is a loop count: the line the guard quotes passes it
/// to `range(...)`.
fn loop_count<'a>(input: &FixInput<'a>) -> Option<&'a str> {
    let g = input.guard?;
    let code = g.code.as_deref()?.trim();
    let subject = crate::reasons::failed_subject(&crate::reasons::culprit::canonical(&g.guard));
    let name = python_name(&subject);
    let last = name.rsplit(['.', ' ']).next().unwrap_or(&name).to_string();
    if last.is_empty() {
        return None;
    }
    // A loop over a slice of a Python list cut by the value (`for dims in
    // FLIPS[:n_views]:`) runs as many times as the value says.
    if code.starts_with("for ") && super::guard_text::slice_bound(code, &last).is_some() {
        return Some(code);
    }
    // `range(` as a call of its own: `torch.arange(n)` builds a tensor,
    // it unrolls nothing.
    let at = code.match_indices("range(").find(|(i, _)| {
        !code[..*i]
            .chars()
            .next_back()
            .is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '.')
    })?;
    let inside = &code[at.0 + "range(".len()..];
    inside.contains(last.as_str()).then_some(code)
}

/// The hooked module is called by nn.Sequential's forward, a loop over its
/// modules the user may not see as one: the cost of the decorator in this
/// code, said where the log shows it.
fn in_sequential(input: &FixInput<'_>) -> &'static str {
    let sequential = input.guard.is_some_and(|g| {
        g.user_stack.iter().any(|l| {
            l.file.replace('\\', "/").ends_with("torch/nn/modules/container.py")
                && l.function.as_deref() == Some("forward")
        })
    });
    if sequential {
        " Here the hooked module is called by nn.Sequential's forward, which loops over its modules: decorated, the hook makes Dynamo leave that forward uncompiled (it runs eagerly every call, the layers it calls compiled on their own), so compile each layer or block instead, or keep the state in a custom op."
    } else {
        ""
    }
}

fn in_hook(input: &FixInput<'_>) -> bool {
    input.reason.category == Category::ClosureHookState || input.guard.is_some_and(|g| g.in_hook) || hook_frame(input)
}

/// The compiled frame is a hook itself: a function of the user's, not a
/// forward, that torch's module call ran (`register_forward_hook(fn)` on a
/// compiled module: Dynamo compiles the hook as a frame of its own).
fn hook_frame(input: &FixInput<'_>) -> bool {
    let [.., caller, own] = &input.compile.stack[..] else {
        return false;
    };
    let module_call = caller
        .file
        .as_deref()
        .is_some_and(|f| f.replace('\\', "/").ends_with("torch/nn/modules/module.py"));
    let user_function = own.file.as_deref().is_some_and(|f| code_owner(f) == Code::User)
        && own
            .function
            .as_deref()
            .is_some_and(|f| f != "forward" && crate::reasons::paths::resumed_function(f).is_none());
    module_call && user_function
}

fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().collect::<String>() + c.as_str(),
        None => String::new(),
    }
}
