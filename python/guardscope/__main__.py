"""``python -m guardscope`` and the ``guardscope`` console script."""

from __future__ import annotations

import sys


def main() -> None:
    from guardscope import main as run

    sys.exit(run())


if __name__ == "__main__":
    main()
