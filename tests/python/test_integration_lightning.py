"""GuardscopeCallback in a real Lightning Trainer: a tiny classifier whose
network the module compiles (aot_eager, dynamic=False), CSVLogger, on CPU.
36 rows in batches of 8 leave a last batch of 4 at optimizer step 4
(Lightning's loggers count steps from 0), which recompiles.
"""

import csv
import logging
import os
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import compile_log, read_jsonl, step_row

SCRIPT = Path(sys.executable).with_name("guardscope")
ROWS, BATCH, FEATURES = 36, 8, 12
SHORT_STEP = 4


def lightning_module(pl=None, validation=False):
    import torch

    if pl is None:
        import lightning.pytorch as pl

    class Classifier(pl.LightningModule):
        def __init__(self):
            super().__init__()
            torch.manual_seed(0)
            self.net = torch.nn.Sequential(torch.nn.Linear(FEATURES, 16), torch.nn.ReLU(), torch.nn.Linear(16, 2))
            self.forward_net = torch.compile(self.net, backend="aot_eager", dynamic=False)

        def training_step(self, batch, batch_idx):
            x, y = batch
            loss = torch.nn.functional.cross_entropy(self.forward_net(x), y)
            self.log("train_loss", loss, batch_size=len(x))
            return loss

        def configure_optimizers(self):
            return torch.optim.SGD(self.parameters(), lr=0.1)

    class Validated(Classifier):
        validated = 0

        def validation_step(self, batch, batch_idx):
            x, y = batch
            type(self).validated += 1
            return torch.nn.functional.cross_entropy(self.forward_net(x), y)

    return Validated() if validation else Classifier()


def loader(rows=ROWS):
    import torch

    gen = torch.Generator().manual_seed(0)
    data = torch.utils.data.TensorDataset(torch.randn(rows, FEATURES, generator=gen), torch.randint(0, 2, (rows,), generator=gen))
    return torch.utils.data.DataLoader(data, batch_size=BATCH)


def fit(root, callbacks, log_every_n_steps=1, pl=None):
    if pl is None:
        import lightning.pytorch as pl

    logger = pl.loggers.CSVLogger(str(root), name="run")
    trainer = pl.Trainer(
        max_epochs=1,
        accelerator="cpu",
        devices=1,
        logger=logger,
        log_every_n_steps=log_every_n_steps,
        callbacks=callbacks,
        enable_checkpointing=False,
        enable_progress_bar=False,
        enable_model_summary=False,
        num_sanity_val_steps=0,
        default_root_dir=str(root),
    )
    trainer.fit(lightning_module(pl), train_dataloaders=loader())
    return trainer


def metrics_rows(trainer):
    with open(Path(trainer.logger.log_dir) / "metrics.csv") as f:
        return list(csv.DictReader(f))


class Warnings(logging.Handler):
    def __init__(self):
        super().__init__(level=logging.WARNING)
        self.messages = []

    def emit(self, record):
        self.messages.append(record.getMessage())


@pytest.fixture(scope="module")
def fitted(tmp_path_factory):
    from guardscope.integrations.lightning import GuardscopeCallback

    root = tmp_path_factory.mktemp("lightning")
    warnings = Warnings()
    logging.getLogger("guardscope").addHandler(warnings)
    try:
        # rehearse=True: the rehearsal must predict this fit, and (below)
        # add no compile to it.
        callback = GuardscopeCallback(rehearse=True)
        with compile_log() as with_callback:
            trainer = fit(root / "with", [callback])
        with compile_log() as without:
            fit(root / "without", [])
    finally:
        logging.getLogger("guardscope").removeHandler(warnings)
    return trainer, callback, warnings.messages, with_callback, without


def test_csv_logger_receives_the_recompile_at_the_short_batch(fitted):
    trainer, *_ = fitted
    rows = {int(r["step"]): r for r in metrics_rows(trainer) if r.get("compile/recompiles")}
    assert sorted(rows) == [0, 1, 2, 3, 4]
    assert float(rows[SHORT_STEP]["compile/recompiles"]) > 0
    assert [float(rows[s]["compile/recompiles"]) for s in (0, 1, 2, 3)] == [0, 0, 0, 0]
    assert float(rows[0]["compile/compiles"]) >= 1 and float(rows[0]["compile/seconds"]) > 0
    assert float(rows[SHORT_STEP]["compile/recompiles_total"]) == float(rows[SHORT_STEP]["compile/recompiles"])
    # The module's own metrics carry the same step numbers (rows of their own).
    loss_steps = {int(r["step"]) for r in metrics_rows(trainer) if r.get("train_loss")}
    assert loss_steps == set(rows)


def test_step_records_warning_and_cli_name_the_recompile(fitted):
    trainer, callback, warnings, *_ = fitted
    assert callback.path == str(Path(trainer.log_dir) / "steps_0.jsonl")
    records = read_jsonl(callback.path)
    assert [r["step"] for r in records] == [0, 1, 2, 3, 4]
    assert sum(r["recompiles"] for r in records[:-1]) == 0 and records[-1]["recompiles"] == 1
    [recompile] = [c for c in records[-1]["compiles"] if c["recompile"]]
    assert recompile["cause"]["category"] == "shape_input", recompile["cause"]
    step_warnings = [w for w in warnings if "recompiled" in w]
    assert len(step_warnings) == 1 and step_warnings[0].startswith(f"step {SHORT_STEP} recompiled: "), warnings
    assert recompile["cause"]["label"] in step_warnings[0]
    # On the directory the step file is in (the trainer's log_dir), as a user runs it.
    proc = subprocess.run([str(SCRIPT), "steps", os.path.dirname(callback.path)], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    # The step's row in "Slowest steps", with its compiles under it.
    row = step_row(proc.stdout, SHORT_STEP)
    assert row and "recompile" in row and recompile["cause"]["label"] in row, proc.stdout


def test_the_callback_adds_no_compile_and_no_graph_break(fitted):
    *_, with_callback, without = fitted
    assert with_callback.compile_ids == without.compile_ids
    assert with_callback.recompiles == without.recompiles != []
    assert with_callback.graph_breaks == without.graph_breaks
    assert with_callback.unique_graphs == without.unique_graphs


def test_rehearse_predicted_the_fits_recompile_and_logged_its_counts(fitted):
    """36 rows in batches of 8, compiled with dynamic=False: the rehearsal
    made the last batch of 4 and predicted the static-shape recompile (a
    problem: a warning, on_problem="warn") that the real step 4 then had."""
    trainer, callback, warnings, *_ = fitted
    outcome = callback.rehearsal.outcome
    assert outcome is not None and outcome.rehearsal.unseen == ()
    predicted = [(r.compile_id.split("/")[1], r.cause.category, r.severity) for r in outcome.rehearsal.recompiles]
    records = read_jsonl(callback.path)
    real = [(c["compile_id"].split("/")[1], c["cause"]["category"], c["cause"]["severity"]) for r in records for c in r["compiles"] if c["recompile"]]
    assert predicted == real == [("1", "shape_input", "problem")], (predicted, real)
    assert outcome.problems == 1
    assert "train: 36 samples in batches of 8, last batch 4" in outcome.text
    assert [w for w in warnings if w.startswith("GuardscopeCallback rehearsed")] == [outcome.text]
    [row] = [r for r in metrics_rows(trainer) if r.get("rehearse/recompiles")]
    assert int(row["step"]) == 0 and float(row["rehearse/recompiles"]) == 1 and float(row["rehearse/problems"]) == 1


def test_on_problem_raise_stops_the_fit_before_the_sanity_check_and_any_step(tmp_path):
    """The same module with a validation loop: the rehearsal runs the
    sanity check's and the epoch's validation (eval mode, inference_mode)
    and the training batches, predicts the static-shape recompile and stops
    the fit in on_fit_start; the module, its parameters and Dynamo's caches
    are as they were."""
    import lightning.pytorch as pl
    import torch

    import guardscope
    from guardscope.integrations.lightning import GuardscopeCallback

    torch._dynamo.reset()
    module = lightning_module(validation=True)
    before = {k: v.clone() for k, v in module.state_dict().items()}
    callback = GuardscopeCallback(rehearse=True, on_problem="raise")
    trainer = pl.Trainer(
        max_epochs=1, accelerator="cpu", devices=1, logger=pl.loggers.CSVLogger(str(tmp_path), name="run"),
        callbacks=[callback], enable_checkpointing=False, enable_progress_bar=False, enable_model_summary=False,
        num_sanity_val_steps=2, default_root_dir=str(tmp_path),
    )
    with pytest.raises(guardscope.PredictedProblemError) as err:
        trainer.fit(module, train_dataloaders=loader(), val_dataloaders=loader(rows=20))
    rehearsal = err.value.rehearsal
    kinds = [(r.cause.category, r.severity) for r in rehearsal.recompiles]
    assert ("shape_input", "problem") in kinds, kinds
    assert any(category in ("torch_global_state", "inference_mode") for category, _ in kinds), "the train/eval switches"
    assert "val: 20 samples in batches of 8, last batch 4" in str(err.value)
    assert trainer.global_step == 0 and module.validated == 0, "no step and no sanity check ran"
    assert not list(tmp_path.rglob("steps_*.jsonl"))
    assert module.forward_net._orig_mod is module.net and all(p.device.type == "cpu" for p in module.parameters())
    assert all(torch.equal(before[k], v) for k, v in module.state_dict().items())
    code = type(module.net).forward.__code__
    assert torch._dynamo.eval_frame._debug_get_cache_entry_list(code) == [], "the rehearsal compiled nothing here"
    torch._dynamo.reset()


def test_a_window_lightning_does_not_log_goes_with_the_epoch(tmp_path):
    # Lightning logs steps 1 and 3 (every 2nd); the short batch, step 4, is
    # not: its window is sent when the epoch ends, at step 4.
    from guardscope.integrations.lightning import GuardscopeCallback

    torch = pytest.importorskip("torch")
    torch._dynamo.reset()
    trainer = fit(tmp_path, [GuardscopeCallback(warn=False)], log_every_n_steps=2)
    rows = [r for r in metrics_rows(trainer) if r.get("compile/recompiles")]
    assert [int(r["step"]) for r in rows] == [1, 3, SHORT_STEP]
    assert [float(r["compile/recompiles"]) for r in rows] == [0, 0, 1]
    assert float(rows[-1]["compile/recompiles_total"]) == 1
    assert sum(float(r["compile/compiles"]) for r in rows) == float(rows[-1]["compile/compiles_total"])


def test_max_recompiles_stops_the_fit(tmp_path):
    import guardscope
    from guardscope.integrations.lightning import GuardscopeCallback

    torch = pytest.importorskip("torch")
    torch._dynamo.reset()
    with pytest.raises(guardscope.RecompileError) as err:
        fit(tmp_path, [GuardscopeCallback(warmup_steps=1, max_recompiles=0, warn=False)])
    assert str(err.value).startswith("1 recompile(s) during training after 1 warm-up step(s), more than max_recompiles=0")
    assert f"training stopped at step {SHORT_STEP}" in str(err.value)
    torch._dynamo.reset()
    # The same recompile in an allowed category does not stop it.
    fit(tmp_path / "allowed", [GuardscopeCallback(max_recompiles=0, allow=["shape_input"], warn=False)])


def test_the_callback_is_a_callback_of_each_installed_lightning_package():
    import importlib.util

    from guardscope.integrations.lightning import GuardscopeCallback

    import lightning.pytorch

    assert isinstance(GuardscopeCallback(), lightning.pytorch.Callback)
    if importlib.util.find_spec("pytorch_lightning") is not None:
        import pytorch_lightning

        assert isinstance(GuardscopeCallback(), pytorch_lightning.Callback)


def test_a_pytorch_lightning_trainer_takes_it_too(tmp_path):
    pytorch_lightning = pytest.importorskip("pytorch_lightning")
    import torch

    from guardscope.integrations.lightning import GuardscopeCallback

    torch._dynamo.reset()
    callback = GuardscopeCallback(warn=False)
    trainer = fit(tmp_path, [callback], pl=pytorch_lightning)
    assert isinstance(trainer, pytorch_lightning.Trainer)
    assert [r["recompiles"] for r in read_jsonl(callback.path)] == [0, 0, 0, 0, 1]
    rows = {int(r["step"]): r for r in metrics_rows(trainer) if r.get("compile/recompiles")}
    assert float(rows[SHORT_STEP]["compile/recompiles"]) == 1


def test_lightnings_counts_read_directly_agree_with_its_properties(tmp_path):
    # The callback reads the optimizer's step count and the fit loop's
    # batches directly (its properties cost microseconds a step): at every
    # batch end, with gradient accumulation and a log every 2nd step, they
    # say what trainer.global_step and the logger connector's flag say.
    import lightning.pytorch as pl

    from guardscope.integrations import lightning as gl

    torch = pytest.importorskip("torch")
    torch._dynamo.reset()
    seen = []

    class Probe(pl.Callback):
        tracker = None

        def on_fit_start(self, trainer, pl_module):
            self.loop, self.every = gl._log_rule(trainer)

        def on_train_batch_start(self, trainer, pl_module, batch, batch_idx):
            if self.tracker is None:
                self.tracker = gl._steps_tracker(trainer)

        def on_train_batch_end(self, trainer, pl_module, outputs, batch, batch_idx):
            rule = (self.loop._batches_that_stepped + 1) % self.every == 0 or trainer.should_stop
            seen.append((self.tracker.completed, trainer.global_step, rule, trainer._logger_connector.should_update_logs))

    trainer = pl.Trainer(
        max_epochs=2,
        accelerator="cpu",
        logger=pl.loggers.CSVLogger(str(tmp_path)),
        log_every_n_steps=2,
        accumulate_grad_batches=2,
        callbacks=[Probe()],
        enable_checkpointing=False,
        enable_progress_bar=False,
        enable_model_summary=False,
    )
    trainer.fit(lightning_module(), train_dataloaders=loader())
    assert len(seen) == 10
    assert all(tracked == step for tracked, step, _, _ in seen), seen
    assert all(rule == flag for _, _, rule, flag in seen), seen
    assert [step for step, *_ in seen] == [0, 1, 1, 2, 3, 3, 4, 4, 5, 6]


def test_with_gradient_accumulation_a_record_spans_the_steps_batches(tmp_path):
    # 5 batches, 2 accumulated per optimizer step: steps after batches 2, 4
    # and 5 (the epoch's end). Lightning logs step 1 (every 2nd); the last
    # step's window, with the short batch's recompile, goes with the epoch.
    from guardscope.integrations.lightning import GuardscopeCallback

    import lightning.pytorch as pl

    torch = pytest.importorskip("torch")
    torch._dynamo.reset()
    callback = GuardscopeCallback(warn=False)
    trainer = pl.Trainer(
        max_epochs=1,
        accelerator="cpu",
        logger=pl.loggers.CSVLogger(str(tmp_path), name="run"),
        log_every_n_steps=2,
        accumulate_grad_batches=2,
        callbacks=[callback],
        enable_checkpointing=False,
        enable_progress_bar=False,
        enable_model_summary=False,
    )
    trainer.fit(lightning_module(), train_dataloaders=loader())
    records = read_jsonl(callback.path)
    assert [r["step"] for r in records] == [0, 1, 2]
    assert [r["recompiles"] for r in records] == [0, 0, 1]
    rows = metrics_rows(trainer)
    ours = [int(r["step"]) for r in rows if r.get("compile/recompiles")]
    lightnings = [int(r["step"]) for r in rows if r.get("train_loss")]
    assert lightnings == [1] and ours == [1, 2]


def test_a_module_that_logs_nothing_still_gets_the_metrics(tmp_path):
    import lightning.pytorch as pl

    from guardscope.integrations.lightning import GuardscopeCallback

    torch = pytest.importorskip("torch")
    torch._dynamo.reset()

    class Silent(pl.LightningModule):
        def __init__(self):
            super().__init__()
            self.net = torch.compile(torch.nn.Linear(FEATURES, 2), backend="aot_eager", dynamic=False)

        def training_step(self, batch, batch_idx):
            x, y = batch
            return torch.nn.functional.cross_entropy(self.net(x), y)

        def configure_optimizers(self):
            return torch.optim.SGD(self.parameters(), lr=0.1)

    trainer = pl.Trainer(
        max_epochs=1,
        accelerator="cpu",
        logger=pl.loggers.CSVLogger(str(tmp_path), name="run"),
        log_every_n_steps=1,
        callbacks=[GuardscopeCallback(warn=False)],
        enable_checkpointing=False,
        enable_progress_bar=False,
        enable_model_summary=False,
    )
    trainer.fit(Silent(), train_dataloaders=loader())
    rows = metrics_rows(trainer)
    assert [int(r["step"]) for r in rows if r.get("compile/recompiles")] == [0, 1, 2, 3, 4]
    assert float(rows[-1]["compile/recompiles_total"]) == 1
