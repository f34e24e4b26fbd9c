#!/bin/sh
# A launcher that passes on the environment but TORCH_TRACE (as one that
# rebuilds the environment from a list of its own does): the command's
# TORCH_TRACE log never reaches guardscope's directory.
exec env -u TORCH_TRACE "$@"
