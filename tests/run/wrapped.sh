#!/bin/sh
# A scheduler's wrapper: the shell stays the parent of python (two commands,
# so it does not exec the first), as `bash train.sh` does.
"$1" "$(dirname "$0")/waits.py"
echo "wrapper: python ended"
