//! What several rows share: the module-attribute words, the dict-keys advice,
//! the roots a module attribute is reached through, and patterns built once.

/// A plain module attribute, reached through `self` or through any name
/// when Dynamo's hint says it is one.
pub(super) const MODULE_ATTR_DETAIL: &str = "a plain module attribute is baked into the graph";
pub(super) const MODULE_ATTR_ADVICE: &str = "Module attribute {culprit} changed after compile. Integer and bool attributes are static: make it a buffer/tensor, set it once before compiling, or (ints) set torch._dynamo.config.allow_unspec_int_on_nn_module = True.";

/// What to do about a dict whose keys changed, for every rule that finds one.
pub const DICT_KEYS_ADVICE: &str =
    "Call with the same dict keys every time (include optional keys with a None value), or pass the optional input as a separate argument.";

/// `fn.__self__`: the object a compiled bound method runs on
/// (`torch.compile(model.update_key)`), reached through torch's wrapper.
pub(super) const MODULE_ROOT: &str = r"(?:self|fn\.__self__|fn|args\[0\]|L\['self'\]|L\['fn'\])";

/// Rule patterns are built once at startup and live for the program.
pub(super) fn leak(s: String) -> &'static str {
    Box::leak(s.into_boxed_str())
}
