"""The plans the callbacks rehearse: each framework's training loop replayed
on a meta copy of the model, with the calls that framework makes.

A plan runs in the rehearsal's forked process, so it may use the trainer's
own methods (``compute_loss``, ``prediction_step``, the precision
plugin's contexts): whatever they change there is thrown away with the
process. Only the forward passes run: Dynamo decides every guard and
recompile in the forward, and torch's autograd cannot run in a process
forked after the parent ran a backward (a second ``train()`` in the same
process, a test suite).
"""

from __future__ import annotations

import warnings
from typing import Any, Callable, Iterator, List, Optional, Tuple

from guardscope.integrations._rehearsal import SAMPLE, Batches, batches_of, meta_wrapped

__all__ = ["hf_plan", "lightning_plan"]

Plan = Callable[[], None]


def _loaders(found: Any) -> Iterator[Any]:
    """The DataLoaders of a Lightning ``*_dataloader`` hook's return (one, a
    list or a dict of them)."""
    if isinstance(found, dict):
        yield from found.values()
    elif isinstance(found, (list, tuple)):
        yield from found
    elif found is not None:
        yield found


def _evaluation_length(dataset: Any, size: int, name: str) -> str:
    try:
        n = len(dataset)
    except TypeError:
        return f"{name}: batches of {size}, length unknown"
    last = f", last batch {n % size}" if n % size else ""
    return f"{name}: {n} samples in batches of {size}{last}"


def _classify_generate(exc: BaseException) -> str:
    if "meta" in str(exc):
        return "it reads token values, special tokens and stopping checks, which meta tensors do not have"
    return "it raised on the meta copy"


def hf_plan(trainer: Any, count: int = SAMPLE) -> Tuple[Plan, List[str]]:
    """The Hugging Face Trainer's loop: ``compute_loss`` on the compiled
    model in train mode for each training batch, then, when the Trainer
    will evaluate, ``prediction_step`` (eval mode, ``no_grad``) on the
    model it evaluates (``trainer.model``: the Trainer compiles only the
    model it trains, unless the user compiled the model itself). With
    ``predict_with_generate``, ``prediction_step`` generates on the copy
    (``trainer.model`` is the copy in the rehearsal's process); where
    ``generate()`` raises, that is noted unseen once per loader and the
    batch's loss forward is rehearsed alone."""
    import torch

    from guardscope._meta import to_meta

    args = trainer.args
    base = trainer.model
    meta = to_meta(base)
    train_model = meta_wrapped(trainer.model_wrapped, base, meta)
    train = batches_of("train", trainer.callback_handler.train_dataloader)
    shapes = [train.describe() if train is not None else "train: batches of no fixed size: not rehearsed"]
    evaluates = trainer.eval_dataset is not None and (str(getattr(args.eval_strategy, "value", args.eval_strategy)) != "no" or args.eval_on_start)
    names: List[Optional[str]] = [None]
    if evaluates:
        datasets = trainer.eval_dataset if isinstance(trainer.eval_dataset, dict) else {None: trainer.eval_dataset}
        names = list(datasets)
        shapes += [_evaluation_length(d, args.eval_batch_size, f"eval {k}" if k else "eval") for k, d in datasets.items()]
    # The Trainer passes prediction_loss_only=True to evaluate's loop unless compute_metrics is set.
    loss_only = True if trainer.compute_metrics is None else args.prediction_loss_only
    # Seq2SeqTrainer's prediction_step generates (on trainer.model) unless only the loss is asked.
    generates = evaluates and bool(getattr(args, "predict_with_generate", False)) and not loss_only
    if generates:
        shapes.append("eval: generate() on each batch (predict_with_generate), with the generation config the Trainer passes")

    def generation_kwargs() -> None:
        # Seq2SeqTrainer.evaluate sets the generate() kwargs (generation_max_length,
        # generation_num_beams) and then runs Trainer.evaluate: run the first part only.
        import transformers  # type: ignore[import-untyped,unused-ignore]

        base = transformers.Trainer.evaluate
        transformers.Trainer.evaluate = lambda self, *a, **k: {}
        try:
            trainer.evaluate()
        finally:
            transformers.Trainer.evaluate = base

    def evaluate() -> None:
        from guardscope._rehearse import note_unseen

        meta.eval()
        if generates:
            # prediction_step calls self.model.generate: the copy's, here.
            trainer.model = meta
            generation_kwargs()
        for name in names:
            label = f"eval {name}" if name else "eval"
            found = batches_of(label, trainer.get_eval_dataloader(name))
            noted = False
            for batch in found.make(count) if found is not None else ():
                inputs = to_meta(batch)
                if not generates:
                    trainer.prediction_step(meta, inputs, prediction_loss_only=loss_only)
                    continue
                try:
                    trainer.prediction_step(meta, inputs, prediction_loss_only=False)
                except Exception as exc:
                    if not noted:
                        noted = True
                        note_unseen("generate", f"{label}: generate() could not run on meta ({_classify_generate(exc)}); its compiles are not predicted, the batch's loss forward is", exc)
                    # The forward that computes the loss after generating, rehearsed alone.
                    trainer.prediction_step(meta, inputs, prediction_loss_only=True)

    def plan() -> None:
        # The batches are on meta already; moving them to args.device would copy out of meta.
        trainer._prepare_inputs = lambda inputs: inputs
        if evaluates and args.eval_on_start:
            evaluate()
        train_model.train()
        for batch in train.make(count) if train is not None else ():
            inputs = to_meta(batch)
            num_items = trainer._get_num_items_in_batch([inputs], torch.device("meta"))
            with torch.enable_grad(), trainer.compute_loss_context_manager():
                trainer.compute_loss(train_model, inputs, num_items_in_batch=num_items)
        if evaluates:
            evaluate()

    return plan, shapes


def lightning_plan(trainer: Any, pl_module: Any, count: int = SAMPLE) -> Tuple[Plan, List[str]]:
    """Lightning's fit: the sanity check's validation batches, then
    ``training_step`` in train mode with grad for each training batch, then
    ``validation_step`` in eval mode under ``inference_mode`` (or
    ``no_grad``, as the Trainer is set), each inside the precision plugin's
    context; the batch hooks around the transfer to the device run too."""
    import torch

    from guardscope._meta import to_meta

    meta = to_meta(pl_module)
    loop = trainer.fit_loop
    train = batches_of("train", loop._data_source.dataloader())
    shapes = [train.describe() if train is not None else "train: batches of no fixed size: not rehearsed"]
    vals: List[Batches] = []
    if trainer.enable_validation:
        for i, each in enumerate(_loaders(loop.epoch_loop.val_loop._data_source.dataloader())):
            found = batches_of(f"val {i}" if i else "val", each)
            if found is not None:
                vals.append(found)
                shapes.append(found.describe())
    sanity = int(trainer.num_sanity_val_steps) if vals else 0
    precision = trainer.strategy.precision_plugin
    no_grad = torch.inference_mode if getattr(loop.epoch_loop.val_loop, "inference_mode", True) else torch.no_grad

    def moved(batch: Any) -> Any:
        batch = meta.on_before_batch_transfer(batch, 0)
        return meta.on_after_batch_transfer(to_meta(batch), 0)

    def validate(limit: Optional[int]) -> None:
        meta.eval()
        with no_grad(), precision.val_step_context():
            for index, found in enumerate(vals):
                batches = found.make(count)
                for i, batch in enumerate(batches[:limit] if limit is not None else batches):
                    extra = (index,) if len(vals) > 1 else ()
                    meta.validation_step(moved(batch), i, *extra)

    def plan() -> None:
        # The copy has no trainer: self.log() warns there and logs nothing.
        warnings.filterwarnings("ignore", message=".*self.log.*")
        if sanity:
            validate(sanity)
        meta.train()
        with torch.enable_grad(), precision.train_step_context():
            for i, batch in enumerate(train.make(count) if train is not None else ()):
                meta.training_step(moved(batch), i)
        if vals:
            validate(None)

    return plan, shapes
