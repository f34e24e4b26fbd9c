"""Callbacks for training frameworks, each in its own module so that
``import guardscope`` imports none of them:

- ``guardscope.integrations.transformers.GuardscopeCallback``: Hugging Face
  ``Trainer(..., callbacks=[GuardscopeCallback()])``.
- ``guardscope.integrations.lightning.GuardscopeCallback``: Lightning
  ``Trainer(callbacks=[GuardscopeCallback()])`` (``lightning`` or
  ``pytorch_lightning``).

Both write one ``StepLogger`` record per optimizer step
(``steps_<rank>.jsonl``, read by ``guardscope steps`` and ``report
--steps``), log per-window compile metrics (``compile/recompiles``,
``compile/seconds``, ...) to the framework's loggers, warn on each
recompiling step with its classified cause, and can stop training with
``RecompileError`` past ``max_recompiles`` (docs/python.md).
"""
