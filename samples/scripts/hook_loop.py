"""A metrics hook on each block of a model that loops over its blocks; the
hook reads a flag, turned on at step 4: Net.forward recompiles
(closure_hook_state). The baseline of hook_loop_disabled.py."""

from _hook_loop_model import train

train("hook_loop", disable=False)
