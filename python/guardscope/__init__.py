"""guardscope: explains torch.compile recompilations.

The command line (``guardscope summary TRACE_DIR``) reads TORCH_TRACE logs;
``guardscope.main`` runs the same command line from Python.
"""

from guardscope._native import __version__, run_cli

__all__ = ["__version__", "main", "run_cli"]


def main(argv=None):
    """Runs the guardscope CLI with ``argv`` (default: ``sys.argv[1:]``) and returns its exit code."""
    import sys

    args = sys.argv[1:] if argv is None else list(argv)
    return run_cli(["guardscope", *args])
