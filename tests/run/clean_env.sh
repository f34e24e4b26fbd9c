#!/bin/sh
# A launcher that starts the command in an empty environment (`env -i`):
# neither TORCH_TRACE nor TORCH_LOGS reaches it.
exec env -i "$@"
