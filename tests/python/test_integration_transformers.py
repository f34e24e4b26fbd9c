"""GuardscopeCallback in the real Hugging Face Trainer: a tiny random BERT
trained on CPU with torch_compile=True (aot_eager: the compiles are real,
Inductor's code generation is not needed to see them), TensorBoard as the
reporting backend, one log per step. 36 rows in batches of 8 leave a last
batch of 4 at step 5, which recompiles (the batch size changed).
"""

import json
import logging
import os
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import compile_log, read_jsonl, step_row

SCRIPT = Path(sys.executable).with_name("guardscope")
ROWS, BATCH, SEQ = 36, 8, 16
SHORT_STEP = 5  # the Trainer's global_step after the 4-row batch


def tiny_bert():
    import torch
    from transformers import BertConfig, BertForSequenceClassification

    torch.manual_seed(0)
    config = BertConfig(
        vocab_size=100,
        hidden_size=32,
        num_hidden_layers=2,
        num_attention_heads=2,
        intermediate_size=64,
        max_position_embeddings=SEQ,
        num_labels=2,
        # Else the first forward sets it, and the next step recompiles on
        # self.config.problem_type (nn_module_attr): a real recompile, but
        # this test wants the short batch's alone.
        problem_type="single_label_classification",
    )
    return BertForSequenceClassification(config)


class Rows:
    """36 fixed rows of token ids and labels (a map-style dataset)."""

    def __init__(self, rows=ROWS):
        import torch

        gen = torch.Generator().manual_seed(0)
        self.ids = torch.randint(1, 100, (rows, SEQ), generator=gen)
        self.labels = torch.randint(0, 2, (rows,), generator=gen)

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, i):
        return {"input_ids": self.ids[i], "attention_mask": self.ids[i] > 0, "labels": self.labels[i]}


def train(output_dir, callbacks, model=None, torch_compile=True, report_to=("tensorboard",), eval_rows=0):
    from transformers import Trainer, TrainingArguments

    args = TrainingArguments(
        output_dir=str(output_dir),
        per_device_train_batch_size=BATCH,
        num_train_epochs=1,
        logging_steps=1,
        report_to=list(report_to),
        use_cpu=True,
        torch_compile=torch_compile,
        torch_compile_backend="aot_eager" if torch_compile else None,
        save_strategy="no",
        disable_tqdm=True,
        seed=0,
        data_seed=0,
        # A compiled model's forward shows no parameter names to match columns with.
        remove_unused_columns=torch_compile,
        eval_strategy="epoch" if eval_rows else "no",
        per_device_eval_batch_size=BATCH,
    )
    trainer = Trainer(
        model=model if model is not None else tiny_bert(),
        args=args,
        train_dataset=Rows(),
        eval_dataset=Rows(eval_rows) if eval_rows else None,
        callbacks=callbacks,
    )
    trainer.train()
    return trainer


class Warnings(logging.Handler):
    def __init__(self):
        super().__init__(level=logging.WARNING)
        self.messages = []

    def emit(self, record):
        self.messages.append(record.getMessage())


@pytest.fixture(scope="module")
def trained(tmp_path_factory):
    """One training with the callback and one without, compiles counted in both."""
    import torch

    from guardscope.integrations.transformers import GuardscopeCallback

    root = tmp_path_factory.mktemp("hf")
    warnings = Warnings()
    logging.getLogger("guardscope").addHandler(warnings)
    cwd = os.getcwd()
    os.chdir(root)  # the Trainer writes nothing outside output_dir, but be sure
    # The short batch recompiles static (the Trainer asks for dynamic=None):
    # a dynamic-shape recompile of BERT takes three times as long.
    static = torch._dynamo.config.patch(automatic_dynamic_shapes=False)
    static.__enter__()
    try:
        # rehearse=True: the rehearsal must predict this run, and (below)
        # add no compile to it.
        callback = GuardscopeCallback(rehearse=True)
        with compile_log() as with_callback:
            trainer = train(root / "out", [callback])
        with compile_log() as without:
            train(root / "plain", None)
    finally:
        static.__exit__(None, None, None)
        os.chdir(cwd)
        logging.getLogger("guardscope").removeHandler(warnings)
    return root / "out", trainer, callback, warnings.messages, with_callback, without


def tensorboard_scalars(output_dir):
    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

    [events] = list(Path(output_dir).rglob("events.out.tfevents.*"))
    acc = EventAccumulator(str(events.parent))
    acc.Reload()
    return {tag: {e.step: e.value for e in acc.Scalars(tag)} for tag in acc.Tags()["scalars"]}


def test_tensorboard_receives_the_recompile_at_the_short_batch(trained):
    output_dir, *_ = trained
    scalars = tensorboard_scalars(output_dir)
    # The Trainer's TensorBoard callback prefixes training logs with train/.
    recompiles = scalars["train/compile/recompiles"]
    assert sorted(recompiles) == [1, 2, 3, 4, 5]
    assert recompiles[SHORT_STEP] > 0
    assert all(recompiles[step] == 0 for step in (1, 2, 3, 4)), recompiles
    assert scalars["train/compile/compiles"][1] >= 1, "the first step compiles"
    assert scalars["train/compile/seconds"][1] > 0 and scalars["train/compile/seconds"][SHORT_STEP] > 0
    assert scalars["train/compile/recompiles_total"][SHORT_STEP] == recompiles[SHORT_STEP]
    assert "train/loss" in scalars, "the Trainer's own metrics are still there"


def test_log_history_holds_the_same_metrics(trained):
    _, trainer, *_ = trained
    logs = {e["step"]: e for e in trainer.state.log_history if "loss" in e}
    assert sorted(logs) == [1, 2, 3, 4, 5]
    assert logs[SHORT_STEP]["compile/recompiles"] > 0
    assert [logs[s]["compile/recompiles"] for s in (1, 2, 3, 4)] == [0, 0, 0, 0]
    assert logs[SHORT_STEP]["compile/recompiles_total"] == logs[SHORT_STEP]["compile/recompiles"]
    assert all(set(e) >= {"compile/seconds", "compile/graph_break_events", "compile/seconds_total"} for e in logs.values())
    [summary] = [e for e in trainer.state.log_history if "train_runtime" in e]
    assert summary["compile/recompiles_total"] == logs[SHORT_STEP]["compile/recompiles_total"]
    assert "compile/recompiles" not in summary, "the summary carries totals only"


def test_the_callback_goes_before_the_reporting_callbacks(trained):
    from guardscope.integrations.transformers import GuardscopeCallback

    _, trainer, callback, *_ = trained
    assert trainer.callback_handler.callbacks[0] is callback
    assert isinstance(callback, GuardscopeCallback)


def test_step_records_and_the_warning_name_the_recompile_and_its_cause(trained):
    output_dir, trainer, callback, warnings, *_ = trained
    assert callback.path == str(output_dir / "steps_0.jsonl")
    records = read_jsonl(callback.path)
    assert [r["step"] for r in records] == [1, 2, 3, 4, 5]
    short = records[-1]
    assert short["recompiles"] >= 1
    [recompile, *_] = [c for c in short["compiles"] if c["recompile"]]
    assert recompile["cause"]["category"] in ("shape_input", "shape_lazy_buffer"), recompile["cause"]
    assert sum(r["recompiles"] for r in records[:-1]) == 0
    step_warnings = [w for w in warnings if "recompiled" in w]
    assert len(step_warnings) == 1 and step_warnings[0].startswith(f"step {SHORT_STEP} recompiled: "), warnings
    assert recompile["cause"]["label"] in step_warnings[0]


def test_the_cli_lists_the_recompile_with_its_cause(trained):
    output_dir, trainer, callback, *_ = trained
    records = read_jsonl(callback.path)
    cause = next(c["cause"] for c in records[-1]["compiles"] if c["recompile"])
    # On the Trainer's output directory, as a user runs it after training.
    proc = subprocess.run([str(SCRIPT), "steps", str(output_dir)], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    # The step's row in "Slowest steps", with its compiles under it.
    row = step_row(proc.stdout, SHORT_STEP)
    assert row and "recompile" in row and cause["label"] in row, proc.stdout
    as_json = subprocess.run([str(SCRIPT), "steps", "--json", callback.path], capture_output=True, text=True, timeout=60)
    analysis = json.loads(as_json.stdout)
    assert analysis["steps"] == 5


def test_the_callback_adds_no_compile_and_no_graph_break(trained):
    *_, with_callback, without = trained
    assert with_callback.compile_ids == without.compile_ids
    assert with_callback.recompiles == without.recompiles != []
    assert with_callback.graph_breaks == without.graph_breaks
    assert with_callback.unique_graphs == without.unique_graphs


def test_max_recompiles_stops_training_on_a_model_the_user_compiled(tmp_path):
    import torch

    import guardscope
    from guardscope.integrations.transformers import GuardscopeCallback

    model = torch.compile(tiny_bert(), backend="aot_eager", dynamic=False)
    callback = GuardscopeCallback(warmup_steps=1, max_recompiles=0, warn=False)
    torch._dynamo.reset()
    with pytest.raises(guardscope.RecompileError) as err:
        train(tmp_path / "out", [callback], model=model, torch_compile=False, report_to=())
    message = str(err.value)
    assert message.startswith("1 recompile(s) during training after 1 warm-up step(s), more than max_recompiles=0"), message
    assert f"training stopped at step {SHORT_STEP}" in message
    assert [e["recompile"] for e in err.value.events] == [True]
    records = read_jsonl(tmp_path / "out" / "steps_0.jsonl")
    assert [r["step"] for r in records] == [1, 2, 3, 4, 5], "the stopping step is recorded"
    torch._dynamo.reset()


def predicted_and_real(rehearsal, records):
    """The recompiles as (recompile number, function, category, severity):
    compile ids' frame numbers differ (the rehearsal's process starts from 0)."""
    predicted = [(r.compile_id.split("/")[1], r.function, r.cause.category, r.severity) for r in rehearsal.recompiles]
    real = [
        (c["compile_id"].split("/")[1], c["function"], c["cause"]["category"], c["cause"]["severity"])
        for r in records
        for c in r["compiles"]
        if c["recompile"]
    ]
    return predicted, real


def test_rehearse_predicted_the_runs_recompile_before_the_first_step(trained):
    """36 rows in batches of 8: the rehearsal made the loader's last batch
    of 4 and predicted the recompile the real step 5 then had."""
    _, trainer, callback, warnings, *_ = trained
    outcome = callback.rehearsal.outcome
    assert outcome is not None and outcome.rehearsal.unseen == ()
    predicted, real = predicted_and_real(outcome.rehearsal, read_jsonl(callback.path))
    assert predicted == real and len(real) == 1, (predicted, real)
    assert "train: 36 samples in batches of 8, last batch 4" in outcome.text
    # Its counts go into the first training log, once.
    logs = [e for e in trainer.state.log_history if "rehearse/recompiles" in e]
    assert [e["step"] for e in logs] == [1]
    assert logs[0]["rehearse/recompiles"] == 1 and logs[0]["rehearse/problems"] == outcome.problems
    assert logs[0]["rehearse/unseen"] == 0


def test_on_problem_raise_stops_before_the_first_step_and_leaves_the_model_and_caches(tmp_path):
    """A model the user compiled with dynamic=False recompiles at the short
    last batch (a problem: static shapes); evaluation runs that same
    compiled model in eval mode under no_grad. The rehearsal predicts both
    and stops training before any step; the model and Dynamo's caches of
    the parent are as they were."""
    import torch
    from transformers import BertForSequenceClassification

    import guardscope
    from guardscope.integrations.transformers import GuardscopeCallback

    torch._dynamo.reset()
    bert = tiny_bert()
    before = {k: v.clone() for k, v in bert.state_dict().items()}
    model = torch.compile(bert, backend="aot_eager", dynamic=False)
    model(input_ids=torch.ones(2, SEQ, dtype=torch.long))  # one real compile the rehearsal must leave alone
    code = BertForSequenceClassification.forward.__code__
    entries = len(torch._dynamo.eval_frame._debug_get_cache_entry_list(code))
    callback = GuardscopeCallback(rehearse=True, on_problem="raise")
    with pytest.raises(guardscope.PredictedProblemError) as err:
        train(tmp_path / "out", [callback], model=model, torch_compile=False, report_to=(), eval_rows=12)
    rehearsal = err.value.rehearsal
    kinds = [(r.cause.category, r.severity) for r in rehearsal.recompiles]
    assert ("shape_input", "problem") in kinds, kinds
    assert ("torch_global_state", "expected") in kinds, "the eval pass: eval mode under no_grad"
    assert "training was not started" in str(err.value)
    assert not (tmp_path / "out" / "steps_0.jsonl").exists(), "no step ran"
    assert len(torch._dynamo.eval_frame._debug_get_cache_entry_list(code)) == entries
    assert bert.training and all(p.device.type == "cpu" for p in bert.parameters())
    assert all(torch.equal(before[k], v) for k, v in bert.state_dict().items())
    torch._dynamo.reset()


class LMRows:
    """Token rows for a causal LM: the labels are the ids."""

    def __init__(self, rows):
        import torch

        self.ids = torch.randint(1, 100, (rows, SEQ), generator=torch.Generator().manual_seed(1))

    def __len__(self):
        return len(self.ids)

    def __getitem__(self, i):
        return {"input_ids": self.ids[i], "attention_mask": self.ids[i] > 0, "labels": self.ids[i]}


def test_rehearse_with_predict_with_generate_names_generate_as_unseen_and_rehearses_the_eval_forward(tmp_path):
    """A Seq2SeqTrainer that evaluates with predict_with_generate: the
    rehearsal tries generate() on the meta copy (never on the real model),
    which cannot run there (it reads token values), so it is unseen with
    why, and the evaluation's loss forward is rehearsed all the same: its
    eval-mode, no_grad recompile is predicted. Unseen is a problem:
    on_problem="raise" stops before the first step."""
    import torch
    from transformers import GPT2Config, GPT2LMHeadModel, Seq2SeqTrainer, Seq2SeqTrainingArguments

    import guardscope
    from guardscope.integrations.transformers import GuardscopeCallback

    torch._dynamo.reset()
    torch.manual_seed(0)
    config = GPT2Config(vocab_size=100, n_positions=SEQ * 2, n_embd=32, n_layer=1, n_head=2, use_cache=False, bos_token_id=1, eos_token_id=2)
    model = torch.compile(GPT2LMHeadModel(config), backend="aot_eager", dynamic=False)
    args = Seq2SeqTrainingArguments(
        output_dir=str(tmp_path / "out"), per_device_train_batch_size=BATCH, per_device_eval_batch_size=BATCH,
        num_train_epochs=1, report_to=[], use_cpu=True, save_strategy="no", disable_tqdm=True,
        remove_unused_columns=False, eval_strategy="epoch", predict_with_generate=True, generation_max_length=SEQ + 4,
    )
    callback = GuardscopeCallback(rehearse=True, on_problem="raise")
    trainer = Seq2SeqTrainer(
        model=model, args=args, train_dataset=LMRows(16), eval_dataset=LMRows(8),
        compute_metrics=lambda prediction: {}, callbacks=[callback],
    )
    with pytest.raises(guardscope.PredictedProblemError) as err:
        trainer.train()
    rehearsal = err.value.rehearsal
    [unseen] = rehearsal.unseen
    assert unseen.kind == "generate" and unseen.why.startswith("eval: generate() could not run on meta"), unseen
    assert "eval: generate() on each batch (predict_with_generate)" in str(err.value)
    kinds = [(r.cause.category, r.severity) for r in rehearsal.recompiles]
    assert ("torch_global_state", "expected") in kinds, kinds
    assert trainer.state.global_step == 0
    torch._dynamo.reset()


def test_bad_arguments_fail_at_construction():
    from guardscope.integrations.transformers import GuardscopeCallback

    with pytest.raises(ValueError, match="unknown recompile categories"):
        GuardscopeCallback(allow=("shape_inputs",))
    with pytest.raises(ValueError, match=">= 0"):
        GuardscopeCallback(max_recompiles=-1)
    with pytest.raises(ValueError, match="on_problem must be 'warn' or 'raise'"):
        GuardscopeCallback(rehearse=True, on_problem="stop")


def test_import_guardscope_imports_no_training_framework():
    code = (
        "import sys, guardscope, guardscope.integrations\n"
        "loaded = sorted(m for m in ('transformers', 'lightning', 'pytorch_lightning', 'torch') if m in sys.modules)\n"
        "assert loaded == [], loaded\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr
