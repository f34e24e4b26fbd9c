"""One cause is one cause: a tiny random GPT-2 (built in code, no
downloads) trained by the real Hugging Face Trainer with torch_compile=True.
transformers' loss function logs through ``logging``, a graph break that
splits the compiled step into several frames, so one longer padded batch
(16 -> 24 tokens at the last step) recompiles each of them. The callback
counts that as one cause beside the recompiles, warns in one short line,
and the budget's error names the cause once.
"""

import logging
import os

import pytest

from conftest import read_jsonl

ROWS, BATCH = 40, 8
LENGTHS = (16, 16, 16, 16, 24)  # the padded length of each step's batch
LONG_STEP = 5


def tiny_gpt2():
    import torch
    from transformers import GPT2Config, GPT2LMHeadModel

    torch.manual_seed(0)
    return GPT2LMHeadModel(GPT2Config(n_layer=2, n_embd=32, n_head=2, vocab_size=100, n_positions=64))


class Rows:
    """40 rows of 16 token ids."""

    def __init__(self):
        import torch

        self.ids = torch.randint(1, 100, (ROWS, 16), generator=torch.Generator().manual_seed(0))

    def __len__(self):
        return ROWS

    def __getitem__(self, i):
        return {"input_ids": self.ids[i]}


class PadTo:
    """Pads each batch to the next of ``LENGTHS`` (as a collator padding to
    the longest row of its batch would)."""

    def __init__(self):
        self.calls = 0

    def __call__(self, rows):
        import torch

        length = LENGTHS[min(self.calls, len(LENGTHS) - 1)]
        self.calls += 1
        ids = torch.stack([r["input_ids"] for r in rows])
        ids = torch.nn.functional.pad(ids, (0, length - ids.shape[1]), value=0)
        return {"input_ids": ids, "labels": ids.clone()}


def train(output_dir, callback):
    from transformers import Trainer, TrainingArguments

    args = TrainingArguments(
        output_dir=str(output_dir),
        per_device_train_batch_size=BATCH,
        num_train_epochs=1,
        logging_steps=1,
        report_to=[],
        use_cpu=True,
        torch_compile=True,
        torch_compile_backend="aot_eager",
        save_strategy="no",
        disable_tqdm=True,
        seed=0,
        remove_unused_columns=False,
    )
    trainer = Trainer(model=tiny_gpt2(), args=args, train_dataset=Rows(), data_collator=PadTo(), callbacks=[callback])
    trainer.train()
    return trainer


class Warnings(logging.Handler):
    def __init__(self):
        super().__init__(level=logging.WARNING)
        self.messages = []

    def emit(self, record):
        self.messages.append(record.getMessage())


def run(tmp, callback):
    import torch

    warnings = Warnings()
    logging.getLogger("guardscope").addHandler(warnings)
    cwd = os.getcwd()
    os.chdir(tmp)
    torch._dynamo.reset()
    # Static shapes: each frame recompiles for the new length (as a
    # dynamic-shape recompile would, at three times the cost).
    try:
        with torch._dynamo.config.patch(automatic_dynamic_shapes=False):
            trainer = train(tmp / "out", callback)
            error = None
    except Exception as exc:  # noqa: BLE001  (the budget's RecompileError)
        trainer, error = None, exc
    finally:
        os.chdir(cwd)
        logging.getLogger("guardscope").removeHandler(warnings)
    return trainer, error, warnings.messages


@pytest.fixture(scope="module")
def trained(tmp_path_factory):
    from guardscope.integrations.transformers import GuardscopeCallback

    callback = GuardscopeCallback()
    trainer, error, warnings = run(tmp_path_factory.mktemp("gpt2"), callback)
    assert error is None, error
    return trainer, callback, warnings


def test_one_longer_batch_recompiles_several_frames_and_counts_one_cause(trained):
    trainer, callback, _ = trained
    [record] = [r for r in read_jsonl(callback.path) if r["step"] == LONG_STEP]
    recompiles = [c for c in record["compiles"] if c["recompile"]]
    frames = {c["frame_id"] for c in recompiles}
    assert len(frames) >= 3, f"the graph breaks split the step into frames: {[c['name'] for c in recompiles]}"
    assert {c["cause"]["group"] for c in recompiles} == {recompiles[0]["compile_id"]}
    assert {c["cause"]["change"] for c in recompiles} == {"dim 1: 16 -> 24"}
    logs = {e["step"]: e for e in trainer.state.log_history if "loss" in e}
    assert logs[LONG_STEP]["compile/recompiles"] == len(recompiles)
    assert logs[LONG_STEP]["compile/recompile_causes"] == 1
    assert logs[LONG_STEP]["compile/recompile_causes_total"] == 1
    assert [logs[s]["compile/recompile_causes"] for s in range(1, LONG_STEP)] == [0] * (LONG_STEP - 1)


def test_the_step_warning_is_one_short_line(trained):
    _, _, warnings = trained
    [warning] = [w for w in warnings if "recompiled" in w]
    assert warning.startswith(f"step {LONG_STEP} recompiled: "), warning
    assert "\n" not in warning and len(warning) < 200, (len(warning), warning)
    assert "frames" in warning and "dim 1: 16 -> 24" in warning, warning


def test_the_budget_names_the_cause_once(tmp_path):
    from guardscope import RecompileError
    from guardscope.integrations.transformers import GuardscopeCallback

    _, error, _ = run(tmp_path, GuardscopeCallback(max_recompiles=0))
    assert isinstance(error, RecompileError), error
    n = len(error.events)
    assert n >= 3
    header = str(error).splitlines()[0]
    assert header.startswith(f"{n} recompile(s) from 1 cause during training, more than max_recompiles=0"), header
    assert str(error).count("fix: ") == 1, str(error)


def test_a_cause_budget_lets_one_cause_of_several_recompiles_through(tmp_path):
    # max_recompile_causes=1 alone: the one longer batch is one cause, however
    # many frames it recompiled, so training finishes.
    from guardscope.integrations.transformers import GuardscopeCallback

    callback = GuardscopeCallback(max_recompile_causes=1)
    trainer, error, _ = run(tmp_path, callback)
    assert error is None, error
    logs = {e["step"]: e for e in trainer.state.log_history if "loss" in e}
    assert logs[LONG_STEP]["compile/recompiles"] >= 3
    assert logs[LONG_STEP]["compile/recompile_causes"] == 1


def test_a_cause_budget_of_zero_stops_training_and_says_which_budget(tmp_path):
    from guardscope import RecompileError
    from guardscope.integrations.transformers import GuardscopeCallback

    _, error, _ = run(tmp_path, GuardscopeCallback(max_recompiles=10, max_recompile_causes=0))
    assert isinstance(error, RecompileError), error
    header = str(error).splitlines()[0]
    n = len(error.events)
    assert header.startswith(
        f"{n} recompile(s) from 1 cause during training, more than max_recompile_causes=0 "
        "(one cause can recompile many frames)"
    ), header


def test_no_recompiles_and_the_loaded_gate_take_the_cause_budget(tmp_path):
    # The same Trainer run inside no_recompiles, then its TORCH_TRACE-free
    # compile log judged by Run.check: both count one cause.
    import guardscope
    from guardscope import RecompileError
    from guardscope.integrations.transformers import GuardscopeCallback

    (tmp_path / "one").mkdir()
    (tmp_path / "zero").mkdir()
    with guardscope.no_recompiles(max_recompile_causes=1) as guard:
        _, error, _ = run(tmp_path / "one", GuardscopeCallback())
    assert error is None, error
    assert len(guard.recompiles) >= 3
    with pytest.raises(RecompileError) as raised:
        with guardscope.no_recompiles(max_recompile_causes=0):
            run(tmp_path / "zero", GuardscopeCallback())
    assert "more than max_recompile_causes=0 (one cause can recompile many frames)" in str(raised.value).splitlines()[0]


def test_run_check_takes_the_cause_budget():
    from pathlib import Path

    import guardscope

    root = Path(__file__).resolve().parents[2]
    run = guardscope.load(root / "tests/corpus/logs/torch2.15.0/hf_gpt2_varlen")
    passed = run.check(max_recompile_causes=1)
    assert passed.exit_code == 0, str(passed)
    failed = run.check(max_recompiles=4, max_recompile_causes=0)
    assert failed.exit_code == 1
    assert failed.data["failed_budgets"] == ["--max-recompile-causes"]
    # The default gate is unchanged: no recompile at all.
    assert run.check().exit_code == 1
