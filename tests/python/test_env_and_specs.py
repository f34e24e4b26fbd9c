"""attach_from_env (GUARDSCOPE_TRACE_*) and register_forward_hooks (JSON specs)."""

import json
import logging
import subprocess
import sys
import textwrap
import warnings

import pytest
import torch
from _models import Net
from conftest import hook_count, read_jsonl

import guardscope

ENV = [
    "GUARDSCOPE_TRACE_ACTIVATIONS",
    "GUARDSCOPE_TRACE_LAYERS",
    "GUARDSCOPE_TRACE_STATS",
    "GUARDSCOPE_TRACE_OUTPUT",
    "GUARDSCOPE_TRACE_STEPS",
    "GUARDSCOPE_TRACE_MODE",
]


@pytest.fixture
def env(monkeypatch):
    for name in ENV:
        monkeypatch.delenv(name, raising=False)
    return monkeypatch


@pytest.mark.parametrize("flag", [None, "0"])
def test_off_returns_none_and_registers_nothing(env, flag, tmp_path):
    if flag is not None:
        env.setenv("GUARDSCOPE_TRACE_ACTIVATIONS", flag)
    env.setenv("GUARDSCOPE_TRACE_OUTPUT", str(tmp_path / "t.jsonl"))
    model = Net()
    assert guardscope.attach_from_env(model) is None
    assert hook_count(model) == 0
    assert not (tmp_path / "t.jsonl").exists()


@pytest.mark.parametrize("flag", ["1", "true", ""])
def test_any_other_value_turns_it_on_and_the_variables_configure_it(env, flag, tmp_path, caplog):
    env.setenv("GUARDSCOPE_TRACE_ACTIVATIONS", flag)
    env.setenv("GUARDSCOPE_TRACE_LAYERS", r"^blocks\.\d+\.fc\d$")
    env.setenv("GUARDSCOPE_TRACE_STATS", "max,shape,dtype")
    env.setenv("GUARDSCOPE_TRACE_OUTPUT", str(tmp_path / "out" / "trace_<pid>.jsonl"))
    env.setenv("GUARDSCOPE_TRACE_STEPS", "1, 3")
    env.setenv("GUARDSCOPE_TRACE_MODE", "disable")
    model = Net()
    with caplog.at_level(logging.INFO, logger="guardscope"):
        trace = guardscope.attach_from_env(model)
    assert caplog.messages == [r"activation trace attached to 4 modules (pattern='^blocks\\.\\d+\\.fc\\d$')"]
    assert trace.modules == ["blocks.0.fc1", "blocks.0.fc2", "blocks.1.fc1", "blocks.1.fc2"]
    assert (trace.mode, trace.stats, trace.steps) == ("disable", ["max"], [1, 3])
    for step in range(4):
        trace.set_step(step)
        model(torch.randn(2, 8))
    trace.close()
    records = read_jsonl(trace.path)
    assert [r["step"] for r in records] == [1] * 4 + [3] * 4
    assert list(records[0]) == ["module", "tensor", "step", "max", "shape", "dtype", "call"]


def test_defaults_hook_every_module_with_abs_mean_and_sum(env, tmp_path):
    env.setenv("GUARDSCOPE_TRACE_ACTIVATIONS", "1")
    env.setenv("GUARDSCOPE_TRACE_OUTPUT", str(tmp_path / "t.jsonl"))
    model = Net()
    trace = guardscope.attach_from_env(model)
    assert len(trace.modules) == 13 and trace.stats == ["abs_mean", "sum"] and trace.mode == "op"
    trace.close()


def test_no_matching_module_warns(env, tmp_path):
    env.setenv("GUARDSCOPE_TRACE_ACTIVATIONS", "1")
    env.setenv("GUARDSCOPE_TRACE_LAYERS", "^transformer")
    env.setenv("GUARDSCOPE_TRACE_OUTPUT", str(tmp_path / "t.jsonl"))
    with pytest.warns(guardscope.GuardscopeWarning) as warned:
        trace = guardscope.attach_from_env(Net())
    assert trace.modules == []
    [warning] = warned
    assert str(warning.message) == "activation trace attached to 0 modules (pattern='^transformer')"
    assert warning.filename == __file__  # the user's attach_from_env call
    trace.close()


def test_a_misuse_warning_is_filterable_and_points_at_the_caller(tmp_path):
    with pytest.warns(guardscope.GuardscopeWarning) as warned:
        guardscope.trace_activations(Net(), layers="^nothing$", output=tmp_path / "a.jsonl").close()
    assert warned[0].filename == __file__
    with warnings.catch_warnings():
        warnings.simplefilter("error", guardscope.GuardscopeWarning)
        with pytest.raises(guardscope.GuardscopeWarning, match="0 modules"):
            guardscope.trace_activations(Net(), layers="^nothing$", output=tmp_path / "b.jsonl")


def test_pytest_w_error_names_the_class(tmp_path):
    # `pytest -W error::guardscope.GuardscopeWarning` turns the warning into a
    # failure: pytest resolves the class after startup. (`python -W` cannot
    # name a class of a pip-installed package: Python reads -W before
    # site-packages is on sys.path.)
    test = tmp_path / "test_warns.py"
    test.write_text(
        "import warnings, guardscope\n"
        "def test_it():\n"
        "    warnings.warn('x', guardscope.GuardscopeWarning)\n"
    )
    cmd = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(test)]
    plain = subprocess.run(cmd, capture_output=True, text=True, cwd=tmp_path)
    assert plain.returncode == 0, plain.stdout
    strict = subprocess.run(cmd + ["-W", "error::guardscope.GuardscopeWarning"], capture_output=True, text=True, cwd=tmp_path)
    assert strict.returncode == 1 and "GuardscopeWarning: x" in strict.stdout, strict.stdout


def test_bad_steps_name_the_variable(env, tmp_path):
    env.setenv("GUARDSCOPE_TRACE_ACTIVATIONS", "1")
    env.setenv("GUARDSCOPE_TRACE_STEPS", "0,last")
    with pytest.raises(ValueError, match="GUARDSCOPE_TRACE_STEPS"):
        guardscope.attach_from_env(Net())


def test_attaching_to_an_already_compiled_model_warns(tmp_path):
    torch._dynamo.reset()
    model = Net()
    compiled = torch.compile(model, backend="eager")
    with warnings.catch_warnings():
        warnings.simplefilter("error", guardscope.GuardscopeWarning)
        guardscope.trace_activations(compiled, output=tmp_path / "a.jsonl").close()  # compiled lazily: not yet
    compiled(torch.randn(2, 8))
    with pytest.warns(guardscope.GuardscopeWarning, match="Net already has compiled code") as warned:
        trace = guardscope.trace_activations(compiled, output=tmp_path / "b.jsonl")
    assert warned[0].filename == __file__
    assert trace.modules[:2] == ["", "blocks"]  # names of the original model, not "_orig_mod.*"
    trace.close()
    torch._dynamo.reset()


# -- register_forward_hooks ---------------------------------------------------

FACTORIES = textwrap.dedent(
    """
    CALLS = []

    def tagging_factory(config):
        tag = config.get("tag", "default")

        def hook(module, inputs, output):
            CALLS.append((type(module).__name__, tag, tuple(output.shape)))

        return hook

    def none_factory(config):
        return None

    class nested:
        @staticmethod
        def factory(config):
            return tagging_factory({"tag": "nested"})
    """
)


@pytest.fixture
def factories(tmp_path, monkeypatch):
    (tmp_path / "gs_test_factories.py").write_text(FACTORIES)
    monkeypatch.syspath_prepend(str(tmp_path))
    import importlib

    import gs_test_factories

    return importlib.reload(gs_test_factories)


def test_specs_register_removable_hooks_from_both_factory_spellings(factories):
    model = Net()
    specs = [
        {"name": "fcs", "target_modules": ["blocks.*.fc1"], "hook_factory": "gs_test_factories:tagging_factory",
         "config": {"tag": "fc1"}},
        {"name": "head", "target_modules": "head", "hook_factory": "gs_test_factories.tagging_factory"},
        {"name": "nested", "target_modules": ["blocks.1.ln"], "hook_factory": "gs_test_factories:nested.factory"},
    ]  # fmt: skip
    handles = guardscope.register_forward_hooks(model, json.dumps({"forward_hooks": specs}))
    assert handles.registered == [("fcs", "blocks.0.fc1"), ("fcs", "blocks.1.fc1"), ("head", "head"), ("nested", "blocks.1.ln")]
    assert hook_count(model) == 4
    model(torch.randn(2, 8))
    assert factories.CALLS == [
        ("Linear", "fc1", (2, 16)), ("LayerNorm", "nested", (2, 8)), ("Linear", "fc1", (2, 16)), ("Linear", "default", (2, 4))
    ]  # fmt: skip
    handles.remove()
    assert hook_count(model) == 0 and len(handles) == 0


@pytest.mark.parametrize(
    "factory, error, message",
    [
        ("gs_no_such_module:factory", ImportError, "cannot import module 'gs_no_such_module'"),
        ("gs_test_factories:missing", AttributeError, "'gs_test_factories' has no attribute 'missing'"),
        ("gs_test_factories.CALLS", TypeError, "is not callable"),
        ("no_separator", ValueError, "must look like"),
    ],
)
def test_a_bad_factory_raises_at_registration_and_registers_nothing(factories, factory, error, message):
    model = Net()
    specs = [
        {"name": "good", "target_modules": ["head"], "hook_factory": "gs_test_factories:tagging_factory"},
        {"name": "bad", "target_modules": ["head"], "hook_factory": factory},
    ]
    with pytest.raises(error, match=message):
        guardscope.register_forward_hooks(model, specs)
    assert hook_count(model) == 0


def test_no_match_none_factory_and_incomplete_specs_warn_and_the_rest_is_registered(factories):
    model = Net()
    specs = [
        {"name": "nothing", "target_modules": ["decoder.*"], "hook_factory": "gs_test_factories:tagging_factory"},
        {"name": "none", "target_modules": ["head"], "hook_factory": "gs_test_factories:none_factory"},
        {"name": "no-targets", "hook_factory": "gs_test_factories:tagging_factory"},
        {"name": "no-factory", "target_modules": ["head"]},
        {"name": "ok", "target_modules": ["head"], "hook_factory": "gs_test_factories:tagging_factory"},
    ]
    with pytest.warns(guardscope.GuardscopeWarning) as warned:
        handles = guardscope.register_forward_hooks(model, specs)
    assert handles.registered == [("ok", "head")] and hook_count(model) == 1
    assert {w.filename for w in warned} == {__file__}
    assert [str(w.message) for w in warned] == [
        "Hook spec 'no-targets' has no 'target_modules', skipping",
        "Hook spec 'no-factory' has no 'hook_factory', skipping",
        "No modules matched hook spec 'nothing' patterns=['decoder.*']",
        "Hook factory 'gs_test_factories:none_factory' for spec 'none' returned None, not registering any hook",
    ]


def test_the_built_in_factory_records_activation_stats(tmp_path):
    model = Net()
    specs = [
        {
            "name": "acts",
            "target_modules": ["blocks.*.fc2", "head"],
            "hook_factory": "guardscope:activation_stats",
            "config": {"stats": ["sum", "max"], "output": str(tmp_path / "t.jsonl"), "steps": [1]},
        }
    ]
    handles = guardscope.register_forward_hooks(model, specs)
    assert handles.traces["acts"].modules == ["blocks.0.fc2", "blocks.1.fc2", "head"]
    for step in range(3):
        handles.set_step(step)
        x = torch.randn(2, 8)
        out = model(x)
    handles.remove()
    assert hook_count(model) == 0
    records = read_jsonl(tmp_path / "t.jsonl")
    assert [(r["module"], r["step"]) for r in records] == [("blocks.0.fc2", 1), ("blocks.1.fc2", 1), ("head", 1)]
    assert list(records[0]) == ["module", "tensor", "step", "sum", "max", "shape", "dtype", "call"]
    assert out.shape == (2, 4)


def test_the_built_in_factory_rejects_bad_config_at_registration():
    spec = {"name": "acts", "target_modules": ["head"], "hook_factory": "guardscope:activation_stats"}
    with pytest.raises(ValueError, match=r"unknown stats \['median'\]"):
        guardscope.register_forward_hooks(Net(), [dict(spec, config={"stats": "sum,median"})])
    with pytest.raises(ValueError, match=r"unknown config keys \['layers'\]"):
        guardscope.register_forward_hooks(Net(), [dict(spec, config={"layers": ".*"})])
