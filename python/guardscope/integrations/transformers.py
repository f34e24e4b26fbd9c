"""``GuardscopeCallback`` for the Hugging Face ``Trainer``.

::

    from guardscope.integrations.transformers import GuardscopeCallback

    trainer = Trainer(model, args, train_dataset=ds, callbacks=[GuardscopeCallback()])

Each optimizer step becomes one ``StepLogger`` record in
``args.output_dir/steps_<process index>.jsonl``; every training log
(``logging_steps``) gains ``compile/*`` metrics, so that ``report_to``'s
backends and ``trainer.state.log_history`` receive them.
"""

from __future__ import annotations

import logging
import sys
from types import FrameType
from typing import Any, Iterable, Optional, Union

import transformers  # type: ignore[import-untyped,unused-ignore]

from guardscope._guards import RecompileError
from guardscope._types import Category
from guardscope.integrations._rehearsal import SAMPLE, Outcome, Rehearsing
from guardscope.integrations._session import Budget, Guarded, Session, step_file

__all__ = ["GuardscopeCallback"]

logger = logging.getLogger("guardscope")


def _callback_handler(callback: object) -> Any:
    """The ``CallbackHandler`` whose ``call_event`` is calling ``callback`` now.

    Callbacks are not handed the trainer or its handler; the handler is the
    ``self`` of a frame a few calls up (``call_event``, in every transformers
    release since 4.0). Found by type and by holding ``callback``, never by
    position, so a changed call chain finds nothing rather than a wrong object.
    """
    handler_type = getattr(transformers.trainer_callback, "CallbackHandler", None)
    frame: Optional[FrameType] = sys._getframe(2)
    for _ in range(8):
        if frame is None:
            return None
        found = frame.f_locals.get("self")
        if handler_type is not None and isinstance(found, handler_type) and callback in getattr(found, "callbacks", ()):
            return found
        frame = frame.f_back
    return None


def _trainer(callback: object) -> Any:
    """The ``Trainer`` whose training loop is calling ``callback`` now: the
    ``self`` of a frame a few calls up, found by type and by holding
    ``callback``, as ``_callback_handler`` finds the handler."""
    frame: Optional[FrameType] = sys._getframe(2)
    for _ in range(12):
        if frame is None:
            return None
        found = frame.f_locals.get("self")
        if isinstance(found, transformers.Trainer) and callback in getattr(found.callback_handler, "callbacks", ()):
            return found
        frame = frame.f_back
    return None


class GuardscopeCallback(transformers.TrainerCallback):  # type: ignore[misc]
    """Records each optimizer step's compiles and logs compile metrics.

    - ``steps_<rank>.jsonl`` in ``output_dir`` (default: ``args.output_dir``),
      one ``StepLogger`` record per optimizer step, numbered as the Trainer's
      logs number steps (``state.global_step`` once the step is done); one
      file per process (``args.process_index``) under DDP.
    - Every training log gains ``compile/compiles``, ``compile/recompiles``,
      ``compile/seconds`` and ``compile/graph_break_events`` (since the previous
      log) and the same names with ``_total`` (since training started); the
      end-of-training summary gains the totals.
    - A recompiling step logs one warning (logger ``guardscope``) with the
      classified cause and the user's line; ``warn=False`` turns it off.
    - ``max_recompiles=K``: more than K recompiles after the first
      ``warmup_steps`` optimizer steps (categories in ``allow`` exempt) stop
      training with ``guardscope.RecompileError``; ``max_recompile_causes=K``
      counts causes instead (one cause can recompile many frames); both may be given.

    - ``rehearse=True``: before the first step, the loop's compiles are
      rehearsed on a meta copy of the model (docs/rehearse.md): a sample of
      the training batches and the last, short one, in train mode, then the
      evaluation's in eval mode under ``no_grad`` when the Trainer will
      evaluate, and ``generate()`` when it evaluates with
      ``predict_with_generate`` (unseen when it cannot run on meta). The prediction is printed, its counts go into the first
      training log (``rehearse/recompiles``, ``rehearse/problems``, ...);
      a predicted problem, or a part it could not see, logs a warning
      (``on_problem="warn"``) or stops with ``guardscope.PredictedProblemError``
      before any step (``on_problem="raise"``).

    ``warmup_steps`` counts compile warm-up steps, unrelated to
    ``TrainingArguments.warmup_steps`` (the learning rate's).
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
        self.budget = Budget(warmup_steps, max_recompiles, allow, max_recompile_causes)
        self.rehearsal = Rehearsing(rehearse, on_problem, rehearse_batches)
        self.warn = warn
        self.output_dir = output_dir
        self.session: Optional[Session] = None
        self._guard = Guarded("GuardscopeCallback")
        # Adding the metrics to the logs failed once: they stay off, the
        # step records go on.
        self._metrics_failed = False

    @property
    def path(self) -> Optional[str]:
        """The step file of the current (or last) training run."""
        return None if self.session is None else self.session.path

    def _go_first(self) -> None:
        # The Trainer calls on_log in list order and the reporting callbacks
        # (TensorBoard, W&B, MLflow, ...) come before the user's: the metrics
        # must be in the logs dict before they read it. Moving while the
        # handler iterates is safe: the entries after this one keep their
        # indices, so none is skipped or called twice.
        handler = _callback_handler(self)
        if handler is not None and handler.callbacks[0] is not self:
            handler.callbacks.remove(self)
            handler.callbacks.insert(0, self)

    def on_init_end(self, args: Any, state: Any, control: Any, **kwargs: Any) -> None:
        try:
            self._go_first()
        except Exception as exc:
            self._guard.fail("place itself before the reporting callbacks", exc)

    def on_train_begin(self, args: Any, state: Any, control: Any, **kwargs: Any) -> None:
        if self._guard.failed:
            return
        if self.rehearsal.wanted:
            # May raise PredictedProblemError: before the step file opens.
            self.rehearsal.once(lambda: _hf_rehearsal(self, args))
        try:
            self._go_first()  # again: callbacks may have been added since __init__
            if self.session is not None:
                self.session.close()
            # The rank is the Trainer's, known once training starts (after
            # the launcher and accelerate have set up the processes).
            path = step_file(self.output_dir or args.output_dir, int(args.process_index))
            self.session = Session(path, self.budget, self.warn)
        except Exception as exc:
            self.session = None
            self._guard.fail("open its step file", exc)

    def on_step_begin(self, args: Any, state: Any, control: Any, **kwargs: Any) -> None:
        session = self.session
        if session is not None:
            try:
                session.log.begin(state.global_step + 1)
            except Exception as exc:
                self._off("start a step", exc)

    def on_step_end(self, args: Any, state: Any, control: Any, **kwargs: Any) -> None:
        session = self.session
        if session is not None:
            try:
                record = session.log._end()
                if record is not None and not isinstance(record, tuple):
                    session.compiled(record)  # may raise RecompileError
            except RecompileError:
                raise
            except Exception as exc:
                self._off("end a step", exc)

    def on_log(self, args: Any, state: Any, control: Any, logs: Optional[dict[str, Any]] = None, **kwargs: Any) -> None:
        session = self.session
        if session is None or logs is None or self._metrics_failed:
            return
        try:
            # Training logs carry the loss; the summary at the end carries
            # train_runtime; evaluation logs (eval_*) get nothing, so no
            # backend sees two values of a train/compile metric at one step.
            if "loss" in logs:
                metrics = {**session.metrics(), **self.rehearsal.pending()}
            elif "train_runtime" in logs:
                metrics = session.metrics(window=False)
            else:
                return
            logs.update(metrics)
            # Trainer.log appends a copy of logs ({**logs, "step": ...}) to
            # log_history just before on_log; that copy is the last entry.
            history = state.log_history
            if history and history[-1] is not logs and history[-1].get("step") == state.global_step:
                history[-1].update(metrics)
        except Exception as exc:
            self._metrics_failed = True
            logger.warning(
                "GuardscopeCallback could not add its metrics to the logs (%s: %s); compile metrics are off, "
                "the step records in %s go on",
                type(exc).__name__,
                exc,
                session.path,
            )

    def on_train_end(self, args: Any, state: Any, control: Any, **kwargs: Any) -> None:
        if self.session is not None:
            try:
                self.session.close()
            except Exception as exc:
                self._guard.fail("close its step file", exc)

    def _off(self, what: str, exc: BaseException) -> None:
        self._guard.fail(what, exc)
        session, self.session = self.session, None
        if session is not None:
            try:
                session.close()
            except Exception:
                pass


def _hf_rehearsal(callback: GuardscopeCallback, args: Any) -> Optional[Outcome]:
    from guardscope.integrations._plans import hf_plan

    trainer = _trainer(callback)
    if trainer is None:
        raise RuntimeError("the Trainer calling it was not found")
    plan, shapes = hf_plan(trainer, callback.rehearsal.batches)
    return callback.rehearsal.run("GuardscopeCallback", plan, shapes, speak=int(args.process_index) == 0)
