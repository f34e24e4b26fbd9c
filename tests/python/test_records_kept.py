"""Step records nobody can lose (issue 41): a failing metrics logger never
switches recording off (real Lightning Trainer), a run resumed from a
checkpoint in a new process or retried in the same one keeps every
attempt's records (real Hugging Face Trainer), and the records of several
real processes (a second process, a forked child) are all read by
``guardscope steps``, each process and attempt apart."""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import guardscope
from conftest import read_jsonl

SCRIPT = Path(sys.executable).with_name("guardscope")
HERE = Path(__file__).resolve().parent


class Warnings(logging.Handler):
    def __init__(self):
        super().__init__(level=logging.WARNING)
        self.messages = []

    def emit(self, record):
        self.messages.append(record.getMessage())


def steps_json(directory):
    done = subprocess.run([str(SCRIPT), "steps", "--json", str(directory)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


# -- 4: a logger whose log_metrics raises ------------------------------------


def test_a_lightning_logger_that_fails_loses_its_metrics_not_the_step_records(tmp_path):
    import lightning.pytorch as pl
    import torch

    from guardscope.integrations.lightning import GuardscopeCallback

    class FullDiskLogger(pl.loggers.CSVLogger):
        """A real CSVLogger whose writes fail, as on a full disk."""

        def log_metrics(self, metrics, step=None):
            raise OSError(28, "No space left on device")

    class Net(pl.LightningModule):
        # No self.log: Lightning itself never calls the loggers, so only the
        # callback's metrics reach the failing one.
        def __init__(self):
            super().__init__()
            torch.manual_seed(0)
            self.net = torch.compile(torch.nn.Linear(12, 2), backend="aot_eager", dynamic=False)

        def training_step(self, batch, batch_idx):
            x, y = batch
            return torch.nn.functional.cross_entropy(self.net(x), y)

        def configure_optimizers(self):
            return torch.optim.SGD(self.parameters(), lr=0.1)

    gen = torch.Generator().manual_seed(0)
    data = torch.utils.data.TensorDataset(torch.randn(36, 12, generator=gen), torch.randint(0, 2, (36,), generator=gen))
    good = pl.loggers.CSVLogger(str(tmp_path), name="good")
    callback = GuardscopeCallback(output_dir=str(tmp_path / "steps"), warn=False)
    warnings = Warnings()
    logging.getLogger("guardscope").addHandler(warnings)
    try:
        trainer = pl.Trainer(
            max_epochs=1,
            accelerator="cpu",
            devices=1,
            logger=[FullDiskLogger(str(tmp_path), name="full"), good],
            log_every_n_steps=1,
            callbacks=[callback],
            enable_checkpointing=False,
            enable_progress_bar=False,
            enable_model_summary=False,
            num_sanity_val_steps=0,
        )
        trainer.fit(Net(), train_dataloaders=torch.utils.data.DataLoader(data, batch_size=8))
    finally:
        logging.getLogger("guardscope").removeHandler(warnings)
    # Before: the step file stopped after step 0 (1 of 5 records), the
    # other logger lost its metrics, and the warning said metrics were off.
    records = read_jsonl(tmp_path / "steps" / "steps_0.jsonl")
    assert [r["step"] for r in records] == [0, 1, 2, 3, 4]
    assert sum(r["recompiles"] for r in records) == 1, "the short last batch"
    with open(Path(good.log_dir) / "metrics.csv") as f:
        text = f.read()
    assert "compile/recompiles_total" in text and text.count("\n") == 6, text
    failed = [m for m in warnings.messages if "FullDiskLogger" in m]
    assert len(failed) == 1, warnings.messages  # once, not at each of the 5 logs
    assert "No space left on device" in failed[0] and "step records" in failed[0]
    assert not any("are off for the rest of the run" in m for m in warnings.messages), warnings.messages


# -- 5: resumed and retried training ---------------------------------------

RESUMED = textwrap.dedent(
    """
    import sys
    sys.path.insert(0, sys.argv[3])
    from transformers import Trainer, TrainingArguments
    from guardscope.integrations.transformers import GuardscopeCallback
    from test_integration_transformers import BATCH, Rows, tiny_bert

    out, resume = sys.argv[1], sys.argv[2]
    args = TrainingArguments(
        output_dir=out, per_device_train_batch_size=BATCH, max_steps=5, logging_steps=1, report_to=[],
        use_cpu=True, torch_compile=True, torch_compile_backend="aot_eager", save_strategy="steps", save_steps=3,
        disable_tqdm=True, seed=0, data_seed=0,
    )
    trainer = Trainer(model=tiny_bert(), args=args, train_dataset=Rows(), callbacks=[GuardscopeCallback(warn=False)])
    trainer.train(resume_from_checkpoint=resume if resume != "-" else None)
    """
)


def test_a_run_resumed_from_a_checkpoint_in_a_new_process_keeps_the_first_runs_steps(tmp_path):
    script = tmp_path / "resumed.py"
    script.write_text(RESUMED)
    out = tmp_path / "out"
    for resume in ("-", str(out / "checkpoint-3")):
        done = subprocess.run(
            [sys.executable, str(script), str(out), resume, str(HERE)], capture_output=True, text=True, timeout=600
        )
        assert done.returncode == 0, done.stderr
    records = read_jsonl(out / "steps_0.jsonl")
    # Before: the second process emptied the file, steps 4 and 5 alone were left.
    assert [r["step"] for r in records] == [1, 2, 3, 4, 5, 4, 5]
    sessions = [r["session"] for r in records]
    assert len(set(sessions[:5])) == 1 and len(set(sessions[5:])) == 1 and sessions[0] != sessions[5]
    assert records[0]["pid"] != records[5]["pid"]
    a = steps_json(out)
    assert a["steps"] == 7 and a["ranks"][0]["attempts"] == 2
    assert [(t["attempt"], t["first_step"], t["last_step"]) for t in a["attempts"]] == [(1, 1, 5), (2, 4, 5)]
    done = subprocess.run([str(SCRIPT), "steps", str(out)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and "recorded again" not in done.stdout, done.stdout
    assert f"attempt 2: pid {records[5]['pid']}, 2 records (steps 4-5)" in done.stdout, done.stdout


def test_train_run_again_after_an_exception_appends_its_records_as_a_second_attempt(tmp_path, caplog):
    import transformers
    from transformers import Trainer, TrainingArguments

    from guardscope.integrations.transformers import GuardscopeCallback
    from test_integration_transformers import BATCH, Rows, tiny_bert

    class FailOnce(transformers.TrainerCallback):
        """A step that raises once, at step 3 (an OOM, a bad batch)."""

        raised = False

        def on_step_end(self, args, state, control, **kwargs):
            if state.global_step == 3 and not self.raised:
                FailOnce.raised = True
                raise RuntimeError("step 3 failed")

    out = tmp_path / "out"
    args = TrainingArguments(
        output_dir=str(out), per_device_train_batch_size=BATCH, max_steps=5, logging_steps=1, report_to=[],
        use_cpu=True, save_strategy="no", disable_tqdm=True, seed=0, data_seed=0,
    )  # fmt: skip
    model = tiny_bert()
    trainer = Trainer(model=model, args=args, train_dataset=Rows(), callbacks=[GuardscopeCallback(warn=False), FailOnce()])
    with pytest.raises(RuntimeError, match="step 3 failed"):
        trainer.train()
    # Run again as a user does in a notebook: a new Trainer, a new callback,
    # while the first one's step file is still open.
    retry = Trainer(model=model, args=args, train_dataset=Rows(), callbacks=[GuardscopeCallback(warn=False)])
    with caplog.at_level(logging.WARNING, logger="guardscope"):
        retry.train()
    # Before: "being written by another process" naming this process, the
    # retry's records in steps_0.pid<PID>.jsonl, left out by `steps`.
    assert not any("another process" in r.getMessage() for r in caplog.records), caplog.text
    assert sorted(p.name for p in out.glob("steps*")) == ["steps_0.jsonl"]
    records = read_jsonl(out / "steps_0.jsonl")
    assert [r["step"] for r in records] == [1, 2, 3, 1, 2, 3, 4, 5]
    assert len({r["session"] for r in records[:3]} | {r["session"] for r in records[3:]}) == 2
    a = steps_json(out)
    assert a["steps"] == 8
    assert [(t["attempt"], t["steps"]) for t in a["attempts"]] == [(1, 3), (2, 5)]


# -- 6: records of several processes ----------------------------------------

SECOND = textwrap.dedent(
    """
    import sys
    import guardscope
    log = guardscope.StepLogger(sys.argv[1], warn=False)
    for step in range(4):
        with log.step(step):
            pass
    log.close()
    print(log.path)
    """
)


def test_a_second_processs_records_beside_the_file_are_all_read(tmp_path, torch):
    path = tmp_path / "steps.jsonl"
    first = guardscope.StepLogger(path, warn=False)
    for step in range(4):
        with first.step(step):
            pass
    script = tmp_path / "second.py"
    script.write_text(SECOND)
    done = subprocess.run([sys.executable, str(script), str(path)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    first.close()
    other = Path(done.stdout.strip())
    assert other.name.startswith("steps.pid") and other.name != f"steps.pid{os.getpid()}.jsonl"
    assert [r["step"] for r in read_jsonl(path)] == [0, 1, 2, 3], "the first file is whole"
    assert {r["pid"] for r in read_jsonl(other)} == {int(other.name[len("steps.pid") : -len(".jsonl")])}
    # Before: all four of the second process's records were "recorded again; left out", exit 0.
    a = steps_json(tmp_path)
    assert a["steps"] == 8 and a["problems"] == []
    assert sorted(t["pid"] for t in a["attempts"]) == sorted([os.getpid(), int(other.name[9:-6])])


def test_a_forked_child_that_keeps_logging_records_its_own_pid(tmp_path, torch):
    path = tmp_path / "steps.jsonl"
    log = guardscope.StepLogger(path, warn=False)
    with log.step(0):
        pass
    child = os.fork()
    if child == 0:
        try:
            for step in (1, 2):
                with log.step(step):
                    pass
            log.close()
        finally:
            os._exit(0)
    os.waitpid(child, 0)
    for step in (1, 2):
        with log.step(step):
            pass
    log.close()
    records = read_jsonl(path)
    by_pid = {}
    for r in records:
        by_pid.setdefault(r["pid"], []).append(r["step"])
    # Before: the child's records carried the parent's pid.
    assert by_pid == {os.getpid(): [0, 1, 2], child: [1, 2]}, by_pid
    a = steps_json(tmp_path)
    assert a["steps"] == 5 and a["problems"] == []
    assert sorted(t["pid"] for t in a["attempts"]) == sorted([os.getpid(), child])
