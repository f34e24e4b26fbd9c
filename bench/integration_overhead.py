"""What the Trainer callbacks (guardscope.integrations) cost a training step.

Usage: .venv/bin/python bench/integration_overhead.py [--steps N] [--only transformers|lightning] [--log-every N]

Trains the tests' tiny models on CPU, compiled (aot_eager), one log per
step by default (the callbacks' most expensive setting: metrics added to
every log; --log-every 50 is Lightning's default):
a random BERT (hidden 32, 2 layers, vocab 100, 8 x 16 tokens) under the
Hugging Face Trainer with torch_compile=True, and a 2-layer MLP under
Lightning. Every hook of the callback is timed where the framework calls
it (CPU time of the calling thread, one torch thread, so that other jobs on a
shared machine do not count), and its total per step is set against the
median step wall time of the same run (the callback's own step records,
steps without compiles). Prints one line per framework; nothing is
asserted.
"""

import argparse
import functools
import json
import logging
import os
import statistics
import sys
import tempfile
import time

HOOKS = {
    "transformers": ("on_train_begin", "on_step_begin", "on_step_end", "on_log", "on_train_end"),
    "lightning": ("on_fit_start", "on_train_batch_start", "on_train_batch_end", "on_train_epoch_end", "on_train_end"),
}


def timed(callback, names):
    """Wraps each hook of ``callback`` (on the instance: frameworks look hooks
    up by name) to add its CPU time to ``spent``."""
    spent = {"s": 0.0, "calls": {}}
    for name in names:
        hook = getattr(callback, name)

        @functools.wraps(hook)
        def wrapper(*args, _hook=hook, **kwargs):
            t0 = time.thread_time()
            try:
                return _hook(*args, **kwargs)
            finally:
                took = time.thread_time() - t0
                spent["s"] += took
                spent["calls"].setdefault(_hook.__name__, []).append(took)

        setattr(callback, name, wrapper)
    return spent


def quiet_steps(path):
    with open(path) as f:
        records = [json.loads(line) for line in f]
    return [r["wall_ms"] for r in records if not r["compiles"]]


def transformers_run(steps, out, log_every):
    import torch
    from transformers import BertConfig, BertForSequenceClassification, Trainer, TrainingArguments

    from guardscope.integrations.transformers import GuardscopeCallback

    torch.manual_seed(0)
    config = BertConfig(
        vocab_size=100,
        hidden_size=32,
        num_hidden_layers=2,
        num_attention_heads=2,
        intermediate_size=64,
        max_position_embeddings=16,
        problem_type="single_label_classification",
    )
    rows = [{"input_ids": torch.randint(1, 100, (16,)), "labels": i % 2} for i in range(8 * steps)]
    args = TrainingArguments(
        output_dir=out,
        per_device_train_batch_size=8,
        num_train_epochs=1,
        logging_steps=log_every,
        report_to=[],
        use_cpu=True,
        torch_compile=True,
        torch_compile_backend="aot_eager",
        save_strategy="no",
        disable_tqdm=True,
    )
    callback = GuardscopeCallback(warn=False)
    spent = timed(callback, HOOKS["transformers"])
    trainer = Trainer(model=BertForSequenceClassification(config), args=args, train_dataset=rows, callbacks=[callback])
    trainer.train()
    return spent, callback.path


def lightning_run(steps, out, log_every):
    import lightning.pytorch as pl
    import torch

    from guardscope.integrations.lightning import GuardscopeCallback

    class Classifier(pl.LightningModule):
        def __init__(self):
            super().__init__()
            self.net = torch.nn.Sequential(torch.nn.Linear(12, 16), torch.nn.ReLU(), torch.nn.Linear(16, 2))
            self.compiled = torch.compile(self.net, backend="aot_eager")

        def training_step(self, batch, batch_idx):
            x, y = batch
            loss = torch.nn.functional.cross_entropy(self.compiled(x), y)
            self.log("train_loss", loss, batch_size=len(x))
            return loss

        def configure_optimizers(self):
            return torch.optim.SGD(self.parameters(), lr=0.1)

    torch.manual_seed(0)
    data = torch.utils.data.TensorDataset(torch.randn(8 * steps, 12), torch.randint(0, 2, (8 * steps,)))
    callback = GuardscopeCallback(warn=False)
    spent = timed(callback, HOOKS["lightning"])
    trainer = pl.Trainer(
        max_epochs=1,
        accelerator="cpu",
        devices=1,
        logger=pl.loggers.CSVLogger(out),
        log_every_n_steps=log_every,
        callbacks=[callback],
        enable_checkpointing=False,
        enable_progress_bar=False,
        enable_model_summary=False,
        num_sanity_val_steps=0,
    )
    trainer.fit(Classifier(), train_dataloaders=torch.utils.data.DataLoader(data, batch_size=8))
    return spent, callback.path


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--steps", type=int, default=200)
    parser.add_argument("--only", choices=sorted(HOOKS))
    parser.add_argument(
        "--log-every",
        type=int,
        default=1,
        help="steps between the trainer's logs (1: metrics sent every step, the worst case; 50: Lightning's default)",
    )
    options = parser.parse_args()

    import torch

    torch.set_num_threads(1)
    logging.getLogger("lightning.pytorch").setLevel(logging.ERROR)
    runs = {"transformers": transformers_run, "lightning": lightning_run}
    for name, run in runs.items():
        if options.only and name != options.only:
            continue
        spent, path = run(options.steps, tempfile.mkdtemp(prefix=f"guardscope-bench-{name}-"), options.log_every)
        for hook, calls in spent["calls"].items():
            print(f"  {name} {hook}: {len(calls)} calls, {sum(calls) * 1e3:.1f} ms, max {max(calls) * 1e3:.2f} ms, median {statistics.median(calls) * 1e6:.0f} us")
        walls = quiet_steps(path)
        median_ms = statistics.median(walls)
        per_step_us = spent["s"] / options.steps * 1e6
        print(
            f"{name:12s} callback {per_step_us:7.1f} us CPU per step (all hooks, a log every {options.log_every} step(s)) | "
            f"median step {median_ms:7.2f} ms wall over {len(walls)} steps without compiles | "
            f"{per_step_us / 10 / median_ms:.3f}% of a step"
        )
    sys.stdout.flush()
    os._exit(0)  # Lightning and TensorBoard leave threads behind; nothing is left to write


if __name__ == "__main__":
    main()
