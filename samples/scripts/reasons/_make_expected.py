"""Rebuild expected.json from the real logs in samples/traces/reasons/.

Run after `python samples/generate.py reasons/NAME ...`:
    python samples/scripts/reasons/_make_expected.py
The raw reason text is copied from the log, never typed. Only the culprit
names (what a user would call the thing) are written by hand below.
(Leading underscore: samples/generate.py does not run this as a sample.)
"""
import gzip
import json
import re
from pathlib import Path

HERE = Path(__file__).resolve().parent
TRACES = HERE.parent.parent / "traces" / "reasons"

# key -> (script name, compile id of the recompile, culprit)
TABLE = {
    "shape_lazy_buffer": ("shape_lazy_buffer", "0/1", "pos_encoding.pos_enc_cache (buffer)"),
    "shape_input": ("shape_input", "0/1", "argument x"),
    "shape_input_dynamic": ("shape_input_dynamic", "0/2", "argument x (size 1 vs dynamic dim, 0/1 specialization)"),
    "stride": ("stride", "0/1", "argument x"),
    "dtype": ("dtype", "0/1", "argument x"),
    "device": ("device", "0/1", "argument x"),
    "requires_grad": ("requires_grad", "0/1", "argument x"),
    "closure_hook_state": ("closure_hook_state", "0/1", "collector.enabled"),
    "closure_state": ("closure_state", "0/1", "config.use_bias"),
    "global_var": ("global_var", "0/1", "global USE_FAST_PATH"),
    "torch_global_state": ("torch_global_state", "0/1", "grad mode"),
    "torch_global_state_autocast": ("torch_global_state", "0/2", "autocast (cpu)"),
    "nn_module_attr": ("nn_module_attr", "0/1", "model.drop.training (train/eval)"),
    "nn_module_attr_int": ("nn_module_attr", "0/2", "model.num_repeats"),
    "object_id": ("object_id", "0/1", "argument activation"),
    "type_change": ("type_change", "0/1", "argument dims"),
    "constant_value": ("constant_value", "0/1", "argument mode"),
    "container_len": ("container_len", "0/1", "argument tensors"),
    "dict_keys": ("dict_keys", "0/1", "argument inputs"),
    "hooks_changed": ("hooks_changed", "0/1", "forward hooks of submodule 0"),
    "hooks_changed_top_level": ("hooks_changed", "0/2", "forward hooks of the top-level module"),
    "cache_limit": ("cache_limit", "0/2", "argument mode (recompile_limit 2 reached)"),
    "default_device": ("default_device", "0/1", "the torch-function mode stack (torch.set_default_device)"),
    "torch_function_mode": ("torch_function_mode", "0/1", "the torch-function mode stack (a TorchFunctionMode)"),
    "functorch_vmap": ("functorch_vmap", "0/1", "torch.func.vmap around the call (argument x batched)"),
    "subclass_metadata": ("subclass_metadata", "0/1", "ScaledTensor's metadata (its scale)"),
    "subclass_type": ("subclass_type", "0/1", "model.weight (a Tagged subclass where a Parameter was compiled)"),
    "symbolic_relation": ("symbolic_relation", "0/1", "the sizes of x and y, assumed equal"),
    "optimizer_unfreeze": ("optimizer_unfreeze", "2/2", "param_groups[0]['params'][2].grad (layer 1 unfrozen)"),
    "optimizer_unfreeze_second": ("optimizer_unfreeze", "2/4", "param_groups[0]['params'][0].grad (layer 0 unfrozen)"),
}

ENVELOPE = re.compile(r"^[VIWEC]\d{4} [\d:.]+ +\d+ [^\]]+\] (\{.*\})$")
COMMENT = re.compile(r"  # (\S+?):(\d+) in \S+")
STACK = re.compile(r'^  File "([^"]+)", line (\d+), in ')


def events(path):
    lines = gzip.open(path, "rt").read().split("\n")
    i = 0
    while i < len(lines):
        m = ENVELOPE.match(lines[i])
        i += 1
        if not m:
            continue
        env = json.loads(m.group(1))
        payload = []
        while i < len(lines) and lines[i].startswith("\t"):
            payload.append(lines[i][1:])
            i += 1
        yield env, "\n".join(payload)


def reasons_of(payload):
    # one reason: bare (unquoted, possibly multi-line) string; several: JSON list
    if payload.startswith("["):
        try:
            return json.loads(payload)
        except json.JSONDecodeError:
            pass
    return [payload]


def source_of(raw):
    first = raw.split("\n", 1)[0]
    stack = [m.groups() for m in map(STACK.match, raw.split("\n")) if m]
    user = [(f, n) for f, n in stack if "/torch/" not in f]
    m = COMMENT.search(first)
    if m and stack and "/torch/" not in stack[-1][0]:
        return f"{m.group(1)}:{m.group(2)}", "comment"
    if user:
        return f"{user[-1][0]}:{user[-1][1]}", "user_stack"
    if m and not stack:
        return f"{m.group(1)}:{m.group(2)}", "comment"
    return None, None


def main():
    out = {}
    for key, (name, cid, culprit) in TABLE.items():
        (log,) = sorted((TRACES / name).glob("*.log.gz"))
        reasons, metrics = None, None
        for env, payload in events(log):
            this = f"{env.get('frame_id')}/{env.get('frame_compile_id')}"
            if this != cid:
                continue
            if env.get("artifact", {}).get("name") == "recompile_reasons":
                reasons = reasons_of(payload)
            if "compilation_metrics" in env:
                metrics = env["compilation_metrics"]
        assert reasons, (key, cid)
        raw = reasons[0]  # cache order: newest entry first
        entry = raw.split(":", 1)[0]
        source, source_from = source_of(raw)
        rec = {
            "script": f"reasons/{name}.py",
            "compile_id": cid,
            "entry": entry,
            "raw": raw,
            "culprit": culprit,
            "source": source,
            "source_from": source_from,
            "n_reasons": len(reasons),
        }
        if metrics and metrics.get("fail_type"):
            rec["fail_type"] = metrics["fail_type"]
            rec["fail_reason"] = metrics["fail_reason"]
        out[key] = rec
    (HERE / "expected.json").write_text(json.dumps(out, indent=2) + "\n")


if __name__ == "__main__":
    main()
