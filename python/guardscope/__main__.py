"""``python -m guardscope`` and the ``guardscope`` console script."""

from __future__ import annotations

import signal
import sys


def main() -> None:
    from guardscope import main as run

    # Python's SIGINT handler only sets a flag that the interpreter checks
    # between bytecodes; while the Rust CLI runs (watch follows logs until
    # stopped, a summary of a large log takes a while) nothing checks it,
    # so Ctrl-C did nothing. This process is the CLI and nothing else: give
    # SIGINT back its default action, as the cargo-built binary has it, and
    # Ctrl-C ends the command at once (a shell reports 130). `guardscope.main()`
    # called as a library keeps the caller's handler: only this entry point
    # changes it.
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    sys.exit(run())


if __name__ == "__main__":
    main()
