//! What an owner is: whose value a guard tests, who sets it, and the route
//! it takes into the compiled code. The owner stage (owner.rs) decides
//! these; the fix and verdict stages read them.

use crate::reasons::Assignment;
use serde::Serialize;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ValueOwner {
    /// A value the user's code passes to the compiled call.
    UserArgument,
    /// An argument a library passes on its own (a cache inside `generate()`).
    LibraryArgument,
    /// A module or object attribute the user's code assigns (`model.eval()`
    /// and the hooks it registers included).
    UserAttribute,
    /// An attribute a library method sets (PEFT's `set_adapter`, an LR
    /// scheduler's `lr`, transformers' `gradient_checkpointing_enable`).
    LibraryAttribute,
    /// Torch's own state: grad mode, autocast, inference tensors,
    /// parametrization caches, optimizer state.
    TorchState,
    /// A module-level global of the user's code.
    Global,
    /// A variable captured by a closure (a hook's state included).
    Closure,
    /// A Python value computed before a graph break (`___stack0`).
    GraphBreakValue,
    /// Not known: no row of the table reads the guard text, so nothing
    /// says whose value it is.
    Unknown,
}

impl ValueOwner {
    pub fn name(self) -> &'static str {
        match self {
            ValueOwner::UserArgument => "user_argument",
            ValueOwner::LibraryArgument => "library_argument",
            ValueOwner::UserAttribute => "user_attribute",
            ValueOwner::LibraryAttribute => "library_attribute",
            ValueOwner::TorchState => "torch_state",
            ValueOwner::Global => "global",
            ValueOwner::Closure => "closure",
            ValueOwner::GraphBreakValue => "graph_break_value",
            ValueOwner::Unknown => "unknown",
        }
    }

    /// Words for people: "an argument you pass".
    pub fn words(self) -> &'static str {
        match self {
            ValueOwner::UserArgument => "an argument your code passes",
            ValueOwner::LibraryArgument => "an argument a library passes on its own",
            ValueOwner::UserAttribute => "an attribute your code sets",
            ValueOwner::LibraryAttribute => "an attribute a library sets",
            ValueOwner::TorchState => "torch's own state",
            ValueOwner::Global => "a global of your code",
            ValueOwner::Closure => "a variable a closure captures",
            ValueOwner::GraphBreakValue => "a value computed before a graph break",
            ValueOwner::Unknown => "not known (guardscope does not recognise the guard text)",
        }
    }

    /// Python state the user's code changes while it runs and the compiled
    /// code reads: each change the graph did not see compiles again.
    pub fn is_hidden_state(self) -> bool {
        matches!(
            self,
            ValueOwner::Closure | ValueOwner::Global | ValueOwner::UserAttribute
        )
    }
}

/// The owner of a guarded value, and who sets it when that is a library.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Ownership {
    pub owner: ValueOwner,
    /// The library method or mechanism that sets the value, when known
    /// ("PEFT's disable_adapter() / set_adapter()", "generate()").
    pub set_by: Option<String>,
    /// How the value reaches the compiled code, where the fix names that
    /// route rather than the owner alone.
    #[serde(skip)]
    pub via: Option<Via>,
}

/// A route to the compiled code that the owner stage recognised, so the fix
/// stage reads it as data instead of testing the guard's text again.
#[derive(Clone, Debug, PartialEq)]
pub enum Via {
    /// Which hooks a module has (its `_forward_hooks` dict and the like).
    HookDict,
    /// A value a library binds into a hook made with functools.partial;
    /// `binder` is that library ("peft"), or "a library".
    HookBinding { binder: String },
    /// The compiled code itself assigns the value, in a library's code (a
    /// cache its forward keeps): that statement and where it is.
    OwnAssignment(Assignment),
}

impl Ownership {
    pub(crate) fn of(owner: ValueOwner) -> Self {
        Ownership::by(owner, None)
    }

    pub(crate) fn by(owner: ValueOwner, set_by: Option<String>) -> Self {
        Ownership {
            owner,
            set_by,
            via: None,
        }
    }

    pub(super) fn set_by(owner: ValueOwner, who: &str) -> Self {
        Ownership::by(owner, Some(who.to_string()))
    }

    pub(super) fn via(self, via: Via) -> Self {
        Ownership { via: Some(via), ..self }
    }

    /// One line: "an attribute a library sets (PEFT's disable_adapter())".
    pub fn sentence(&self) -> String {
        match &self.set_by {
            Some(who) => format!("{} ({who})", self.owner.words()),
            None => self.owner.words().to_string(),
        }
    }
}
