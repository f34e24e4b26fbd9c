"""``python -m guardscope`` and the ``guardscope`` console script."""

import sys


def main():
    from guardscope import main as run

    sys.exit(run())


if __name__ == "__main__":
    main()
