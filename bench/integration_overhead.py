"""What the Trainer callbacks (guardscope.integrations) cost a training step.

Usage: .venv/bin/python bench/integration_overhead.py [--steps N] [--only transformers|lightning] [--log-every N ...]

Trains the tests' tiny models on CPU, compiled (aot_eager), one torch
thread: a random BERT (hidden 32, 2 layers, vocab 100, 8 x 16 tokens) under
the Hugging Face Trainer with torch_compile=True, and a 2-layer MLP under
Lightning (12 -> 16 -> 2, batches of 8). Each runs with a log every step
(the callbacks' most expensive setting: metrics sent at every step) and a
log every 50 (Lightning's default; the Trainer's is 500), or the
--log-every values given, one after the other.

Every hook of the callback is timed where the framework calls it, in CPU time
of the calling thread (time.thread_time: other jobs on a shared machine do
not count), and so is one hook the callback does not override (a no-op the
framework calls once a step: ``on_optimizer_step``, ``on_before_optimizer_step``):
its median is what the timer itself costs a timed call, taken off each
timed call. A step is what the training thread spends from one step's first
hook to the next one's, in CPU time as well (the framework's own work
included: what a user sees as a step). Steps whose record lists a compile
(or a counter that moved) are left out. Under Lightning the loggers save
what the callback sent them inside Lightning's own log call: that call is
timed too, in this run and in a run without the callback, and the
difference of the medians printed (not added: it is a difference of two
runs, within their noise unless large; the extra runs double Lightning's
time).
Prints each hook's median and mean, then one line per framework and log
interval: the callback's mean cost per step (the steps that write the
waiting records and send metrics included), its median, the median step,
and the ratio of that mean to that median step; nothing is asserted.
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

#: The hooks the callbacks override, the one that opens a step, and the
#: no-op the framework calls once a step that times the timer.
HOOKS = {
    "transformers": ("on_train_begin", "on_step_begin", "on_step_end", "on_log", "on_train_end"),
    "lightning": ("on_fit_start", "on_train_batch_start", "on_train_batch_end", "on_train_epoch_end", "on_train_end"),
}
FIRST = {"transformers": "on_step_begin", "lightning": "on_train_batch_start"}
CONTROL = {"transformers": "on_optimizer_step", "lightning": "on_before_optimizer_step"}


class Timing:
    """Per step: the callback's hook time and calls, and the step's CPU time."""

    def __init__(self):
        self.hooks = []  # per step: [seconds in the callback's hooks, timed calls]
        self.starts = []  # thread time at each step's first hook
        self.control = []  # seconds of each call of the no-op hook
        self.calls = {}  # hook name: seconds of each call
        self.log_calls = []  # seconds of each of Lightning's own log calls (LogCalls)

    def wrap(self, callback, names, first, control):
        for name in names:
            hook = getattr(callback, name)

            @functools.wraps(hook)
            def timed(*args, _hook=hook, _first=name == first, **kwargs):
                t0 = time.thread_time()
                if _first:
                    self.starts.append(t0)
                    self.hooks.append([0.0, 0])
                try:
                    return _hook(*args, **kwargs)
                finally:
                    took = time.thread_time() - t0
                    self.calls.setdefault(_hook.__name__, []).append(took)
                    if self.hooks:
                        self.hooks[-1][0] += took
                        self.hooks[-1][1] += 1

            setattr(callback, name, timed)

        noop = getattr(callback, control)

        @functools.wraps(noop)
        def timed_noop(*args, **kwargs):
            t0 = time.thread_time()
            try:
                return noop(*args, **kwargs)
            finally:
                self.control.append(time.thread_time() - t0)

        setattr(callback, control, timed_noop)


def log_calls(timing):
    """A Lightning callback, last in the list, that times the trainer's
    logger connector's log_metrics: Lightning's own log call, whose logger
    save() also writes what the Guardscope callback sent the loggers before
    it (CSVLogger: its rows), work the callback's hooks do not see."""
    import lightning.pytorch as pl

    class LogCalls(pl.Callback):
        def on_fit_start(self, trainer, pl_module):
            connector = trainer._logger_connector
            inner = connector.log_metrics

            def log_metrics(*args, **kwargs):
                t0 = time.thread_time()
                try:
                    return inner(*args, **kwargs)
                finally:
                    timing.log_calls.append(time.thread_time() - t0)

            connector.log_metrics = log_metrics

    return LogCalls()


def records(path):
    with open(path) as f:
        return [json.loads(line) for line in f]


def transformers_run(steps, out, log_every, timing):
    import torch
    from transformers import BertConfig, BertForSequenceClassification, PrinterCallback, Trainer, TrainingArguments

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
        log_level="warning",
    )
    callback = GuardscopeCallback(warn=False)
    timing.wrap(callback, HOOKS["transformers"], FIRST["transformers"], CONTROL["transformers"])
    trainer = Trainer(model=BertForSequenceClassification(config), args=args, train_dataset=rows, callbacks=[callback])
    trainer.remove_callback(PrinterCallback)  # a line on stdout per log: not what is measured
    trainer.train()
    return callback.path


def lightning_run(steps, out, log_every, timing, guardscope=True):
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
    timing.wrap(callback, HOOKS["lightning"], FIRST["lightning"], CONTROL["lightning"])
    trainer = pl.Trainer(
        max_epochs=1,
        accelerator="cpu",
        devices=1,
        logger=pl.loggers.CSVLogger(out),
        log_every_n_steps=log_every,
        callbacks=[callback, log_calls(timing)] if guardscope else [log_calls(timing)],
        enable_checkpointing=False,
        enable_progress_bar=False,
        enable_model_summary=False,
        num_sanity_val_steps=0,
    )
    trainer.fit(Classifier(), train_dataloaders=torch.utils.data.DataLoader(data, batch_size=8))
    return callback.path if guardscope else None


def report(name, log_every, timing, path, without=None):
    made = records(path)
    timer = statistics.median(timing.control)
    # Step i runs from its first hook to step i+1's (the last step has no end).
    quiet = [
        i
        for i, record in enumerate(made[: len(timing.starts) - 1])
        if not record["compiles"] and not any(record["counters"].values())
    ]
    step_cpu = [timing.starts[i + 1] - timing.starts[i] for i in quiet]
    cost = [max(0.0, timing.hooks[i][0] - timer * timing.hooks[i][1]) for i in quiet]
    raw = [timing.hooks[i][0] for i in quiet]
    wall = statistics.median(made[i]["wall_ms"] for i in quiet)
    for hook, took in timing.calls.items():
        print(
            f"  {name} {hook}: {len(took)} calls, median {max(0.0, statistics.median(took) - timer) * 1e6:.1f} us, "
            f"mean {max(0.0, statistics.mean(took) - timer) * 1e6:.1f} us, max {max(took) * 1e3:.2f} ms (timer taken off)"
        )
    mean_us, median_us = statistics.mean(cost) * 1e6, statistics.median(cost) * 1e6
    step_ms = statistics.median(step_cpu) * 1e3
    if without is not None and timing.log_calls and without.log_calls:
        # What the callback adds to Lightning's own log calls (the loggers
        # saving what it sent them), from a run without the callback: a
        # difference of two runs, so only a difference well over their noise
        # (tens of microseconds a call on a shared machine) says something.
        with_us = statistics.median(timing.log_calls) * 1e6
        without_us = statistics.median(without.log_calls) * 1e6
        per_step = (with_us - without_us) * len(timing.log_calls) / len(timing.starts)
        print(
            f"  {name} Lightning's own log calls: median {with_us:.1f} us with the callback, {without_us:.1f} us "
            f"in a run without it ({len(timing.log_calls)} calls): {per_step:+.1f} us per step (not in the line below)"
        )
    print(
        f"{name:12s} log every {log_every:3d}: callback {mean_us:6.1f} us CPU per step (mean; median {median_us:5.1f}; "
        f"{statistics.mean(raw) * 1e6:5.1f} timed, less {timer * 1e6:.1f} us per timed call for the timer) | "
        f"step {step_ms:6.2f} ms CPU (median; its record's wall_ms {wall:.2f}) over {len(quiet)} steps without compiles | "
        f"{mean_us / 10 / step_ms:.2f}% of a step",
        flush=True,
    )


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--steps", type=int, default=400)
    parser.add_argument("--only", choices=sorted(HOOKS))
    parser.add_argument(
        "--log-every",
        type=int,
        nargs="+",
        default=[1, 50],
        help="steps between the trainer's logs, each value a run (1: metrics sent every step, the worst case; 50: Lightning's default)",
    )
    options = parser.parse_args()

    import torch

    torch.set_num_threads(1)
    logging.getLogger("lightning.pytorch").setLevel(logging.ERROR)
    logging.getLogger("transformers").setLevel(logging.ERROR)
    print(f"load average before: {os.getloadavg()[0]:.1f} ({os.cpu_count()} cores); torch {torch.__version__}", flush=True)
    runs = {"transformers": transformers_run, "lightning": lightning_run}
    for log_every in options.log_every:
        for name, run in runs.items():
            if options.only and name != options.only:
                continue
            timing = Timing()
            path = run(options.steps, tempfile.mkdtemp(prefix=f"guardscope-bench-{name}-"), log_every, timing)
            without = None
            if name == "lightning":
                without = Timing()
                run(options.steps, tempfile.mkdtemp(prefix=f"guardscope-bench-{name}-"), log_every, without, guardscope=False)
            report(name, log_every, timing, path, without)
    print(f"load average after: {os.getloadavg()[0]:.1f}", flush=True)
    sys.stdout.flush()
    os._exit(0)  # Lightning and TensorBoard leave threads behind; nothing is left to write


if __name__ == "__main__":
    main()
