//! What a row of the classifier's table is (`rules.rs` holds the rows):
//! a pattern over the guard text, where it applies, how it names the
//! culprit, its detail and its advice.

use super::category::Category;

/// How a row names the culprit.
#[derive(Clone, Copy)]
pub enum Culprit {
    /// Render the named capture as a guard source (`L['x']` -> `argument x`).
    Source(&'static str),
    /// A template over the captures (`{name}` expands a capture).
    Template(&'static str),
    /// The captured variable Dynamo names in `HINT: guard on "v".attr`,
    /// else the template.
    HintOr(&'static str),
    /// The class of the object the frame was compiled for (`the optimizer
    /// (AdamW)`), else the text alone.
    CompiledObject(&'static str),
}

/// Where a row applies: some guard texts mean one thing only in a context
/// the text does not show (an optimizer's step, a `generate()` loop).
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum When {
    Always,
    /// The compiled frame is torch.optim code.
    Optimizer,
    /// A library's `generate()` called the compiled frame.
    Generate,
    /// The guard's stack trace runs through a module hook.
    InHook,
    /// Dynamo's hint says the value is an attribute of an `nn.Module`
    /// (its `allow_unspec_int_on_nn_module` advice), whatever the name the
    /// module is reached by (`m.var` of an argument, `mod.multiplier` of a
    /// closure).
    ModuleHint,
    /// The compiled frame's `self` is an `nn.Module`, or the log does not
    /// say (its guards reach no `self._modules`, parameters, buffers or
    /// hooks of a module: a scheduler's `step`, a config object's method).
    ModuleReceiver,
    /// The new entry guards the value as a tensor where the failed one held
    /// a Python number (the guard tree says so).
    NowTensor,
    /// The guard's line is in a library's code (an installed package).
    ReadInLibrary,
    /// The guard's line is a `forward` that reads the guarded attribute as
    /// `self.NAME`: the object is a module, by whatever name the frame
    /// reaches it.
    ReadAsSelfInForward,
}

pub struct Rule {
    /// The form's stable name (`tensor.size`, `torch.function_mode_stack`):
    /// what `--json` reports as `form`, kept when a row's wording changes.
    pub id: &'static str,
    pub category: Category,
    pub when: When,
    pub pattern: &'static str,
    pub culprit: Culprit,
    /// Template over the captures; `{culprit}` is the rendered culprit.
    pub detail: Option<&'static str>,
    pub advice: &'static str,
}
