"""Make the activation-trace samples of `guardscope diff` with real torch and
guardscope's real hooks (never written or edited by hand).

Usage: .venv/bin/python samples/activations/make_traces.py [OUT_DIR]

Writes, gzipped deterministically (mtime 0), into OUT_DIR (default: this
directory):

- base.jsonl.gz           the model, 6 steps
- base_again.jsonl.gz     the same model built again from the same seed: equal to base
- perturbed.jsonl.gz      blocks.2.fc1's weights + noise of 0.3x their mean |w|: first divergent
                          record is blocks.2.fc1 at step 0; blocks 0-1 and blocks.2.ln equal
- compiled.jsonl.gz       the same model under torch.compile(backend="aot_eager"), hooks
                          in mode "op" inside the graph: equal to base within tolerance
- renamed.jsonl.gz        the same model under a `transformer.` prefix (module tree
                          wrapped): equal to base after `--strip-prefix B=transformer.`
- nan.jsonl.gz            blocks.3.fc2's weight[0, 0] set to NaN: NaN from blocks.3.fc2 on

Model: 4 residual MLP blocks (LayerNorm, Linear d->2d, GELU, Linear 2d->d),
d=32, then a Linear head; input 4x16x32, a different seeded batch per step;
eager, CPU, float32, one torch thread, under no_grad. Hooked: every block,
every block's submodule and the head (21 modules), stats
abs_mean,sum,min,max,mean,std. Records are in execution order: a block's
submodules before the block itself.

The tests (tests/activation_diff_real.rs) rely on these facts; regenerate
with the same torch (see meta.json) and run them again if you change this.
"""

import gzip
import json
import os
import platform
import shutil
import sys
import tempfile
from pathlib import Path

import torch
from torch import nn

import guardscope

HERE = Path(__file__).resolve().parent
D = 32
BLOCKS = 4
STEPS = 6
STATS = ("abs_mean", "sum", "min", "max", "mean", "std")
LAYERS = r"^(blocks\.\d+(\.\w+)?|head)$"


class Block(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.ln = nn.LayerNorm(d)
        self.fc1 = nn.Linear(d, 2 * d)
        self.act = nn.GELU()
        self.fc2 = nn.Linear(2 * d, d)

    def forward(self, x):
        return x + self.fc2(self.act(self.fc1(self.ln(x))))


class Net(nn.Module):
    def __init__(self, d=D, blocks=BLOCKS):
        super().__init__()
        self.blocks = nn.ModuleList(Block(d) for _ in range(blocks))
        self.head = nn.Linear(d, 8)

    def forward(self, x):
        for block in self.blocks:
            x = block(x)
        return self.head(x)


class Ported(nn.Module):
    """The same network one level down, as a port often nests it."""

    def __init__(self, net):
        super().__init__()
        self.transformer = net

    def forward(self, x):
        return self.transformer(x)


def build():
    torch.manual_seed(0)
    return Net().eval()


def run(model, path, layers=LAYERS, compile=False):
    trace = guardscope.trace_activations(model, layers=layers, stats=STATS, output=path)
    forward = torch.compile(model, backend="aot_eager", fullgraph=True) if compile else model
    with torch.no_grad():
        for step in range(STEPS):
            trace.set_step(step)
            gen = torch.Generator().manual_seed(1000 + step)
            forward(torch.randn(4, 16, D, generator=gen))
    trace.close()
    return len(trace.modules)


def gzip_into(src, dst):
    with open(src, "rb") as f, open(dst, "wb") as raw:
        with gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0) as gz:
            shutil.copyfileobj(f, gz)


def main():
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else HERE
    out.mkdir(parents=True, exist_ok=True)
    torch.set_num_threads(1)
    made = {}
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        made["base"] = run(build(), tmp / "base.jsonl")
        made["base_again"] = run(build(), tmp / "base_again.jsonl")

        made["compiled"] = run(build(), tmp / "compiled.jsonl", compile=True)

        perturbed = build()
        with torch.no_grad():
            gen = torch.Generator().manual_seed(7)
            w = perturbed.blocks[2].fc1.weight
            w.add_(0.3 * w.abs().mean() * torch.randn(w.shape, generator=gen))
        made["perturbed"] = run(perturbed, tmp / "perturbed.jsonl")

        made["renamed"] = run(Ported(build()), tmp / "renamed.jsonl", layers=r"^transformer\.(blocks\.\d+(\.\w+)?|head)$")

        broken = build()
        with torch.no_grad():
            broken.blocks[3].fc2.weight[0, 0] = float("nan")
        made["nan"] = run(broken, tmp / "nan.jsonl")

        for name in made:
            gzip_into(tmp / f"{name}.jsonl", out / f"{name}.jsonl.gz")
    meta = {
        "script": "samples/activations/make_traces.py",
        "torch": torch.__version__,
        "python": platform.python_version(),
        "hooked_modules": made,
        "steps": STEPS,
        "stats": list(STATS),
    }
    (out / "meta.json").write_text(json.dumps(meta, indent=2) + "\n")
    for name in made:
        print(f"{out / (name + '.jsonl.gz')}: {made[name]} modules hooked")


if __name__ == "__main__":
    os.environ.setdefault("PYTHONHASHSEED", "0")
    main()
