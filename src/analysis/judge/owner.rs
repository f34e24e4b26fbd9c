//! Who owns a guarded value: the first stage of judging a recompile. Advice
//! is written for the owner, so a user is never told to change a value they
//! do not pass (a cache `generate()` builds, a flag PEFT flips, torch's
//! grad mode). Read from the guard's source (an argument, a module
//! attribute, a global, a closure cell, a value from before a graph break)
//! and the code it points into (the user's, a library's, torch's).

use super::guard_text;
use crate::model::{Compile, Frame};
use crate::reasons::classify::Context;
use crate::reasons::culprit::canonical;
use crate::reasons::paths::{library_name, owner as code_owner, Owner as Code};
use crate::reasons::subject::{function_mode_state, receiver_identity};
use crate::reasons::{failed_subject, GuardFailure};
use source::{
    argument_name, attribute_path, called_by_library, computed_inside_call, constant_value, first_operand,
    global_module, hook_bound_value, installed_package, is_generate_internal, is_hook_dict, library_switch,
    named_by_user, private_attribute_of_global, root_of, GlobalOf,
};

mod kind;
mod source;
pub use kind::{Ownership, ValueOwner, Via};
pub use source::is_inference_change;

/// Who owns what the guard `g` failed on, in the frame and compile it
/// failed for.
pub fn ownership(g: &GuardFailure, ctx: &Context<'_>, frame: &Frame, compile: &Compile) -> Ownership {
    let guard = canonical(&g.guard);
    // `expected type of 'fn._modules['0']._parameters['weight']' to be ...`
    // (a tensor subclass where a Parameter was compiled) names its source
    // in quotes.
    let subject = match guard.strip_prefix("expected type of '") {
        Some(rest) => rest.split("' to be").next().unwrap_or(rest).to_string(),
        None => failed_subject(&g.guard),
    };
    // `(1.0 + ((-1)*self.drop.p))`: whose value it is, is the operand's.
    let subject = match subject.starts_with('(') {
        true => first_operand(&subject).unwrap_or(&subject).to_string(),
        false => subject,
    };
    // An attribute of a mode object on the stack is that object's state
    // (the user's TorchFunctionMode), not torch's mode stack itself.
    if function_mode_state(&guard) {
        return Ownership::set_by(ValueOwner::UserAttribute, "your TorchFunctionMode (its own state)");
    }
    if guard.starts_with("GLOBAL_STATE")
        || guard.contains("___check_global_state")
        || guard.contains("torch_function_mode")
    {
        return Ownership::of(ValueOwner::TorchState);
    }
    if guard.contains("___stack") {
        return Ownership::of(ValueOwner::GraphBreakValue);
    }
    // Which parameters a group holds and which have a gradient is the
    // training loop's (unfreezing, add_param_group), not a scheduler's.
    if guard.contains("['params']") {
        return Ownership::set_by(
            ValueOwner::TorchState,
            "the optimizer (which parameters it holds and which have gradients)",
        );
    }
    // How many groups the optimizer holds: the training loop's
    // add_param_group on the optimizer it made.
    if ctx.optimizer && guard.contains("len(self.param_groups)") {
        return Ownership::set_by(ValueOwner::UserAttribute, "your code (optimizer.add_param_group)");
    }
    if guard.contains("param_groups[") {
        return Ownership::set_by(
            ValueOwner::LibraryAttribute,
            "an LR scheduler (or code that sets param_groups)",
        );
    }
    if ctx.optimizer
        && (guard.contains(".state[") || guard.contains("self.state") || guard.starts_with("len(self.state"))
    {
        return Ownership::set_by(ValueOwner::TorchState, "the optimizer's first step");
    }
    // A KV cache layer's lazy initialisation: transformers sets it on the
    // layer's first update, whoever made the cache.
    if guard.contains(".layers[") && guard.contains(".is_initialized") {
        return Ownership::set_by(
            ValueOwner::LibraryAttribute,
            "transformers (a cache layer initialises on its first update)",
        );
    }
    // A value bound into a hook (functools.partial): the argument the
    // user's call names when a library binds it (PEFT's adapter_names per
    // call), else what the hook's maker captured.
    if let Some(keyword) = hook_bound_value(&guard) {
        if !named_by_user(&compile.stack, keyword) {
            return Ownership::of(ValueOwner::Closure);
        }
        let binder = frame
            .file
            .as_deref()
            .and_then(library_name)
            .unwrap_or_else(|| "a library".into());
        return Ownership::set_by(
            ValueOwner::UserArgument,
            &format!("your call; {binder} binds it into a hook"),
        )
        .via(Via::HookBinding { binder });
    }
    // Which hooks a module has is what the code that registers and removes
    // them decided: the user's, through register_forward_hook() and
    // handle.remove().
    if is_hook_dict(&guard) {
        return Ownership::set_by(ValueOwner::UserAttribute, "register_*_hook() / handle.remove()").via(Via::HookDict);
    }
    if guard.contains("__closure__[") {
        return Ownership::of(ValueOwner::Closure);
    }
    // The compiled code itself assigns the value, in a library's code (a
    // cache a library's forward keeps, a field it fills on the first
    // call): the library's state, whichever object holds it and whoever
    // reads it.
    if let Some(a) = g
        .assigned_at
        .as_ref()
        .filter(|a| code_owner(&a.location.file) == Code::Library)
    {
        let lib = library_name(&a.location.file);
        return Ownership::by(ValueOwner::LibraryAttribute, lib).via(Via::OwnAssignment(a.clone()));
    }
    // An attribute of an object kept in a global (`G['metric']._update_count`,
    // `G['scheduler'].dt`) that a library's code reads and its methods keep:
    // the library's state, not a global the user reassigns.
    if g.read_in_library() && (private_attribute_of_global(&guard) || attribute_of_global_object(&guard)) {
        let lib = g.location.as_ref().and_then(|l| library_name(&l.file));
        return Ownership::by(ValueOwner::LibraryAttribute, lib);
    }
    // An attribute of a submodule of a model the compiled function reaches
    // through a global (`G['model']._modules['fc1'].scaling['default']`):
    // the model's attribute, set by the user's code (`set_scale`), not a
    // global the code reassigns.
    // In any form: a value, `is None`, `hasattr(..., 's1')` (an attribute
    // a library method adds to a submodule: FreeU's factors). So is an
    // attribute of the model itself that its forward (the user's) reads as
    // `self.clip_value`.
    // A tensor of that model (a parameter's size or requires_grad, a
    // buffer), a submodule's class or a parameter gone (pruning) is the
    // model's too: `tensor 'G['model']._modules['head']...'`,
    // `___check_type_id(G['model']._modules['bn1'], ...)`,
    // `KeyError on G['model']._modules['conv1']._parameters['weight']`,
    // and the number of its children (`len(G['moe']._modules['experts']._modules)`).
    let target = guard
        .trim_start_matches("not ")
        .trim_start_matches("len(")
        .trim_start_matches("hasattr(")
        .trim_start_matches("tensor '")
        .trim_start_matches("KeyError on ")
        .trim_start_matches("___check_type_id(")
        .trim_start_matches("___check_obj_id(");
    let submodule = target.contains(".__dict__['_modules']")
        || target.contains("._modules['")
        || (guard.starts_with("tensor '") && (target.contains("._parameters['") || target.contains("._buffers['")));
    let read_by_its_forward = g.read_as_self_in_forward() && !g.read_in_library();
    if target.starts_with("G['") && (submodule || read_by_its_forward) {
        return Ownership::set_by(
            ValueOwner::UserAttribute,
            "your code (an attribute of the model in a global)",
        );
    }
    if let Some(module) = global_module(&guard) {
        return match module {
            GlobalOf::Torch if guard.contains("parametrize") => {
                Ownership::set_by(ValueOwner::TorchState, "torch.nn.utils.parametrize.cached()")
            }
            GlobalOf::Torch => Ownership::of(ValueOwner::TorchState),
            GlobalOf::Library(name) => Ownership::set_by(ValueOwner::LibraryAttribute, &name),
            GlobalOf::Package(name) if installed_package(frame, &name) => {
                Ownership::set_by(ValueOwner::LibraryAttribute, &name)
            }
            GlobalOf::Package(_) | GlobalOf::User => Ownership::of(ValueOwner::Global),
        };
    }
    if is_inference_change(g) {
        return Ownership::set_by(ValueOwner::TorchState, "torch.inference_mode()");
    }
    // An argument the user's call names (`use_cache=False`) is the user's,
    // even when a library method could also set it.
    let passed = !matches!(root_of(&subject), "self" | "fn" | "G")
        && named_by_user(&compile.stack, argument_name(&subject, root_of(&subject)));
    if let Some(who) = library_switch(&guard).filter(|_| !passed) {
        return Ownership::set_by(ValueOwner::LibraryAttribute, who);
    }
    if guard.contains("_parametrizations") {
        return Ownership::set_by(ValueOwner::TorchState, "torch.nn.utils.parametrize");
    }
    // The identity of `self` itself: which object the method was called
    // on, chosen by the user's call (`obj2.call(x)`), not an attribute.
    if receiver_identity(&guard) {
        return Ownership::of(ValueOwner::UserArgument);
    }
    // A class attribute read through the instance's type: the user's code
    // sets it on the class, whatever object the frame was given.
    if guard.starts_with("type(self)") || guard.starts_with("type(L['self'])") {
        return Ownership::set_by(ValueOwner::UserAttribute, "your code (set on the class)");
    }
    let root = root_of(&subject);
    // A model's config reached through a wrapper's arguments
    // (`args[0].config.sliding_window` in a library decorator around
    // forward) is still the model object's attribute.
    let config_field = subject.contains(".config.");
    // A module handed to the frame by another name (`block.eps` of an
    // argument) whose forward reads the value as `self.eps` holds it too.
    let on_object = matches!(root, "self" | "fn")
        || g.read_as_self_in_forward()
        // An attribute's value on a submodule of a model handed in: the
        // model's (its class or identity is the object passed, not one).
        || (crate::reasons::subject::through_submodules(&subject)
            && !guard.starts_with("tensor '")
            && !guard.starts_with("___check_"))
        // An int attribute of a module handed in as an argument (torch's
        // hint names it one of the nn.Module's): that module's state, set
        // where the module is kept, not a value the call passes.
        || (!matches!(root, "self" | "fn" | "G")
            && attribute_path(&subject)
            && subject.contains('.')
            && guard_text::module_int_hint(g))
        || subject.starts_with("id(self")
        || subject.starts_with("type id(self")
        || (config_field && matches!(root, "args" | "kwargs"));
    if ctx.generate && is_generate_internal(&subject, &guard) {
        return Ownership::set_by(ValueOwner::LibraryArgument, "generate()");
    }
    if on_object && !ctx.optimizer {
        // An attribute read inside a library's code that the user never
        // names (a flag a library method flips) is the library's.
        let read_in_library = g.read_in_library() && !guard.starts_with("tensor '");
        // A parameter of a model whose forward is a library's: the
        // library's module holds it, and what resizes or replaces it is a
        // method of that model the user called (resize_token_embeddings),
        // not an attribute the user's code assigns.
        let library_parameter = guard.starts_with("tensor '")
            && subject.contains("._parameters[")
            && frame.file.as_deref().is_some_and(|f| code_owner(f) == Code::Library);
        if library_parameter {
            let lib = frame.file.as_deref().and_then(library_name);
            return Ownership::by(
                ValueOwner::LibraryAttribute,
                Some(format!(
                    "a method of the {} model",
                    lib.as_deref().unwrap_or("library's")
                )),
            );
        }
        // A config field no library method flips (those are in
        // LIBRARY_SWITCHES, above) is what the user configured: from_pretrained's
        // config, or an assignment in their loop, even when only the
        // library's code reads it.
        if config_field && !guard.starts_with("tensor '") {
            return Ownership::set_by(ValueOwner::UserAttribute, "your code (the model's config)");
        }
        // A library's object that is no module (a diffusers scheduler),
        // compiled in its own method: its methods set what it holds
        // (set_timesteps(), step()), not an assignment of the user's. So
        // for a bound method compiled directly (`torch.compile(ema.step)`,
        // whose receiver is `fn.__self__` in torch's wrapper frame), when
        // the library's method is where the value is read.
        let own_method = match root {
            "self" => frame.file.as_deref().is_some_and(|f| code_owner(f) == Code::Library),
            _ => subject.starts_with("fn.__self__.") && g.read_in_library(),
        };
        let library_object = ctx.receiver_is_module == Some(false) && own_method;
        if library_object {
            // The library whose method it is: the frame's file, or for a
            // bound method in torch's wrapper frame, where the value is read.
            let lib = match root {
                "self" => frame.file.as_deref().and_then(library_name),
                _ => g.location.as_ref().and_then(|l| library_name(&l.file)),
            };
            return Ownership::by(
                ValueOwner::LibraryAttribute,
                Some(format!("{}'s own methods", lib.as_deref().unwrap_or("the library"))),
            );
        }
        // A public attribute of a library's module (`drop_path.drop_prob`,
        // `dropout.p`) is a setting the user's code writes; the library's
        // own state is private (`_update_count`) or a known switch (above).
        // A cache (`max_seq_len_cached`) is kept by the code that reads it.
        let private = subject
            .rsplit('.')
            .next()
            .is_some_and(|a| guard_text::private_name(a) || a.contains("cache"));
        // One the library fills in itself on the first call is tested
        // against None (`if self.scales is None:`).
        let lazily_set = guard_text::is_flag(&guard) && (guard.contains(" is None") || guard.contains(" is not None"));
        if read_in_library && (private || lazily_set || !attribute_path(&subject)) {
            let lib = g.location.as_ref().and_then(|l| library_name(&l.file));
            return Ownership::by(ValueOwner::LibraryAttribute, lib);
        }
        // State behind a property the user's line reads (`self.current_epoch`
        // guarded as `self._trainer.fit_loop...completed`): a private
        // attribute the line never names holds another object, whose code
        // keeps it.
        if let Some(holder) = behind_a_property(&subject, g.code.as_deref()) {
            return Ownership::set_by(
                ValueOwner::LibraryAttribute,
                &format!("the object in self.{holder} (behind a property your code reads)"),
            );
        }
        return Ownership::of(ValueOwner::UserAttribute);
    }
    // A resume function's local that the code before the break assigned:
    // computed there and carried across, whoever called the function.
    if g.carried
        || (resumed_library_local(frame, &guard, root) && !named_by_user(&compile.stack, argument_name(&subject, root)))
    {
        return Ownership::of(ValueOwner::GraphBreakValue);
    }
    // The compiled frame's arguments: the user's, unless a library called
    // the frame (every argument then comes through that library's code).
    // Only which object it passed (its type or identity): data a library
    // hands on (the Trainer's batch, generate()'s prompt) is still the user's.
    let object_check = guard.contains("___check_type_id(") || guard.contains("___check_obj_id(");
    let library_constant = constant_value(&guard) && computed_inside_call(compile, argument_name(&subject, root));
    // A tensor the library computed inside the call (the hidden states it
    // hands its layers, the logits its loss reads): the user's call named
    // no argument so; one it names (`labels=`) is the user's, passed on.
    let library_tensor = guard.starts_with("tensor '") && computed_inside_call(compile, argument_name(&subject, root));
    if let Some(lib) = called_by_library(frame, compile)
        .filter(|_| (object_check || library_constant || library_tensor) && !ctx.generate)
    {
        return Ownership::by(ValueOwner::LibraryArgument, Some(lib));
    }
    Ownership::of(ValueOwner::UserArgument)
}

#[cfg(test)]
mod tests;

/// The guarded path goes through a private attribute of the compiled object
/// (`self._trainer`, not torch's `_modules`, `_parameters`, `_buffers`) and
/// on into that object's own attributes, while the quoted line names neither
/// the private attribute nor the path: the line read a property.
fn behind_a_property<'s>(subject: &'s str, code: Option<&str>) -> Option<&'s str> {
    let code = code?;
    let rest = subject.strip_prefix("self.")?;
    let mut parts = rest.split('.');
    let first = parts.next().and_then(|p| p.split('[').next())?;
    let private =
        first.starts_with('_') && !first.starts_with("__") && !matches!(first, "_modules" | "_parameters" | "_buffers");
    // Two attributes deeper, or the line names the property itself
    // (`self.trainer.accumulate_grad_batches` guarded as
    // `self._trainer.accumulate_grad_batches`).
    let deeper = parts.count() >= 2 || code.contains(&format!("self.{}.", first.trim_start_matches('_')));
    (private && deeper && !code.contains(first)).then_some(first)
}

/// A Python value a resume function in a library's code guards on a local
/// of its own (`cy == 14` in timm's `torch_dynamo_resume_in_rand_bbox_at_52`):
/// it crossed the break inside the library (what the code before the break
/// computed, or what the library's code passed to it), never a value the
/// user's call passed as it is.
fn resumed_library_local(frame: &Frame, guard: &str, root: &str) -> bool {
    let resumed = frame
        .function
        .as_deref()
        .is_some_and(|f| crate::reasons::paths::resumed_function(f).is_some());
    let library = frame.file.as_deref().is_some_and(|f| code_owner(f) == Code::Library);
    // `len(kwargs)`, `args[0]`: what the wrapper was called with, not a
    // value of its own.
    let own_value = !matches!(root, "self" | "G" | "" | "args" | "kwargs") && !guard.trim_start().starts_with("len(");
    resumed && library && own_value && constant_value(guard)
}

/// `G['scheduler'].dt is None`, `tensor 'G['scheduler'].sigmas' ...`: an
/// attribute of an object a global holds (not a module's global, `G['np']`
/// of an import, which `global_module` reads).
fn attribute_of_global_object(guard: &str) -> bool {
    let text = crate::reasons::guard_test(guard);
    let Some(at) = text.find("G['") else {
        return false;
    };
    let rest = &text[at + 3..];
    let Some((name, path)) = rest.split_once("']") else {
        return false;
    };
    !name.starts_with("__import") && path.starts_with('.') && path[1..].starts_with(|c: char| c.is_ascii_alphabetic())
}
