"""guardscope's pytest plugin (entry point ``pytest11``): fail a test that
recompiles, with the classified cause ``RecompileError`` shows.

- ``@pytest.mark.no_recompiles(max=0, allow=(), warmup_steps=0, all_threads=False, reset=True)``:
  the test body runs inside ``guardscope.no_recompiles(...)``.
- the ``compile_budget`` fixture: the same guard, opened when the fixture is
  set up, handed to the test (``compile_budget.step(n)`` marks steps,
  ``compile_budget.recompiles`` are the counted ones so far); a
  ``no_recompiles`` marker on the test sets its limits.

Either way Dynamo starts the test fresh (``torch._dynamo.reset()``, when
torch has compiled anything in this process; ``reset=False`` keeps what
earlier tests compiled): Dynamo's code cache lives as long as the pytest
process, so without the reset a test's verdict would depend on which tests
ran before it (a recompile already cached passes, a frame compiled for
other inputs recompiles). The check runs when the test body returns, and a recompile over
the budget fails the test itself (not its teardown). Loaded in every pytest
run where guardscope is installed, so this module imports nothing heavy:
guardscope's compile helpers (and torch) load only for a test that asks.

In every test, marked or not, pytest's log capture is kept off torch's
structured trace logger (``torch.__trace``): pytest attaches its capture
handlers to every logger that does not propagate, and that one carries
each compile event as an empty DEBUG message, a hundred or more lines under
each failing test (and in ``caplog``). guardscope's own handler there, and
a TORCH_TRACE one, keep receiving every event.
"""

from __future__ import annotations

import logging
import sys
from typing import TYPE_CHECKING, Any, Generator, Optional

import pytest

if TYPE_CHECKING:
    from guardscope._guards import no_recompiles

# pytest leaves this module's frames out of a failure's traceback: a test
# failed by its recompiles opens with its cause, not with the plugin's source.
__tracebackhide__ = True

MARKER = "no_recompiles"
_GUARD = pytest.StashKey["no_recompiles"]()
_OPEN = pytest.StashKey[bool]()


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        f"{MARKER}(max=0, allow=(), warmup_steps=0, reset=True): fail the test when torch.compile "
        "recompiles inside it (more than `max` times, after `warmup_steps` steps, categories in "
        "`allow` excepted), with the classified cause; Dynamo is reset before the test unless "
        "reset=False (guardscope)",
    )


def _guard(item: pytest.Item) -> no_recompiles:
    """A ``no_recompiles`` guard with the limits of the test's marker."""
    from guardscope._guards import no_recompiles

    marker = item.get_closest_marker(MARKER)
    kwargs: dict[str, Any] = dict(marker.kwargs) if marker is not None else {}
    if marker is not None and marker.args:
        raise pytest.UsageError(
            f"{item.nodeid}: @pytest.mark.{MARKER} takes keywords only (max=, max_recompile_causes=, allow=, warmup_steps=, all_threads=, reset=)"
        )
    reset = kwargs.pop("reset", True)
    if not isinstance(reset, bool):
        raise pytest.UsageError(f"{item.nodeid}: @pytest.mark.{MARKER}(reset=) takes True or False, not {reset!r}")
    if "max" in kwargs:
        kwargs["max_recompiles"] = kwargs.pop("max")
    unknown = sorted(set(kwargs) - {"max_recompiles", "max_recompile_causes", "allow", "warmup_steps", "all_threads"})
    if unknown:
        raise pytest.UsageError(
            f"{item.nodeid}: @pytest.mark.{MARKER} has no {', '.join(unknown)} (max=, max_recompile_causes=, allow=, warmup_steps=, all_threads=, reset=)"
        )
    if reset:
        _reset_dynamo()
    return no_recompiles(**kwargs)


def _reset_dynamo() -> None:
    """Forgets what Dynamo compiled before this test (see the module's docstring)."""
    # Without torch._dynamo loaded nothing was compiled; importing it here
    # would only cost the test torch's import time.
    if "torch._dynamo" in sys.modules:
        sys.modules["torch._dynamo"].reset()


def _open(item: pytest.Item) -> no_recompiles:
    guard = _guard(item)
    guard.__enter__()
    item.stash[_GUARD] = guard
    item.stash[_OPEN] = True
    return guard


def _close(item: pytest.Item, exc: Optional[BaseException]) -> None:
    """Ends the test's guard once; raises its ``RecompileError`` when ``exc`` is None."""
    if not item.stash.get(_OPEN, False):
        return
    item.stash[_OPEN] = False
    guard = item.stash[_GUARD]
    if exc is None:
        guard.__exit__(None, None, None)
    else:
        guard.__exit__(type(exc), exc, exc.__traceback__)


def _capture_off_the_trace_logger() -> None:
    """Takes pytest's capture handlers (those of the root logger, which pytest
    also puts on every non-propagating logger) off ``torch.__trace``."""
    trace_log = logging.Logger.manager.loggerDict.get("torch.__trace")
    if not isinstance(trace_log, logging.Logger):
        return
    # torch's own rule: the trace logger never reaches the root's handlers.
    for handler in logging.getLogger().handlers:
        trace_log.removeHandler(handler)


# trylast: inside pytest's logging wrapper, which attaches the capture
# handlers when each phase starts.
@pytest.hookimpl(hookwrapper=True, trylast=True)
def pytest_runtest_setup(item: pytest.Item) -> Generator[None, Any, None]:
    _capture_off_the_trace_logger()
    yield


@pytest.hookimpl(hookwrapper=True, trylast=True)
def pytest_runtest_teardown(item: pytest.Item) -> Generator[None, Any, None]:
    _capture_off_the_trace_logger()
    yield


@pytest.hookimpl(hookwrapper=True, trylast=True)
def pytest_runtest_call(item: pytest.Item) -> Generator[None, Any, None]:
    _capture_off_the_trace_logger()
    if not item.stash.get(_OPEN, False):
        if item.get_closest_marker(MARKER) is None:
            yield
            return
        _open(item)
    outcome = yield
    excinfo = outcome.excinfo
    try:
        _close(item, None if excinfo is None else excinfo[1])
    except Exception as failed:  # RecompileError (or a ValueError on a misused warmup): the test fails with it
        outcome.force_exception(failed)


@pytest.fixture
def compile_budget(request: pytest.FixtureRequest) -> Generator[no_recompiles, None, None]:
    """A ``guardscope.no_recompiles()`` guard around the test (limits from its
    ``no_recompiles`` marker, else none allowed); the test fails with the
    recompiles' causes when it has more than its budget."""
    guard = _open(request.node)
    try:
        yield guard
    finally:
        # Reached without the call phase (a setup error): release, no verdict.
        if request.node.stash.get(_OPEN, False):
            request.node.stash[_OPEN] = False
            guard.__exit__(RuntimeError, RuntimeError("test not run"), None)
