"""hook_loop.py with the hook decorated with @torch._dynamo.disable: no
recompile, but the hook is a graph break inside Net.forward's loop over its
blocks, so Dynamo skips Net.forward (it runs eagerly every call) and compiles
each block on its own."""

from _hook_loop_model import train

train("hook_loop_disabled", disable=True)
