"""``GuardscopeCallback`` for Lightning (``lightning`` or ``pytorch_lightning``).

::

    from guardscope.integrations.lightning import GuardscopeCallback

    trainer = L.Trainer(callbacks=[GuardscopeCallback()])

Each optimizer step becomes one ``StepLogger`` record in
``trainer.log_dir/steps_<global rank>.jsonl``; the ``compile/*`` metrics go
to every logger of the trainer (CSV, TensorBoard, W&B, ...) at the steps
where Lightning writes its own logs (``log_every_n_steps``).
"""

from __future__ import annotations

import importlib
import importlib.util
import logging
from typing import Any, Iterable, Optional, Union

from guardscope._guards import RecompileError
from guardscope._types import Category
from guardscope.integrations._rehearsal import SAMPLE, Rehearsing
from guardscope.integrations._session import Budget, Guarded, Session, step_file

__all__ = ["GuardscopeCallback"]

logger = logging.getLogger("guardscope")


def _callback_bases() -> tuple[type, ...]:
    """``Callback`` of each Lightning package installed: both ``lightning`` and
    ``pytorch_lightning`` (which ``lightning`` itself installs) are common,
    and a Trainer of either must see an instance of its own class."""
    bases = []
    for package in ("lightning.pytorch", "pytorch_lightning"):
        try:
            found = importlib.util.find_spec(package.split(".")[0]) is not None
        except (ImportError, ValueError):
            found = False
        if found:
            bases.append(importlib.import_module(package).Callback)
    if not bases:
        raise ImportError(
            "guardscope.integrations.lightning needs Lightning: pip install lightning (or pytorch-lightning)"
        )
    return tuple(bases)


_BASES = _callback_bases()
_Base: Any = _BASES[0] if len(_BASES) == 1 else type("_LightningCallbacks", _BASES, {})


def _should_log(trainer: Any) -> bool:
    """Whether Lightning writes its logs at this step (``log_every_n_steps``):
    the connector's flag, which Lightning's own monitors read
    (LearningRateMonitor, DeviceStatsMonitor); without it, every step."""
    if getattr(trainer, "fast_dev_run", False):
        return True
    connector = getattr(trainer, "_logger_connector", None)
    flag = getattr(connector, "should_update_logs", None)
    return True if flag is None else bool(flag)


def _log_rule(trainer: Any) -> tuple[Any, int]:
    """What ``_should_log`` answers at a training batch's end, at a fraction
    of its cost (its flag goes through properties and enum comparisons, about
    10 us after a small model's step): Lightning (1.6 and later) writes its
    logs in the fit loop when ``(_batches_that_stepped + 1) %
    log_every_n_steps == 0`` (the count not yet raised for this batch) or
    once ``should_stop`` is set, and at every step of ``fast_dev_run``.
    Returns that loop and the interval (1 under ``fast_dev_run``); raises
    AttributeError where those attributes are not (the callback then asks
    the flag)."""
    loop = trainer.fit_loop.epoch_loop
    every = trainer.log_every_n_steps
    if not isinstance(loop._batches_that_stepped, int) or not isinstance(every, int):
        raise AttributeError("no int log_every_n_steps or fit_loop.epoch_loop._batches_that_stepped")
    return loop, 1 if getattr(trainer, "fast_dev_run", False) else every


def _steps_tracker(trainer: Any) -> Any:
    """The progress tracker whose ``completed`` is ``trainer.global_step``
    (whose property chain costs about 3 us a read after a small model's
    step): the optimizer's step count in automatic optimization,
    ``optim_step_progress`` in manual (Lightning 1.6 and later); None where
    that is not the layout or the counts disagree."""
    try:
        loop = trainer.fit_loop.epoch_loop
        module = trainer.lightning_module
        if module is None or module.automatic_optimization:
            tracker = loop.automatic_optimization.optim_progress.optimizer.step.total
        else:
            tracker = loop.manual_optimization.optim_step_progress.total
        done = tracker.completed
    except AttributeError:
        return None
    return tracker if type(done) is int and done == trainer.global_step else None


class GuardscopeCallback(_Base):  # type: ignore[misc]
    """Records each optimizer step's compiles and logs compile metrics.

    - ``steps_<rank>.jsonl`` in ``output_dir`` (default: ``trainer.log_dir``),
      one ``StepLogger`` record per optimizer step, numbered as Lightning's
      loggers number steps (the optimizer steps done before it, from 0);
      one file per process (``trainer.global_rank``) under DDP.
    - ``compile/compiles``, ``compile/recompiles``, ``compile/seconds`` and
      ``compile/graph_break_events`` (since the previous logged step) and the
      same names with ``_total`` (since training started), sent to each of
      ``trainer.loggers`` at the steps Lightning writes its logs, with the
      step number Lightning gives its own; a window still unlogged when an
      epoch ends is sent then, at its last step.
    - A recompiling step logs one warning (logger ``guardscope``) with the
      classified cause and the user's line; ``warn=False`` turns it off.
    - ``max_recompiles=K``: more than K recompiles after the first
      ``warmup_steps`` optimizer steps (categories in ``allow`` exempt) stop
      training with ``guardscope.RecompileError``; ``max_recompile_causes=K``
      counts causes instead (one cause can recompile many frames); both may be given.
    - ``rehearse=True``: at ``on_fit_start``, before the sanity check and
      any step, the fit's compiles are rehearsed on a meta copy of the
      module (docs/rehearse.md): the sanity check's validation batches, a
      sample of the training batches and the last, short one with
      ``training_step`` in train mode, then ``validation_step`` in eval mode
      under ``inference_mode``/``no_grad``. The prediction is printed and
      its counts sent to the loggers at step 0 (``rehearse/recompiles``,
      ``rehearse/problems``, ...); a predicted problem, or a part it could
      not see, logs a warning (``on_problem="warn"``) or stops the fit with
      ``guardscope.PredictedProblemError`` (``on_problem="raise"``).
    """

    def __init__(
        self,
        *,
        warmup_steps: int = 0,
        max_recompiles: Optional[int] = None,
        max_recompile_causes: Optional[int] = None,
        allow: Union[Category, Iterable[Category]] = (),
        warn: bool = True,
        output_dir: Optional[str] = None,
        rehearse: bool = False,
        on_problem: str = "warn",
        rehearse_batches: int = SAMPLE,
    ) -> None:
        super().__init__()
        self.budget = Budget(warmup_steps, max_recompiles, allow, max_recompile_causes)
        self.rehearsal = Rehearsing(rehearse, on_problem, rehearse_batches)
        self.warn = warn
        self.output_dir = output_dir
        self.session: Optional[Session] = None
        self._guard = Guarded("GuardscopeCallback")
        # The optimizer steps done when the open record began (None: none open).
        self._began_at: Optional[int] = None
        # trainer.global_step as the last step ended: the next one's number
        # (None: read it from the trainer).
        self._next_step: Optional[int] = None
        # Lightning's own counts, read directly (see _steps_tracker, _log_rule).
        self._tracker: Any = None
        self._log_loop: Any = None
        self._log_every: Optional[int] = None
        # Steps ended since the metrics were last sent, and the last one's number.
        self._unlogged = 0
        self._last_step = 0
        # The loggers whose log_metrics raised (named once each).
        self._failed_sinks: set[str] = set()

    @property
    def path(self) -> Optional[str]:
        """The step file of the current (or last) fit."""
        return None if self.session is None else self.session.path

    def on_fit_start(self, trainer: Any, pl_module: Any) -> None:
        if self.rehearsal.wanted:
            # May raise PredictedProblemError: before the step file opens.
            self.rehearsal.once(lambda: self._rehearse(trainer, pl_module))
            metrics = self.rehearsal.pending()
            for each in trainer.loggers if metrics else ():
                try:
                    each.log_metrics(metrics, step=0)
                except Exception as exc:
                    self._sink_failed(each, exc)
        if self._guard.failed:
            return
        try:
            if self.session is not None:
                self.session.close()
            # trainer.log_dir is a broadcast: every rank reaches this hook.
            directory = self.output_dir or trainer.log_dir or trainer.default_root_dir
            self.session = Session(step_file(directory, int(trainer.global_rank)), self.budget, self.warn)
            self._began_at = None
            # Read at the first batch: a checkpoint's loops are restored after this hook.
            self._next_step = None
            self._tracker = None
            self._unlogged = 0
            try:
                self._log_loop, self._log_every = _log_rule(trainer)
            except AttributeError:
                self._log_loop, self._log_every = None, None
        except Exception as exc:
            self.session = None
            self._guard.fail("open its step file", exc)

    def _rehearse(self, trainer: Any, pl_module: Any) -> Any:
        from guardscope.integrations._plans import lightning_plan

        plan, shapes = lightning_plan(trainer, pl_module, self.rehearsal.batches)
        return self.rehearsal.run("GuardscopeCallback", plan, shapes, speak=int(trainer.global_rank) == 0)

    def on_train_batch_start(self, trainer: Any, pl_module: Any, batch: Any, batch_idx: int) -> None:
        session = self.session
        # With gradient accumulation a step spans batches: it stays open
        # until a batch ends with the optimizer stepped.
        if session is not None and self._began_at is None:
            try:
                step = self._next_step
                if step is None:
                    step = int(trainer.global_step)
                    self._tracker = _steps_tracker(trainer)
                self._began_at = step
                session.log.begin(step)
            except Exception as exc:
                self._off("start a step", exc)

    def on_train_batch_end(self, trainer: Any, pl_module: Any, outputs: Any, batch: Any, batch_idx: int) -> None:
        session = self.session
        began = self._began_at
        if session is None or began is None:
            return
        try:
            tracker = self._tracker
            done = began if tracker is None else tracker.completed
            if done == began:
                # No optimizer step by the tracker (gradient accumulation),
                # or no tracker: the trainer says.
                done = int(trainer.global_step)
                if done == began:
                    return
                self._tracker = None  # it did not follow: read the trainer from now on
            self._last_step, self._began_at, self._next_step = began, None, done
            record = session.log._end()
            if record is not None and not isinstance(record, tuple):
                session.compiled(record)  # may raise RecompileError
            self._unlogged += 1
            every = self._log_every
            if every is None:
                send = _should_log(trainer)
            else:
                send = every > 0 and ((self._log_loop._batches_that_stepped + 1) % every == 0 or bool(trainer.should_stop))
            if send:
                self._send(trainer, session)
        except RecompileError:
            raise
        except Exception as exc:
            self._off("end a step", exc)

    def on_train_epoch_end(self, trainer: Any, pl_module: Any) -> None:
        # Often the short last batch is both what recompiles and a step
        # Lightning does not log at: its window is not left behind.
        session = self.session
        if session is None or not self._unlogged:
            return
        try:
            self._send(trainer, session)
        except Exception as exc:
            self._off("log its metrics", exc)

    def _send(self, trainer: Any, session: Session) -> None:
        # Straight to the loggers, as Lightning's own monitors do:
        # pl_module.log makes a tensor and a result entry per key, about
        # 0.5 ms each, several times a small model's step.
        # Each logger on its own: one that raises (a full disk under
        # CSVLogger, a W&B outage) loses its own metrics, never the others'
        # nor the step records; it is named once and tried again next time.
        self._unlogged = 0
        metrics = session.metrics()
        for each in trainer.loggers:
            try:
                each.log_metrics(metrics, step=self._last_step)
            except Exception as exc:
                self._sink_failed(each, exc)

    def _sink_failed(self, sink: Any, exc: BaseException) -> None:
        name = type(sink).__name__
        if name not in self._failed_sinks:
            self._failed_sinks.add(name)
            logger.warning(
                "GuardscopeCallback: logger %s could not log the compile metrics (%s: %s); the other loggers "
                "and the step records in %s go on",
                name,
                type(exc).__name__,
                exc,
                self.path,
            )

    def on_train_end(self, trainer: Any, pl_module: Any) -> None:
        self._close()

    def on_exception(self, trainer: Any, pl_module: Any, exception: BaseException) -> None:
        self._close()

    def _close(self) -> None:
        self._began_at = None
        self._next_step = None
        self._tracker = None
        if self.session is not None:
            try:
                self.session.close()
            except Exception as exc:
                self._guard.fail("close its step file", exc)

    def _off(self, what: str, exc: BaseException) -> None:
        self._guard.fail(what, exc)
        session, self.session = self.session, None
        self._began_at = None
        self._next_step = None
        if session is not None:
            try:
                session.close()
            except Exception:
                pass
