//! What a guard on a module's own structure says: how many entries a
//! container holds, an argument a torch layer was built with, and a number
//! a torch layer hands its functional op.

use crate::reasons::GuardFailure;

/// The container whose number of entries the guard tests
/// (`len(self._modules['blocks']._modules) != 1` -> `self.blocks`,
/// `self._modules['prompts']._size == 2` -> `self.prompts`): the structure
/// of a model (an `nn.ModuleList`, `nn.Sequential`, `nn.ModuleDict` or
/// `nn.ParameterList` the code loops over), not a list of values.
pub(in crate::analysis::judge) fn module_children(g: &GuardFailure) -> Option<Children> {
    let guard = g.guard.as_str();
    if let Some(inner) = guard.trim().strip_prefix("len(") {
        let (inner, _) = inner.split_once(") ")?;
        let container = inner.strip_suffix("._modules")?;
        return Some(Children {
            container: crate::reasons::culprit::python_name(container),
            what: "submodules",
        });
    }
    // An nn.ParameterList counts its entries in `_size`, which torch's
    // container code loops over (`range(len(self))`).
    let (subject, rest) = guard.trim().split_once("._size == ")?;
    rest.split_whitespace().next()?.parse::<u64>().ok()?;
    let in_container = g
        .location
        .as_ref()
        .is_some_and(|l| l.file.ends_with("nn/modules/container.py"));
    in_container.then(|| Children {
        container: crate::reasons::culprit::python_name(subject),
        what: "parameters",
    })
}

/// A module container whose number of entries the compiled code loops
/// over: its name, and what it holds.
pub(in crate::analysis::judge) struct Children {
    pub container: String,
    pub what: &'static str,
}

impl Children {
    /// What one graph is compiled per: a model's depth (its blocks), or a
    /// parameter list's count.
    pub fn unit(&self) -> &'static str {
        if self.what == "submodules" {
            "depth"
        } else {
            "count"
        }
    }
}

/// The guarded attribute is an argument a torch layer was built with
/// (`self._modules['conv'].dilation`), read inside torch's own layer code
/// (`nn/modules/conv.py`): each instance's value is fixed, and the op needs
/// a Python int there, so it cannot become a tensor or dynamic. The layer
/// argument's name.
pub(in crate::analysis::judge) fn torch_layer_argument(g: &GuardFailure) -> Option<String> {
    torch_layer_file(g)?;
    const STRUCTURAL: [&str; 8] = [
        "dilation",
        "padding",
        "stride",
        "kernel_size",
        "groups",
        "output_padding",
        "padding_mode",
        "num_heads",
    ];
    let subject = crate::reasons::failed_subject(&g.guard);
    let name = subject.rsplit('.').next()?.to_string();
    STRUCTURAL.contains(&name.as_str()).then_some(name)
}

/// The guarded attribute is a float of a torch layer (`self._modules['bn1']
/// .momentum == 0.5`), compared inside torch's own layer code
/// (`nn/modules/batchnorm.py`), which passes it to the functional op as a
/// Python number (F.batch_norm's momentum, F.leaky_relu's slope): a tensor
/// or a buffer cannot stand in for it there. The attribute's name and the
/// layer's file stem (`batchnorm`).
pub(in crate::analysis::judge) fn torch_layer_number(g: &GuardFailure) -> Option<(String, String)> {
    let stem = torch_layer_file(g)?;
    if torch_layer_argument(g).is_some() {
        return None;
    }
    let test = crate::reasons::guard_test(&g.guard);
    let (subject, value) = test.split_once(" == ")?;
    let float = value.trim().contains('.') && value.trim().parse::<f64>().is_ok();
    let name = subject.trim().rsplit('.').next()?;
    let plain = !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    (float && plain).then(|| (name.to_string(), stem))
}

/// A submodule's attribute (`self._modules['bn1'].momentum`) compared inside
/// torch's own layer code (`nn/modules/batchnorm.py`): the layer file's stem
/// (`batchnorm`). Both the layer's build arguments and the numbers it hands
/// its functional op are read there.
fn torch_layer_file(g: &GuardFailure) -> Option<String> {
    let file = g.location.as_ref()?.file.replace('\\', "/");
    let stem = file.split("nn/modules/").nth(1)?.trim_end_matches(".py").to_string();
    g.guard.contains("._modules[").then_some(stem)
}
