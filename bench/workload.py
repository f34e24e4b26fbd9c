"""The torch program whose TORCH_TRACE log the benchmark parses (run by make_logs.py).

A decoder-only transformer (token + position embeddings, N pre-LayerNorm blocks
of causal/non-causal self-attention and a GELU MLP, LM head, cross-entropy) is
compiled once with backend="inductor" and dynamic=False, then driven through a
schedule of configurations that each force a real recompile, the way training
scripts do by accident:

- a new sequence length (dynamic=False: a static size guard fails every time);
- a flag read in forward (`model.causal`, guarded as an attribute of self);
- train/eval switches (eval runs under no_grad: the grad-mode guard and
  `training` fail; these compiles are inference-only, no backward graph);
- a forward hook whose closure reads a mutable flag (the incident guardscope
  exists for: `collector.capture_norms`).

Training steps run backward, so AOT backward graphs and bwd_compilation_metrics
are logged too. The schedule repeats with ever-new sequence lengths until the
log reaches --target-mb: log size, not wall time, decides when to stop, so two
runs with the same arguments log the same compiles (only timestamps, pids,
durations and addresses differ). Each configuration runs two steps; the second
reuses the compiled code, as a real loop would.

Usage (normally via make_logs.py, which sets TORCH_TRACE and a fresh inductor
cache directory): TORCH_TRACE=DIR python bench/workload.py --target-mb 50
"""

import argparse
import json
import math
import os
import sys
import time
from pathlib import Path

import torch
import torch._dynamo
import torch._dynamo.utils as dynamo_utils
import torch.nn as nn
import torch.nn.functional as F

VOCAB = 512
BATCH = 2


class Block(nn.Module):
    def __init__(self, d_model, n_heads):
        super().__init__()
        self.n_heads = n_heads
        self.ln1 = nn.LayerNorm(d_model)
        self.qkv = nn.Linear(d_model, 3 * d_model)
        self.proj = nn.Linear(d_model, d_model)
        self.ln2 = nn.LayerNorm(d_model)
        self.fc1 = nn.Linear(d_model, 4 * d_model)
        self.fc2 = nn.Linear(4 * d_model, d_model)
        self.drop = nn.Dropout(0.1)

    def forward(self, x, causal):
        b, t, d = x.shape
        q, k, v = self.qkv(self.ln1(x)).split(d, dim=-1)
        # (b, t, d) -> (b, heads, t, d/heads)
        q, k, v = (z.view(b, t, self.n_heads, d // self.n_heads).transpose(1, 2) for z in (q, k, v))
        # Attention written out (not F.scaled_dot_product_attention) so the graphs
        # look like those of the many models that still do it by hand.
        scores = (q @ k.transpose(-2, -1)) / math.sqrt(d // self.n_heads)
        if causal:
            mask = torch.ones(t, t, dtype=torch.bool, device=x.device).triu(1)
            scores = scores.masked_fill(mask, float("-inf"))
        att = self.drop(torch.softmax(scores, dim=-1))
        y = (att @ v).transpose(1, 2).reshape(b, t, d)
        x = x + self.drop(self.proj(y))
        return x + self.drop(self.fc2(F.gelu(self.fc1(self.ln2(x)))))


class Decoder(nn.Module):
    def __init__(self, n_layers, d_model, n_heads, max_len):
        super().__init__()
        self.tok = nn.Embedding(VOCAB, d_model)
        # Full-size position table sliced in forward (not lazily grown), so the
        # only shape guards that fail are the input's.
        self.pos = nn.Parameter(torch.randn(max_len, d_model) * 0.02)
        self.blocks = nn.ModuleList(Block(d_model, n_heads) for _ in range(n_layers))
        self.ln_f = nn.LayerNorm(d_model)
        self.head = nn.Linear(d_model, VOCAB)
        # Read in forward: Dynamo guards on it, so flipping it recompiles.
        self.causal = False

    def forward(self, tokens):
        x = self.tok(tokens) + self.pos[: tokens.shape[1]]
        for block in self.blocks:
            x = block(x, self.causal)
        return self.head(self.ln_f(x))


class Collector:
    """Mutable state read by a forward hook, like a metrics collector."""

    def __init__(self):
        self.capture_norms = False
        self.norms = []


def install_hook(model, collector):
    # Installed before torch.compile, so Dynamo traces it (hooks added later are
    # ignored by compiled code) and guards on the closure's collector flag.
    def norm_hook(module, inputs, output):
        if collector.capture_norms:
            collector.norms.append(output.detach().norm())

    model.blocks[-1].register_forward_hook(norm_hook)


def schedule():
    """Endless list of (mode, seq_len, causal, capture) configurations.

    Every entry differs from all earlier ones, so each one compiles. The first
    round covers each kind of trigger once; later rounds only need new lengths.
    """
    seq = 32
    round_no = 0
    while True:
        if round_no == 0:
            yield ("train", seq, False, False)  # 0/0: first compile
            yield ("train", seq + 16, False, False)  # size mismatch on tokens
            yield ("train", seq, True, False)  # self.causal changed
            yield ("eval", seq, True, False)  # grad mode / training changed
            yield ("train", seq, True, True)  # hook closure flag changed
            yield ("eval", seq + 16, False, False)
            seq += 32
        else:
            causal = round_no % 2 == 1
            yield ("train", seq, causal, False)
            yield ("eval", seq, causal, False)
            yield ("train", seq + 8, not causal, round_no % 3 == 0)
            seq += 16
        round_no += 1


def log_bytes():
    trace_dir = os.environ.get("TORCH_TRACE")
    if not trace_dir:
        return 0
    return sum(p.stat().st_size for p in Path(trace_dir).glob("*.log"))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--target-mb", type=float, default=50.0, help="stop once the log is this large (10^6 bytes)")
    # 8 blocks: ~4 MB per training compile, so a 50 MB log holds ~13 compiles.
    # Deeper logs more per compile at about the same MB per second of
    # generation, but fewer recompiles fit (24 blocks: ~11 MB, 6 compiles).
    ap.add_argument("--layers", type=int, default=8)
    ap.add_argument("--d-model", type=int, default=128)
    ap.add_argument("--heads", type=int, default=4)
    ap.add_argument("--max-configs", type=int, default=64, help="safety stop")
    ap.add_argument("--summary", help="write a JSON summary of the compiles here")
    args = ap.parse_args()
    if not os.environ.get("TORCH_TRACE"):
        sys.exit("workload.py: set TORCH_TRACE to a directory (make_logs.py does)")

    # Every configuration is meant to recompile: raise the per-frame limit (8 by
    # default) so none is refused and run eagerly instead.
    torch._dynamo.config.recompile_limit = args.max_configs + 8
    torch._dynamo.config.accumulated_recompile_limit = 10 * (args.max_configs + 8)
    dynamo_utils.set_compilation_metrics_limit(10 * (args.max_configs + 8))

    torch.manual_seed(0)
    max_len = 32 + 32 + 16 * args.max_configs + 64
    model = Decoder(args.layers, args.d_model, args.heads, max_len)
    collector = Collector()
    install_hook(model, collector)
    compiled = torch.compile(model, backend="inductor", dynamic=False)
    opt = torch.optim.SGD(model.parameters(), lr=1e-3)
    target = args.target_mb * 1e6

    t_start = time.perf_counter()
    for i, (mode, seq_len, causal, capture) in enumerate(schedule()):
        if i >= args.max_configs or log_bytes() >= target:
            break
        model.causal = causal
        collector.capture_norms = capture
        model.train(mode == "train")
        t0 = time.perf_counter()
        for _ in range(2):
            tokens = torch.randint(0, VOCAB, (BATCH, seq_len))
            if mode == "train":
                logits = compiled(tokens)
                loss = F.cross_entropy(logits[:, :-1].reshape(-1, VOCAB), tokens[:, 1:].reshape(-1))
                opt.zero_grad(set_to_none=True)
                loss.backward()
                opt.step()
            else:
                with torch.no_grad():
                    compiled(tokens)
        print(
            f"[workload] config {i:2d} {mode:5s} seq {seq_len:3d} causal {causal!s:5s} "
            f"capture {capture!s:5s} {time.perf_counter() - t0:6.1f} s  log {log_bytes() / 1e6:6.1f} MB",
            flush=True,
        )

    metrics = dynamo_utils.get_compilation_metrics()
    forward = [m for m in metrics if m.is_forward]
    summary = {
        "pid": os.getpid(),
        "torch": torch.__version__,
        "layers": args.layers,
        "d_model": args.d_model,
        "configs": i,
        "dynamo_compiles": len(forward),
        "recompiles": sum(1 for m in forward if m.recompile_reason),
        "backward_compiles": len(metrics) - len(forward),
        "seconds": round(time.perf_counter() - t_start, 1),
    }
    print("[workload] " + json.dumps(summary), flush=True)
    if args.summary:
        Path(args.summary).write_text(json.dumps(summary, indent=2) + "\n")


if __name__ == "__main__":
    main()
